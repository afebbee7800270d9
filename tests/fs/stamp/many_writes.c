/* Many small writes to one file in a tight loop, then the count on stdout: every write stamps
 * the file (tests/stamp-clock.test.js counts how often that asked the host's JS clock). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define WRITES 4000

int main(void)
{
    int fd = open("/tmp/many-writes", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    for (int i = 0; i < WRITES; i++)
        if (write(fd, "0123456789abcdef", 16) != 16) {
            perror("write");
            return 1;
        }
    close(fd);
    unlink("/tmp/many-writes");
    printf("writes %d\n", WRITES);
    return 0;
}
