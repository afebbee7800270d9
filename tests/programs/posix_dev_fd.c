/* /proc/self/fd and /dev/fd compared with Linux: readlink names the file or
 * the pipe, opening /dev/fd/N opens the same file again (its own position),
 * the listing shows the open fds, stat follows the link and lstat does not,
 * and /dev/stdin, stdout, stderr and fd link into /proc/self/fd. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH "/tmp/spindle-posix-dev-fd.tmp"

static int listed(const char *dir, int fd)
{
    DIR *d = opendir(dir);
    int found = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        found |= e->d_name[0] != '.' && atoi(e->d_name) == fd;
    if (d)
        closedir(d);
    return found;
}

int main(void)
{
    int f = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
    write(f, "abcdef", 6);
    char link[64], text[256];
    snprintf(link, sizeof link, "/proc/self/fd/%d", f);
    ssize_t n = readlink(link, text, sizeof text - 1);
    text[n < 0 ? 0 : n] = '\0';
    printf("readlink of a file's fd: %s\n", text);

    snprintf(link, sizeof link, "/dev/fd/%d", f);
    int again = open(link, O_RDONLY);
    char buf[8] = {0};
    printf("open /dev/fd/N reads from the start: %zd %.3s; the fd's own position: %lld\n",
           read(again, buf, 3), buf, (long long)lseek(f, 0, SEEK_CUR));
    struct stat st, lst;
    stat(link, &st);
    lstat(link, &lst);
    printf("stat follows (regular %d, size %lld), lstat does not (link %d)\n", S_ISREG(st.st_mode),
           (long long)st.st_size, S_ISLNK(lst.st_mode));

    int p[2];
    pipe(p);
    snprintf(link, sizeof link, "/proc/self/fd/%d", p[0]);
    n = readlink(link, text, sizeof text - 1);
    text[n < 0 ? 0 : n] = '\0';
    printf("readlink of a pipe's fd starts with pipe:[ %d\n", strncmp(text, "pipe:[", 6) == 0);
    snprintf(link, sizeof link, "/dev/fd/%d", p[1]);
    int w2 = open(link, O_WRONLY);
    write(w2, "via /dev/fd", 11);
    n = read(p[0], text, sizeof text);
    printf("written through /dev/fd/N of the write end, read: %.*s\n", (int)n, text);

    printf("/proc/self/fd lists the file %d, the pipe %d; /dev/fd lists them too: %d\n",
           listed("/proc/self/fd", f), listed("/proc/self/fd", p[1]), listed("/dev/fd", again));
    close(w2);
    close(p[0]);
    close(p[1]);
    errno = 0;
    printf("a closed fd: open %d %s\n", open(link, O_WRONLY), errno == ENOENT ? "ENOENT" : strerror(errno));

    /* what stdout is differs between runners (a socket under Node's child_process), so only
     * the links are compared here; tests/fs/wasm/dev_stdio.c writes through them */
    const char *std_links[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd"};
    for (int i = 0; i < 4; i++) {
        n = readlink(std_links[i], text, sizeof text - 1);
        text[n < 0 ? 0 : n] = '\0';
        printf("%s -> %s\n", std_links[i], text);
    }
    close(again);
    close(f);
    unlink(PATH);
    return 0;
}
