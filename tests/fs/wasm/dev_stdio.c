/* /dev/stdout, /dev/stderr and /proc/self/fd/1 reach the host's stdio: each
 * write goes through whole, after what printf flushed before it. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    const char *paths[] = {"/dev/stdout", "/proc/self/fd/1", "/dev/fd/2"};
    int failures = 0;
    for (int i = 0; i < 3; i++) {
        char line[64];
        int len = snprintf(line, sizeof line, "through %s\n", paths[i]);
        fflush(stdout);
        int fd = open(paths[i], O_WRONLY);
        if (fd < 0 || write(fd, line, (size_t)len) != len) {
            printf("FAIL %s\n", paths[i]);
            failures++;
        }
        close(fd);
    }
    printf("dev_stdio: %d failed\n", failures);
    return failures != 0;
}
