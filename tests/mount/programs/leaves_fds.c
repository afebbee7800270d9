// Reads a mounted file and closes it, then opens it again and leaves it open at exit: the mount's
// kept directories and this open file are closed by the host, once, at dispose()
// (tests/mount.test.js, docs/HOST.md "Who closes a thread's fds").
#include <fcntl.h>
#include <stdio.h>

int main(void)
{
    char line[64] = "";
    FILE *in = fopen("/m/sub/in.txt", "r");
    if (!in || !fgets(line, sizeof line, in))
        return 1;
    fclose(in);
    return open("/m/sub/in.txt", O_RDONLY) < 0;
}
