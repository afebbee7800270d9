/* Wasm-only: buffers outside linear memory give EFAULT from the binding
 * instead of a trap, and leave the file untouched. Prints "efault: ok". */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    int fd = open("/tmp/efault", O_RDWR | O_CREAT | O_TRUNC, 0644);
    write(fd, "0123456789", 10);
    /* The end of memory is read just before each call: open and write may have grown it
     * (a thread-caching allocator grows memory lazily). 16 bytes inside, the rest beyond. */
    errno = 0;
    ssize_t r = pread(fd, (char *)((uintptr_t)__builtin_wasm_memory_size(0) * 65536u - 16), 1000, 0);
    int read_efault = r == -1 && errno == EFAULT;
    errno = 0;
    ssize_t w = pwrite(fd, (char *)((uintptr_t)__builtin_wasm_memory_size(0) * 65536u - 16), 1000, 0);
    int write_efault = w == -1 && errno == EFAULT;
    struct stat st;
    fstat(fd, &st);
    char back[16] = {0};
    pread(fd, back, 10, 0);
    int untouched = st.st_size == 10 && memcmp(back, "0123456789", 10) == 0;
    printf("read EFAULT: %d, write EFAULT: %d, file untouched: %d\n", read_efault, write_efault, untouched);
    int ok = read_efault && write_efault && untouched;
    printf("efault: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
