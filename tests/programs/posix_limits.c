// What sysconf, pathconf, confstr and gethostname answer, as glibc on Linux: whether sysconf
// sets errno for each name, pathconf's limits on a tmpfs and its errors, the confstr strings a
// program parses, and gethostname's ENAMETOOLONG. Compared byte for byte with the native build;
// where the right value depends on the machine or on wasm32's widths, a property is printed.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "posix_report.h"

#define NAME(n) {#n, n}
static const struct {
    const char *name;
    int value;
} sysconf_names[] = {
    NAME(_SC_2_CHAR_TERM),
    NAME(_SC_2_C_BIND),
    NAME(_SC_2_C_DEV),
    NAME(_SC_2_FORT_DEV),
    NAME(_SC_2_FORT_RUN),
    NAME(_SC_2_LOCALEDEF),
    NAME(_SC_2_PBS),
    NAME(_SC_2_PBS_ACCOUNTING),
    NAME(_SC_2_PBS_CHECKPOINT),
    NAME(_SC_2_PBS_LOCATE),
    NAME(_SC_2_PBS_MESSAGE),
    NAME(_SC_2_PBS_TRACK),
    NAME(_SC_2_SW_DEV),
    NAME(_SC_2_UPE),
    NAME(_SC_2_VERSION),
    NAME(_SC_ADVISORY_INFO),
    NAME(_SC_AIO_LISTIO_MAX),
    NAME(_SC_AIO_MAX),
    NAME(_SC_AIO_PRIO_DELTA_MAX),
    NAME(_SC_ARG_MAX),
    NAME(_SC_ASYNCHRONOUS_IO),
    NAME(_SC_ATEXIT_MAX),
    NAME(_SC_AVPHYS_PAGES),
    NAME(_SC_BARRIERS),
    NAME(_SC_BC_BASE_MAX),
    NAME(_SC_BC_DIM_MAX),
    NAME(_SC_BC_SCALE_MAX),
    NAME(_SC_BC_STRING_MAX),
    NAME(_SC_CHILD_MAX),
    NAME(_SC_CLK_TCK),
    NAME(_SC_CLOCK_SELECTION),
    NAME(_SC_COLL_WEIGHTS_MAX),
    NAME(_SC_CPUTIME),
    NAME(_SC_DELAYTIMER_MAX),
    NAME(_SC_EXPR_NEST_MAX),
    NAME(_SC_FSYNC),
    NAME(_SC_GETGR_R_SIZE_MAX),
    NAME(_SC_GETPW_R_SIZE_MAX),
    NAME(_SC_HOST_NAME_MAX),
    NAME(_SC_IOV_MAX),
    NAME(_SC_IPV6),
    NAME(_SC_JOB_CONTROL),
    NAME(_SC_LINE_MAX),
    NAME(_SC_LOGIN_NAME_MAX),
    NAME(_SC_MAPPED_FILES),
    NAME(_SC_MEMLOCK),
    NAME(_SC_MEMLOCK_RANGE),
    NAME(_SC_MEMORY_PROTECTION),
    NAME(_SC_MESSAGE_PASSING),
    NAME(_SC_MINSIGSTKSZ),
    NAME(_SC_MONOTONIC_CLOCK),
    NAME(_SC_MQ_OPEN_MAX),
    NAME(_SC_MQ_PRIO_MAX),
    NAME(_SC_NGROUPS_MAX),
    NAME(_SC_NPROCESSORS_CONF),
    NAME(_SC_NPROCESSORS_ONLN),
    NAME(_SC_NZERO),
    NAME(_SC_OPEN_MAX),
    NAME(_SC_PAGESIZE),
    NAME(_SC_PAGE_SIZE),
    NAME(_SC_PASS_MAX),
    NAME(_SC_PHYS_PAGES),
    NAME(_SC_PRIORITIZED_IO),
    NAME(_SC_PRIORITY_SCHEDULING),
    NAME(_SC_RAW_SOCKETS),
    NAME(_SC_READER_WRITER_LOCKS),
    NAME(_SC_REALTIME_SIGNALS),
    NAME(_SC_REGEXP),
    NAME(_SC_RE_DUP_MAX),
    NAME(_SC_RTSIG_MAX),
    NAME(_SC_SAVED_IDS),
    NAME(_SC_SEMAPHORES),
    NAME(_SC_SEM_NSEMS_MAX),
    NAME(_SC_SEM_VALUE_MAX),
    NAME(_SC_SHARED_MEMORY_OBJECTS),
    NAME(_SC_SHELL),
    NAME(_SC_SIGQUEUE_MAX),
    NAME(_SC_SIGSTKSZ),
    NAME(_SC_SPAWN),
    NAME(_SC_SPIN_LOCKS),
    NAME(_SC_SPORADIC_SERVER),
    NAME(_SC_SS_REPL_MAX),
    NAME(_SC_STREAMS),
    NAME(_SC_STREAM_MAX),
    NAME(_SC_SYMLOOP_MAX),
    NAME(_SC_SYNCHRONIZED_IO),
    NAME(_SC_THREADS),
    NAME(_SC_THREAD_ATTR_STACKADDR),
    NAME(_SC_THREAD_ATTR_STACKSIZE),
    NAME(_SC_THREAD_CPUTIME),
    NAME(_SC_THREAD_DESTRUCTOR_ITERATIONS),
    NAME(_SC_THREAD_KEYS_MAX),
    NAME(_SC_THREAD_PRIORITY_SCHEDULING),
    NAME(_SC_THREAD_PRIO_INHERIT),
    NAME(_SC_THREAD_PRIO_PROTECT),
    NAME(_SC_THREAD_PROCESS_SHARED),
    NAME(_SC_THREAD_ROBUST_PRIO_INHERIT),
    NAME(_SC_THREAD_ROBUST_PRIO_PROTECT),
    NAME(_SC_THREAD_SAFE_FUNCTIONS),
    NAME(_SC_THREAD_SPORADIC_SERVER),
    NAME(_SC_THREAD_STACK_MIN),
    NAME(_SC_THREAD_THREADS_MAX),
    NAME(_SC_TIMEOUTS),
    NAME(_SC_TIMERS),
    NAME(_SC_TIMER_MAX),
    NAME(_SC_TRACE),
    NAME(_SC_TRACE_EVENT_FILTER),
    NAME(_SC_TRACE_EVENT_NAME_MAX),
    NAME(_SC_TRACE_INHERIT),
    NAME(_SC_TRACE_LOG),
    NAME(_SC_TRACE_NAME_MAX),
    NAME(_SC_TRACE_SYS_MAX),
    NAME(_SC_TRACE_USER_EVENT_MAX),
    NAME(_SC_TTY_NAME_MAX),
    NAME(_SC_TYPED_MEMORY_OBJECTS),
    NAME(_SC_TZNAME_MAX),
    NAME(_SC_UIO_MAXIOV),
    NAME(_SC_V6_ILP32_OFF32),
    NAME(_SC_V6_ILP32_OFFBIG),
    NAME(_SC_V6_LP64_OFF64),
    NAME(_SC_V6_LPBIG_OFFBIG),
    NAME(_SC_V7_ILP32_OFF32),
    NAME(_SC_V7_ILP32_OFFBIG),
    NAME(_SC_V7_LP64_OFF64),
    NAME(_SC_V7_LPBIG_OFFBIG),
    NAME(_SC_VERSION),
    NAME(_SC_XBS5_ILP32_OFF32),
    NAME(_SC_XBS5_ILP32_OFFBIG),
    NAME(_SC_XBS5_LP64_OFF64),
    NAME(_SC_XBS5_LPBIG_OFFBIG),
    NAME(_SC_XOPEN_CRYPT),
    NAME(_SC_XOPEN_ENH_I18N),
    NAME(_SC_XOPEN_LEGACY),
    NAME(_SC_XOPEN_REALTIME),
    NAME(_SC_XOPEN_REALTIME_THREADS),
    NAME(_SC_XOPEN_SHM),
    NAME(_SC_XOPEN_STREAMS),
    NAME(_SC_XOPEN_UNIX),
    NAME(_SC_XOPEN_VERSION),
    NAME(_SC_XOPEN_XCU_VERSION),
    NAME(_SC_XOPEN_XPG2),
    NAME(_SC_XOPEN_XPG3),
    NAME(_SC_XOPEN_XPG4),
};

static void sysconf_errno(void)
{
    /* the values differ by machine; whether a name is answered (errno untouched) must not */
    for (size_t i = 0; i < sizeof sysconf_names / sizeof sysconf_names[0]; i++) {
        errno = 0;
        long value = sysconf(sysconf_names[i].value);
        printf("sysconf(%s): %s\n", sysconf_names[i].name,
               value == -1 && errno != 0 ? errno_name(errno) : "answered");
    }
    printf("sysconf(_SC_MQ_PRIO_MAX): %ld\n", sysconf(_SC_MQ_PRIO_MAX));
    printf("sysconf(_SC_SIGSTKSZ) >= MINSIGSTKSZ: %d\n", sysconf(_SC_SIGSTKSZ) >= sysconf(_SC_MINSIGSTKSZ));
}

static const struct {
    const char *name;
    int value;
} pathconf_names[] = {
    NAME(_PC_LINK_MAX),          NAME(_PC_MAX_CANON),         NAME(_PC_MAX_INPUT),
    NAME(_PC_NAME_MAX),          NAME(_PC_PATH_MAX),          NAME(_PC_PIPE_BUF),
    NAME(_PC_CHOWN_RESTRICTED),  NAME(_PC_NO_TRUNC),          NAME(_PC_VDISABLE),
    NAME(_PC_SYNC_IO),           NAME(_PC_ASYNC_IO),          NAME(_PC_PRIO_IO),
    NAME(_PC_SOCK_MAXBUF),       NAME(_PC_FILESIZEBITS),      NAME(_PC_REC_INCR_XFER_SIZE),
    NAME(_PC_REC_MAX_XFER_SIZE), NAME(_PC_REC_MIN_XFER_SIZE), NAME(_PC_REC_XFER_ALIGN),
    NAME(_PC_ALLOC_SIZE_MIN),    NAME(_PC_SYMLINK_MAX),       NAME(_PC_2_SYMLINKS),
};

static void print_limit(const char *call, const char *name, long value)
{
    printf("%s(%s): %ld %s\n", call, name, value, errno_name(errno));
    errno = 0;
}

static void pathconf_values(void)
{
    /* Spindle's tree is a tmpfs; natively, /dev/shm is one */
#ifdef __wasi__
    const char *dir = "/tmp";
#else
    const char *dir = "/dev/shm";
#endif
    char file[128], below_file[160];
    snprintf(file, sizeof file, "%s/posix_limits.%d", dir, (int)getpid());
    snprintf(below_file, sizeof below_file, "%s/x", file);
    int fd = open(file, O_CREAT | O_RDWR | O_TRUNC, 0644);
    errno = 0;
    for (size_t i = 0; i < sizeof pathconf_names / sizeof pathconf_names[0]; i++) {
        print_limit("pathconf", pathconf_names[i].name, pathconf(dir, pathconf_names[i].value));
        /* glibc says 1 for a regular file, where its POSIX AIO works; Spindle has none (-1) */
        if (pathconf_names[i].value != _PC_ASYNC_IO)
            print_limit("fpathconf", pathconf_names[i].name, fpathconf(fd, pathconf_names[i].value));
    }
    print_limit("pathconf", "9999", pathconf(dir, 9999));
    print_limit("pathconf of a missing path", "_PC_LINK_MAX", pathconf("/no/such/dir", _PC_LINK_MAX));
    print_limit("pathconf below a file", "_PC_NAME_MAX", pathconf(below_file, _PC_NAME_MAX));
    print_limit("fpathconf of a closed fd", "_PC_NAME_MAX", fpathconf(999, _PC_NAME_MAX));
    close(fd);
    unlink(file);
}

/* glibc's "NAME VERSION": one space between two non-empty words, the version a number */
static int name_and_version(const char *s)
{
    const char *space = strchr(s, ' ');
    return space != NULL && space != s && space[1] >= '0' && space[1] <= '9' &&
           strchr(space + 1, ' ') == NULL;
}

static void confstr_values(void)
{
    char buf[256];
    size_t n = confstr(_CS_PATH, buf, sizeof buf);
    printf("confstr(_CS_PATH): %zu [%s]\n", n, buf);
    /* the width this program was built for: LP64 natively on x86-64, ILP32 with a 64-bit off_t on wasm32 */
    const char *width = sizeof(long) == 8 ? "LP64_OFF64" : "ILP32_OFFBIG";
    static const struct {
        const char *name;
        int value;
        const char *prefix;
    } envs[] = {{"_CS_POSIX_V6_WIDTH_RESTRICTED_ENVS", _CS_POSIX_V6_WIDTH_RESTRICTED_ENVS, "POSIX_V6_"},
                {"_CS_POSIX_V7_WIDTH_RESTRICTED_ENVS", _CS_POSIX_V7_WIDTH_RESTRICTED_ENVS, "POSIX_V7_"},
                {"_CS_POSIX_V5_WIDTH_RESTRICTED_ENVS", _CS_POSIX_V5_WIDTH_RESTRICTED_ENVS, "XBS5_"}};
    for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
        errno = 0;
        n = confstr(envs[i].value, buf, sizeof buf);
        char expected[64];
        snprintf(expected, sizeof expected, "%s%s", envs[i].prefix, width);
        printf("confstr(%s) names this width: %d, length right: %d %s\n", envs[i].name,
               strcmp(buf, expected) == 0, n == strlen(buf) + 1, errno_name(errno));
    }
    int versions[] = {_CS_GNU_LIBC_VERSION, _CS_GNU_LIBPTHREAD_VERSION};
    for (int i = 0; i < 2; i++) {
        errno = 0;
        n = confstr(versions[i], buf, sizeof buf);
        printf("confstr(%s): NAME VERSION: %d, length right: %d %s\n",
               i == 0 ? "_CS_GNU_LIBC_VERSION" : "_CS_GNU_LIBPTHREAD_VERSION", name_and_version(buf),
               n == strlen(buf) + 1, errno_name(errno));
    }
    char small[4];
    n = confstr(_CS_GNU_LIBC_VERSION, small, sizeof small);
    printf("confstr into 4 bytes: whole length %d, cut to %zu bytes\n", n == strlen(buf) + 1, strlen(small));
    printf("confstr(_CS_GNU_LIBC_VERSION, NULL, 0) is the length: %d\n",
           confstr(_CS_GNU_LIBC_VERSION, NULL, 0) == n);
    errno = 0;
    n = confstr(9999, buf, sizeof buf);
    printf("confstr(9999): %zu %s\n", n, errno_name(errno));
}

static void host_name(void)
{
    char name[256];
    report("gethostname", gethostname(name, sizeof name));
    struct utsname u;
    uname(&u);
    printf("a name, not \"(none)\", and uname's: %d %d %d\n", name[0] != '\0', strcmp(name, "(none)") != 0,
           strcmp(name, u.nodename) == 0);
    size_t len = strlen(name);
    char copy[256];
    report("gethostname, no room for the NUL", gethostname(copy, len));
    report("gethostname, one byte short", gethostname(copy, len - 1));
    report("gethostname, exactly enough", gethostname(copy, len + 1));
    printf("copied whole: %d\n", strcmp(copy, name) == 0);
}

int main(void)
{
    sysconf_errno();
    pathconf_values();
    confstr_values();
    host_name();
    return 0;
}
