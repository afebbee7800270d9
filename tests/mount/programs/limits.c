/* What a program may do to a host directory (run by tests/mount-limits.test.js, and natively for
 * Linux's answers): `limits CHECK DIR` with CHECK one of
 *   modes     create a file and a directory with mode 07777, then chmod the file 04755
 *   chmod     chmod/fchmod/fchmodat of a file made 0600, a directory, through a symlink
 *   symlinks  symlinks whose targets stay inside DIR or leave it
 *   quota     64 KiB writes, ftruncate, O_TRUNC and creates against a 1 MiB quota
 *   threads   4 threads writing 64 KiB chunks against a 1 MiB quota
 *   names     names that are not UTF-8
 *   root      waits for a line on stdin (the host swapped DIR for a symlink), then opens DIR
 * Prints one line per step. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (64 * 1024)
static const char *dir;
static char chunk[CHUNK];

static const char *err(int rc)
{
    static char other[32];
    if (rc >= 0)
        return "ok";
    switch (errno) {
    case EPERM:
        return "EPERM";
    case ENOENT:
        return "ENOENT";
    case EEXIST:
        return "EEXIST";
    case EXDEV:
        return "EXDEV";
    case ENOSPC:
        return "ENOSPC";
    case EILSEQ:
        return "EILSEQ";
    case EACCES:
        return "EACCES";
    default:
        snprintf(other, sizeof other, "errno %d", errno);
        return other;
    }
}

/* per thread: the writers of threads() build their names at once (a shared ring let two of
 * them open the same file, whose overlapping writes then cost no quota) */
static const char *at(const char *name)
{
    static _Thread_local char paths[4][512];
    static _Thread_local int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static void modes(void)
{
    int fd = open(at("suid"), O_CREAT | O_WRONLY, 07777);
    printf("create 07777: %s\n", err(fd));
    close(fd);
    printf("mkdir 07777: %s\n", err(mkdir(at("sdir"), 07777)));
    struct stat f, d;
    stat(at("suid"), &f);
    stat(at("sdir"), &d);
    printf("special bits: file %o, directory %o\n", (unsigned)(f.st_mode & 07000),
           (unsigned)(d.st_mode & 07000));
    printf("chmod 04755: %s\n", err(chmod(at("suid"), 04755)));
}

/* "ok, mode 644" after the call, or its error */
static void print_mode(const char *what, int rc, const char *name)
{
    struct stat st;
    if (rc < 0 || stat(at(name), &st) < 0)
        printf("%s: %s\n", what, err(-1));
    else
        printf("%s: ok, mode %o\n", what, (unsigned)(st.st_mode & 07777));
}

static void chmods(void)
{
    int fd = open(at("made-0600"), O_CREAT | O_WRONLY, 0600);
    print_mode("create 0600", fd, "made-0600");
    print_mode("chmod 0644", chmod(at("made-0600"), 0644), "made-0600");
    print_mode("chmod 04755", chmod(at("made-0600"), 04755), "made-0600");
    print_mode("fchmod 0600", fchmod(fd, 0600), "made-0600");
    print_mode("fchmod 02750", fchmod(fd, 02750), "made-0600");
    close(fd);
    mkdir(at("dir"), 0700);
    print_mode("chmod dir 01777", chmod(at("dir"), 01777), "dir");
    int dfd = open(at("dir"), O_RDONLY | O_DIRECTORY);
    print_mode("fchmod dir 0755", fchmod(dfd, 0755), "dir");
    close(dfd);
    symlink("made-0600", at("link"));
    print_mode("chmod through a symlink 0640", chmod(at("link"), 0640), "made-0600");
    print_mode("fchmodat 0444", fchmodat(AT_FDCWD, at("made-0600"), 0444, 0), "made-0600");
    print_mode("chmod missing", chmod(at("missing"), 0644), "missing");
}

static void symlinks(void)
{
    static const char *cases[][2] = {
        {"x", "sub/in-same"},
        {"../x", "sub/in-parent"},
        {"./../x", "sub/in-dot"},
        {"deeper/y", "sub/in-down"},
        {".", "in-self"},
        {"../../x", "sub/out-climb"},
        {"..", "out-parent"},
        {"/etc/passwd", "out-abs"},
        {"/proc/self/fd/9", "out-proc"},
        {"deeper/../../..", "sub/out-after-name"},
        {"/etc", "sub"},
    };
    mkdir(at("sub"), 0755);
    mkdir(at("sub/deeper"), 0755);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        printf("symlink %s at %s: %s\n", cases[i][0], cases[i][1],
               err(symlink(cases[i][0], at(cases[i][1]))));
}

/* 64 KiB writes at the end of fd until one fails: how many went through */
static int fill(int fd)
{
    int n = 0;
    while (write(fd, chunk, CHUNK) == CHUNK)
        n++;
    return n;
}

static void quota(void)
{
    int fd = open(at("a"), O_CREAT | O_RDWR, 0644);
    int n = fill(fd);
    printf("wrote %d chunks, then %s\n", n, err(-1));
    printf("create when full: %s\n", err(open(at("b"), O_CREAT | O_WRONLY, 0644)));
    printf("mkdir when full: %s\n", err(mkdir(at("c"), 0755)));
    printf("symlink when full: %s\n", err(symlink("a", at("l"))));
    int again = open(at("a"), O_RDONLY);
    printf("open existing when full: %s\n", err(again));
    close(again);
    printf("rewrite inside: %s\n", err(pwrite(fd, chunk, CHUNK, 0) == CHUNK ? 0 : -1));
    printf("ftruncate 512K: %s\n", err(ftruncate(fd, 512 * 1024)));
    printf("ftruncate 1M: %s\n", err(ftruncate(fd, 1024 * 1024)));
    printf("ftruncate 1M+1: %s\n", err(ftruncate(fd, 1024 * 1024 + 1)));
    /* written through: the write that does not fit fails itself, as on a full disk */
    printf("small write: %s\n", err(write(fd, "x", 1) == 1 ? 0 : -1));
    printf("fsync: %s\n", err(fsync(fd)));
    close(fd);
    fd = open(at("a"), O_WRONLY | O_TRUNC);
    printf("O_TRUNC: %s\n", err(fd));
    printf("after O_TRUNC wrote %d chunks\n", fill(fd));
    close(fd);
}

static atomic_int chunks;

static void *writer(void *arg)
{
    char name[16];
    snprintf(name, sizeof name, "t%d", (int)(long)arg);
    int fd = open(at(name), O_CREAT | O_WRONLY, 0644);
    atomic_fetch_add(&chunks, fill(fd));
    close(fd);
    return NULL;
}

static void threads(void)
{
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, writer, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    printf("4 threads wrote %d chunks\n", atomic_load(&chunks));
}

static void names(void)
{
    int fd = open(at("bad\xff"), O_CREAT | O_WRONLY, 0644);
    printf("create bad\\xff: %s\n", err(fd));
    close(fd);
    fd = open(at("bad\xef\xbf\xbd"), O_CREAT | O_WRONLY, 0644);
    printf("create bad\\xef\\xbf\\xbd: %s\n", err(fd));
    close(fd);
    printf("open raw\\xff: %s\n", err(open(at("raw\xff"), O_RDONLY)));
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        printf("listed ");
        for (const unsigned char *c = (const unsigned char *)e->d_name; *c; c++)
            printf(*c >= 0x80 ? "\\x%02x" : "%c", *c);
        printf("\n");
    }
    if (d)
        closedir(d);
}

static void root(void)
{
    char line[16];
    printf("ready\n");
    fflush(stdout);
    /* the host swaps DIR in two steps (rename, then symlink), then writes a line: waiting for
     * DIR to stop answering instead raced with the second step */
    if (!fgets(line, sizeof line, stdin))
        return;
    DIR *d = opendir(dir);
    printf("opendir after the swap: %s\n", err(d ? 0 : -1));
    for (struct dirent *e; d && (e = readdir(d));)
        printf("listed %s\n", e->d_name);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    dir = argv[2];
    memset(chunk, 'q', sizeof chunk);
    const char *check = argv[1];
    if (!strcmp(check, "modes"))
        modes();
    else if (!strcmp(check, "chmod"))
        chmods();
    else if (!strcmp(check, "symlinks"))
        symlinks();
    else if (!strcmp(check, "quota"))
        quota();
    else if (!strcmp(check, "threads"))
        threads();
    else if (!strcmp(check, "names"))
        names();
    else if (!strcmp(check, "root"))
        root();
    else
        return 2;
    return 0;
}
