/* Many small writes to one file in a tight loop, then the count on stdout: every write stamps
 * the file (tests/stamp-clock.test.js counts how often that asked the host's JS clock).
 * `many_writes PAUSE_MS` pauses that long after the first write: a host whose ticker starts on
 * its own event loop then ticks before the loop (a loaded machine may take milliseconds). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WRITES 4000

int main(int argc, char **argv)
{
    int pause_ms = argc > 1 ? atoi(argv[1]) : 0;
    int fd = open("/tmp/many-writes", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    for (int i = 0; i < WRITES; i++) {
        if (write(fd, "0123456789abcdef", 16) != 16) {
            perror("write");
            return 1;
        }
        if (i == 0 && pause_ms > 0)
            usleep((useconds_t)pause_ms * 1000);
    }
    close(fd);
    unlink("/tmp/many-writes");
    printf("writes %d\n", WRITES);
    return 0;
}
