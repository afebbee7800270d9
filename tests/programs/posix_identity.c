// Identity and terminal calls as for a program run as an ordinary user (uid/gid 1000, what a
// Spindle program is; natively it first gives up root) without a terminal (stdout is a pipe
// under the test runner), statfs, readdir_r. Compared byte for byte with the native build.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "posix_report.h"

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void)
{
    become_ordinary_user();
    printf("uid %u euid %u gid %u egid %u\n", (unsigned)getuid(), (unsigned)geteuid(), (unsigned)getgid(),
           (unsigned)getegid());
    printf("getpid() > 0: %d\n", getpid() > 0);
    printf("getppid() >= 0: %d\n", getppid() >= 0);

    char name[64];
    errno = 0;
    printf("ttyname(1) is NULL: %d %s\n", ttyname(1) == NULL, errno_name(errno));
    errno = 0;
    printf("ttyname(99) is NULL: %d %s\n", ttyname(99) == NULL, errno_name(errno));
    report_errnum("ttyname_r(1)", ttyname_r(1, name, sizeof name));
    report_errnum("ttyname_r(99)", ttyname_r(99, name, sizeof name));

    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/posix_identity.%d", (int)getpid());
    mkdir(dir, 0755);
    struct statfs fs;
    report("statfs(dir)", statfs(dir, &fs));
    printf("  f_bsize > 0: %d, f_blocks >= f_bfree: %d, f_namelen: %ld\n", fs.f_bsize > 0,
           fs.f_blocks >= fs.f_bfree, (long)fs.f_namelen);
    report("statfs(missing)", statfs("/no/such/dir", &fs));
    report("statfs(\"\")", statfs("", &fs));
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    report("fstatfs(dir fd)", fstatfs(dfd, &fs));
    report("fstatfs(99)", fstatfs(99, &fs));
    close(dfd);

    const char *names[] = {"beta", "alpha", "gamma"};
    for (int i = 0; i < 3; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        close(open(p, O_CREAT | O_WRONLY, 0644));
    }
    DIR *d = opendir(dir);
    struct dirent entry, *result;
    char *seen[8];
    int n = 0, err;
    while ((err = readdir_r(d, &entry, &result)) == 0 && result != NULL)
        if (n < 8 && result == &entry)
            seen[n++] = strdup(entry.d_name);
    report_errnum("readdir_r at the end", err);
    closedir(d);
    qsort(seen, n, sizeof seen[0], by_name);
    for (int i = 0; i < n; i++) {
        printf("  entry %s\n", seen[i]);
        if (seen[i][0] != '.') {
            char p[128];
            snprintf(p, sizeof p, "%s/%s", dir, seen[i]);
            unlink(p);
        }
        free(seen[i]);
    }
    report("cleanup", rmdir(dir));
    return 0;
}
