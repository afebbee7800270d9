/* A file of several megabytes written in odd-sized pieces and checked, and a
 * sparse file with data far from its start. */
#include <stdint.h>

#include "conformance.h"

static uint32_t checksum(const unsigned char *p, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

int main(void)
{
    enter_scratch_dir();
    enum { TOTAL = 6 * 1024 * 1024 + 12345, PIECE = 7777 };
    static unsigned char piece[PIECE], back[65536];
    int fd = open("big", O_RDWR | O_CREAT | O_TRUNC, 0644);
    uint32_t written_sum = 2166136261u;
    size_t done = 0;
    while (done < TOTAL) {
        size_t n = TOTAL - done < PIECE ? TOTAL - done : PIECE;
        for (size_t i = 0; i < n; i++)
            piece[i] = (unsigned char)((done + i) * 131 + ((done + i) >> 12));
        if (write(fd, piece, n) != (ssize_t)n) {
            printf("write failed: %s\n", errno_name(errno));
            return 1;
        }
        written_sum = checksum(piece, n, written_sum);
        done += n;
    }
    printf("size: %lld\n", size_of("big"));
    lseek(fd, 0, SEEK_SET);
    uint32_t read_sum = 2166136261u;
    ssize_t n;
    long long total = 0;
    while ((n = read(fd, back, sizeof back)) > 0) {
        read_sum = checksum(back, (size_t)n, read_sum);
        total += n;
    }
    printf("read back: %lld bytes, checksum matches: %d\n", total, read_sum == written_sum);
    SHOW("ftruncate to 1000", ftruncate(fd, 1000));
    SHOW_VALUE("read after shrink", pread(fd, back, sizeof back, 0));
    close(fd);

    fd = open("sparse", O_RDWR | O_CREAT | O_TRUNC, 0644);
    const off_t far = (off_t)1 << 30;
    SHOW_VALUE("pwrite at 1 GiB", pwrite(fd, "far", 3, far));
    printf("sparse size: %lld\n", size_of("sparse"));
    memset(back, 1, 16);
    SHOW_VALUE("pread middle", pread(fd, back, 16, far / 2));
    int zeros = 1;
    for (int i = 0; i < 16; i++)
        zeros &= back[i] == 0;
    printf("middle is zeros: %d\n", zeros);
    SHOW_VALUE("pread end", pread(fd, back, 16, far));
    printf("end: %.3s\n", back);
    close(fd);
    unlink("big");
    unlink("sparse");
    show_listing("scratch", ".");
    return 0;
}
