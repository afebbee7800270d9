/* Wasm-only: fills a small linear memory (--max-memory) with file data until
 * the filesystem says ENOSPC, then checks that nothing is half-done (the
 * file's size matches what write reported, its data is intact) and that space
 * comes back after unlink. Prints "fill_memory: ok" on success. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned char block[65536];

int main(void)
{
    printf("fill_memory: start\n"); /* stdio buffers exist before memory runs out */
    int fd = open("/tmp/filler", O_RDWR | O_CREAT | O_TRUNC, 0644);
    long long total = 0;
    int err = 0;
    for (;;) {
        memset(block, (int)(total / sizeof block) & 0xff, sizeof block);
        ssize_t n = write(fd, block, sizeof block);
        if (n < 0) {
            err = errno;
            break;
        }
        total += n;
        if (n < (ssize_t)sizeof block) /* short write: memory ran out inside it */
            continue;
    }
    struct stat st;
    fstat(fd, &st);
    int size_ok = st.st_size == total;
    int data_ok = 1;
    for (long long off = 0; off + (long long)sizeof block <= total; off += (long long)sizeof block * 97) {
        pread(fd, block, sizeof block, off);
        data_ok &= block[0] == ((off / sizeof block) & 0xff) && block[sizeof block - 1] == block[0];
    }
    /* creating more must fail cleanly too, not crash */
    int more = open("/tmp/another", O_WRONLY | O_CREAT, 0644);
    int more_ok = more >= 0 || errno == ENOSPC || errno == ENOMEM;
    if (more >= 0)
        close(more);
    /* unlink needs no memory, so space can always be given back */
    int unlinked = unlink("/tmp/filler") == 0;
    if (!unlinked)
        printf("unlink while memory is full: %s\n", strerror(errno));
    close(fd);
    fd = open("/tmp/after", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        printf("open after unlink: %s\n", strerror(errno));
    ssize_t again = write(fd, block, sizeof block);
    if (again < 0)
        printf("write after unlink: %s\n", strerror(errno));
    close(fd);
    printf("filled %lld MiB, then %s; size matches: %d; data intact: %d; create while full ok: %d; "
           "unlink while full: %d; write after unlink: %d\n",
           total >> 20, err == ENOSPC ? "ENOSPC" : strerror(err), size_ok, data_ok, more_ok, unlinked,
           again == (ssize_t)sizeof block);
    int ok = unlinked && access("/tmp/filler", F_OK) != 0 && err == ENOSPC && size_ok && data_ok && more_ok &&
             again == (ssize_t)sizeof block && total > (8 << 20);
    printf("fill_memory: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
