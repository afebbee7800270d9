// What differs from Linux on purpose (docs/POSIX.md): no network, so socket() fails (EACCES
// for the Internet and local families, EAFNOSUPPORT otherwise), and no login session.
// Checked against the expected output (a native run would succeed).
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "posix_report.h"

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
    return 0;
}
