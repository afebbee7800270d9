// Process calls that portable code makes and Linux answers for an unprivileged process that
// leads its own session: the set*id family and groups, process groups and sessions, the
// terminal's process group, gettid, nice, F_GETOWN/F_SETOWN, AT_NO_AUTOMOUNT, sync and pause.
// Natively the program first becomes such a process (gives up root, calls setsid), as a Spindle
// program is from the start. Compared byte for byte with the native build.
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

#define NO_SUCH_PID 0x3fffffff /* above Linux's largest pid_max */

static void become_unprivileged_session_leader(void)
{
#ifndef __wasi__
    if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
        printf("cannot drop root\n");
    setsid(); /* fails only if it already leads one */
#endif
}

static void ids(void)
{
    report("setuid(getuid())", setuid(getuid()));
    report("setuid(another uid)", setuid(getuid() + 1));
    report("setuid(-1)", setuid((uid_t)-1));
    report("seteuid(geteuid())", seteuid(geteuid()));
    report("seteuid(another uid)", seteuid(geteuid() + 1));
    report("setgid(getgid())", setgid(getgid()));
    report("setgid(another gid)", setgid(getgid() + 1));
    report("setegid(getegid())", setegid(getegid()));
    report("setegid(another gid)", setegid(getegid() + 1));
    report("setreuid(-1, -1)", setreuid((uid_t)-1, (uid_t)-1));
    report("setreuid(uid, euid)", setreuid(getuid(), geteuid()));
    report("setreuid(another, -1)", setreuid(getuid() + 1, (uid_t)-1));
    report("setregid(gid, -1)", setregid(getgid(), (gid_t)-1));
    report("setregid(-1, another)", setregid((gid_t)-1, getegid() + 1));
    report("getgroups(0, NULL)", getgroups(0, NULL));
    gid_t list[64];
    report("getgroups(-1, list)", getgroups(-1, list));
    report("setgroups(0, NULL)", setgroups(0, NULL));
}

static void groups_and_sessions(void)
{
    pid_t pid = getpid();
    printf("getpgrp() == getpid(): %d\n", getpgrp() == pid);
    printf("getpgid(0), getpgid(pid) == getpgrp(): %d %d\n", getpgid(0) == getpgrp(),
           getpgid(pid) == getpgrp());
    printf("getsid(0), getsid(pid) == getpid(): %d %d\n", getsid(0) == pid, getsid(pid) == pid);
    report("getpgid(no such pid)", getpgid(NO_SUCH_PID));
    report("getsid(no such pid)", getsid(NO_SUCH_PID));
    report("setpgid(0, 0)", setpgid(0, 0));
    report("setpgid(0, -1)", setpgid(0, -1));
    report("setpgid(no such pid, 0)", setpgid(NO_SUCH_PID, 0));
    report("setpgrp()", setpgrp());
    report("setsid()", setsid());
    int fd = open("/", O_RDONLY | O_DIRECTORY); /* not a terminal, in every --fs mode */
    report("tcgetpgrp(not a terminal)", tcgetpgrp(fd));
    report("tcsetpgrp(not a terminal)", tcsetpgrp(fd, getpgrp()));
    close(fd);
    report("tcgetpgrp(closed fd)", tcgetpgrp(fd));
    report("tcsetpgrp(closed fd)", tcsetpgrp(fd, getpgrp()));
}

static pid_t thread_tid;
static void *note_tid(void *arg)
{
    (void)arg;
    thread_tid = gettid();
    return NULL;
}

static void thread_ids(void)
{
    printf("gettid() == getpid() on the main thread: %d\n", gettid() == getpid());
    pthread_t t;
    pthread_create(&t, NULL, note_tid, NULL);
    pthread_join(t, NULL);
    pid_t first = thread_tid;
    pthread_create(&t, NULL, note_tid, NULL);
    pthread_join(t, NULL);
    printf("a thread's tid: positive %d, not the pid %d, another thread's differs %d\n", first > 0,
           first != getpid(), thread_tid != first);
}

static void niceness(void)
{
    int start = nice(0); /* natively, what the parent gave; Spindle starts at 0 */
    errno = 0;
    printf("nice(3): +%d %s\n", nice(3) - start, errno_name(errno));
    report("nice(-1)", nice(-1));
    errno = 0;
    printf("nice(100): %d %s\n", nice(100), errno_name(errno));
    printf("nice(0): %d\n", nice(0));
}

static void owner_and_flags(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/posix_process.%d", (int)getpid());
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    report("fcntl(F_GETOWN)", fcntl(fd, F_GETOWN));
    report("fcntl(F_SETOWN, 0)", fcntl(fd, F_SETOWN, 0));
    report("fcntl(F_SETOWN, no such pid)", fcntl(fd, F_SETOWN, NO_SUCH_PID));
    report("fcntl(F_GETOWN, closed fd)", fcntl(999, F_GETOWN));
    report("fcntl(F_SETOWN, closed fd)", fcntl(999, F_SETOWN, 0));
    struct stat st;
    report("fstatat(AT_NO_AUTOMOUNT)", fstatat(AT_FDCWD, path, &st, AT_NO_AUTOMOUNT));
    report("fstatat(AT_NO_AUTOMOUNT | NOFOLLOW)",
           fstatat(AT_FDCWD, path, &st, AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW));
    write(fd, "data", 4);
    sync();
    printf("sync() returned, the file still holds %lld bytes\n", (long long)lseek(fd, 0, SEEK_END));
    close(fd);
    unlink(path);
}

static void *paused(void *arg)
{
    (void)arg;
    pause();
    printf("pause returned\n");
    return NULL;
}

int main(void)
{
    become_unprivileged_session_leader();
    ids();
    groups_and_sessions();
    thread_ids();
    niceness();
    owner_and_flags();
    pthread_t t;
    pthread_create(&t, NULL, paused, NULL);
    usleep(30000);
    printf("exit while a thread is in pause()\n");
    fflush(stdout);
    return 0;
}
