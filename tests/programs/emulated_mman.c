// libwasi-emulated-mman: anonymous mappings (zeroed, page-aligned, writable), a private read
// mapping of a file at an offset (bytes past the end read as zero), munmap of whole mappings,
// mprotect accepted, and the errors: shared writable file mappings, a bad offset, a bad fd,
// unmapping what was not mapped.
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t size = 3 * (size_t)page + 100;
    unsigned char *anon = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int zeroed = anon != MAP_FAILED;
    for (size_t i = 0; zeroed && i < size; i++)
        zeroed = anon[i] == 0;
    printf("anonymous: mapped %d, page-aligned %d, zeroed %d\n", anon != MAP_FAILED,
           (uintptr_t)anon % (uintptr_t)page == 0, zeroed);
    memset(anon, 0xab, size);
    printf("mprotect read-only = %d\n", mprotect(anon, size, PROT_READ));
    printf("munmap = %d\n", munmap(anon, size));

    const char *path = "/tmp/emulated_mman.bin";
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    for (long i = 0; i < page + 10; i++) {
        unsigned char b = (unsigned char)(i % 251);
        if (write(fd, &b, 1) != 1)
            return 1;
    }
    // The second page of the file: 10 bytes, then zeros to the end of the mapping.
    unsigned char *file = mmap(NULL, 64, PROT_READ, MAP_PRIVATE, fd, page);
    int bytes_ok = file != MAP_FAILED;
    for (int i = 0; bytes_ok && i < 64; i++)
        bytes_ok = file[i] == (i < 10 ? (page + i) % 251 : 0);
    printf("file at offset one page: mapped %d, bytes %d\n", file != MAP_FAILED, bytes_ok);
    printf("munmap = %d\n", munmap(file, 64));

    errno = 0;
    void *shared = mmap(NULL, 64, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    printf("shared writable file mapping fails: %d, ENOTSUP %d\n", shared == MAP_FAILED, errno == ENOTSUP);
    errno = 0;
    void *odd = mmap(NULL, 64, PROT_READ, MAP_PRIVATE, fd, 100);
    printf("unaligned offset fails: %d, EINVAL %d\n", odd == MAP_FAILED, errno == EINVAL);
    errno = 0;
    void *closed = mmap(NULL, 64, PROT_READ, MAP_PRIVATE, 9999, 0);
    printf("bad fd fails: %d, EBADF %d\n", closed == MAP_FAILED, errno == EBADF);
    errno = 0;
    char local[16];
    printf("munmap of unmapped memory = %d, EINVAL %d\n", munmap(local, sizeof local), errno == EINVAL);
    close(fd);
    unlink(path);
    return 0;
}
