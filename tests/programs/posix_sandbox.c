// What differs from Linux on purpose (docs/POSIX.md): no network, so socket() fails (EACCES
// for the Internet and local families, EAFNOSUPPORT otherwise); no login session; no other
// process (fork, exec: ENOSYS; popen's command, like system's, finds no shell); Spindle's own
// host name and version strings. Checked against the expected output (a native run would
// succeed).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix_report.h"

static void command_stream(const char *mode)
{
    FILE *p = popen("echo hi", mode);
    char line[16];
    if (mode[0] == 'r')
        printf("popen(\"echo hi\", \"%s\") reads: %s\n", mode,
               fgets(line, sizeof line, p) ? line : "nothing");
    else
        printf("popen(\"echo hi\", \"%s\") takes a write: %d\n", mode, fputs("text", p) >= 0);
    int status = pclose(p);
    printf("pclose: exited %d with %d\n", WIFEXITED(status), WEXITSTATUS(status));
}

static void other_processes(void)
{
#ifndef __wasi__
    return; /* natively, these would start processes */
#endif
    char *argv[] = {"sh", "-c", "true", NULL};
    char *envp[] = {NULL};
    report("fork()", fork());
    report("vfork()", vfork());
    report("execve(\"/bin/sh\")", execve("/bin/sh", argv, envp));
    report("execv(\"/bin/sh\")", execv("/bin/sh", argv));
    report("execvp(\"sh\")", execvp("sh", argv));
    report("execvpe(\"sh\")", execvpe("sh", argv, envp));
    report("execl(\"/bin/sh\")", execl("/bin/sh", "sh", "-c", "true", (char *)NULL));
    report("execlp(\"sh\")", execlp("sh", "sh", "-c", "true", (char *)NULL));
    report("execle(\"/bin/sh\")", execle("/bin/sh", "sh", "-c", "true", (char *)NULL, envp));
    report("fexecve(0)", fexecve(0, argv, envp));
    command_stream("r");
    command_stream("we");
    errno = 0;
    printf("popen(mode \"rw\") is NULL: %d %s\n", popen("true", "rw") == NULL, errno_name(errno));
    FILE *file = tmpfile();
    report("pclose(a stream popen did not open)", pclose(file));
}

static void names(void)
{
    char name[64];
    gethostname(name, sizeof name);
    printf("gethostname: %s\n", name);
    confstr(_CS_GNU_LIBC_VERSION, name, sizeof name);
    printf("confstr(_CS_GNU_LIBC_VERSION): %s\n", name);
    confstr(_CS_GNU_LIBPTHREAD_VERSION, name, sizeof name);
    printf("confstr(_CS_GNU_LIBPTHREAD_VERSION): %s\n", name);
}

int main(void)
{
    report("socket(AF_INET, SOCK_STREAM)", socket(AF_INET, SOCK_STREAM, 0));
    report("socket(AF_INET6, SOCK_DGRAM)", socket(AF_INET6, SOCK_DGRAM, 0));
    report("socket(AF_UNIX, SOCK_STREAM)", socket(AF_UNIX, SOCK_STREAM, 0));
    report("socket(12345, SOCK_STREAM)", socket(12345, SOCK_STREAM, 0));
    int pair[2];
    report("socketpair(AF_UNIX)", socketpair(AF_UNIX, SOCK_STREAM, 0, pair));
    errno = 0;
    printf("getlogin() is NULL: %d %s\n", getlogin() == NULL, errno_name(errno));
    char name[64];
    report_errnum("getlogin_r", getlogin_r(name, sizeof name));
    printf("system(NULL): %d\n", system(NULL));
    int status = system("echo hi");
    printf("system(\"echo hi\"): exited %d with %d\n", WIFEXITED(status), WEXITSTATUS(status));
    other_processes();
    names();
    return 0;
}
