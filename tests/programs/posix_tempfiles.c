// Temporary files and the process calls wasi-libc declares without defining: mkstemp,
// mkstemps, mkostemp, mkdtemp, mktemp, tmpfile, tmpnam, ctermid, cuserid, secure_getenv.
// Compared byte for byte with the native build (run as root).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix_report.h"

static void describe(const char *what, const char *path, const char *template)
{
    struct stat st;
    int exists = lstat(path, &st) == 0;
    printf("%-10s changed %d, same length %d, exists %d, mode %06o\n", what, strcmp(path, template) != 0,
           strlen(path) == strlen(template), exists, exists ? (unsigned)st.st_mode : 0u);
}

int main(void)
{
    const char *t1 = "/tmp/posix_tempfiles_XXXXXX";
    char name[64];
    strcpy(name, t1);
    int fd = mkstemp(name);
    printf("mkstemp fd %d\n", fd);
    describe("mkstemp", name, t1);
    write(fd, "hello", 5);
    close(fd);
    unlink(name);

    const char *t2 = "/tmp/posix_tempfiles_XXXXXX.txt";
    strcpy(name, t2);
    fd = mkstemps(name, 4);
    describe("mkstemps", name, t2);
    printf("  keeps the suffix %d\n", strcmp(name + strlen(name) - 4, ".txt") == 0);
    close(fd);
    unlink(name);

    strcpy(name, t1);
    fd = mkostemp(name, O_APPEND);
    printf("mkostemp O_APPEND kept %d\n", (fcntl(fd, F_GETFL) & O_APPEND) != 0);
    close(fd);
    unlink(name);

    strcpy(name, t1);
    char *dir = mkdtemp(name);
    describe("mkdtemp", dir ? dir : "", t1);
    rmdir(name);

    strcpy(name, t1);
    mktemp(name);
    describe("mktemp", name, t1);

    strcpy(name, "/tmp/no_xs");
    report("mkstemp without XXXXXX", mkstemp(name));
    printf("  template unchanged %d\n", strcmp(name, "/tmp/no_xs") == 0);
    strcpy(name, "/tmp/short_XXXXX");
    errno = 0;
    printf("mkdtemp with five X: NULL %d %s\n", mkdtemp(name) == NULL, errno_name(errno));

    FILE *f = tmpfile();
    printf("tmpfile %s\n", f ? "opened" : "failed");
    fputs("scratch data", f);
    rewind(f);
    char buf[32] = {0};
    fgets(buf, sizeof buf, f);
    printf("  read back: %s\n", buf);
    struct stat st;
    fstat(fileno(f), &st);
    printf("  links %ld (no name)\n", (long)st.st_nlink);
    fclose(f);

    char *t = tmpnam(NULL);
    printf("tmpnam under /tmp/: %d\n", t != NULL && strncmp(t, "/tmp/", 5) == 0);
    char term[L_ctermid];
    printf("ctermid: %s\n", ctermid(term));
    char user[L_cuserid];
    /* the name depends on the machine's user database; root's is "root" everywhere */
    printf("cuserid is \"root\" exactly for euid 0: %d\n",
           (strcmp(cuserid(user), "root") == 0) == (geteuid() == 0));
    printf("secure_getenv of an unset name: %s\n", secure_getenv("SPINDLE_NOT_SET") ? "set" : "NULL");
    return 0;
}
