// libwasi-emulated-mman: mmap() for code written for POSIX (-D_WASI_EMULATED_MMAN). Wasm has one
// linear memory and no page tables, so a mapping is a block from malloc: anonymous mappings are
// zeroed, private file mappings are read in at map time (later writes to the file are not seen,
// writes to the mapping never reach the file). Shared writable file mappings would need writes
// to reach the file and other mappings: they fail with ENOTSUP instead of silently diverging.
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct mapping {
    void *start;
    size_t length; // rounded up to whole pages
    struct mapping *next;
};

// The live mappings, so that munmap can refuse what mmap did not return.
static struct mapping *mappings;
static pthread_mutex_t mappings_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t whole_pages(size_t length)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (length + page - 1) / page * page;
}

static void *fail(int error)
{
    errno = error;
    return MAP_FAILED;
}

// Reads the file's bytes at `offset` into `to`; bytes past the end of the file stay zero.
static int read_file_range(int fd, char *to, size_t length, off_t offset)
{
    while (length > 0) {
        ssize_t got = pread(fd, to, length, offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        to += got;
        length -= (size_t)got;
        offset += got;
    }
    return 0;
}

void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)
{
    (void)addr; // a hint only; MAP_FIXED is refused below
    long page = sysconf(_SC_PAGESIZE);
    int type = flags & MAP_TYPE;
    if (length == 0 || offset < 0 || offset % page != 0)
        return fail(EINVAL);
    if (type != MAP_PRIVATE && type != MAP_SHARED)
        return fail(EINVAL);
    if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))
        return fail(ENOTSUP);
    int anonymous = flags & MAP_ANONYMOUS;
    if (!anonymous && type == MAP_SHARED && (prot & PROT_WRITE))
        return fail(ENOTSUP);

    size_t rounded = whole_pages(length);
    if (rounded < length)
        return fail(ENOMEM);
    struct mapping *entry = malloc(sizeof *entry);
    char *start = aligned_alloc((size_t)page, rounded);
    if (!entry || !start) {
        free(entry);
        free(start);
        return fail(ENOMEM);
    }
    memset(start, 0, rounded);
    if (!anonymous && read_file_range(fd, start, length, offset) != 0) {
        int error = errno;
        free(entry);
        free(start);
        return fail(error);
    }
    *entry = (struct mapping){start, rounded, NULL};
    pthread_mutex_lock(&mappings_lock);
    entry->next = mappings;
    mappings = entry;
    pthread_mutex_unlock(&mappings_lock);
    return start;
}

// Whole mappings only: unmapping part of one would need a block to shrink from either end.
int munmap(void *addr, size_t length)
{
    pthread_mutex_lock(&mappings_lock);
    struct mapping **link = &mappings;
    while (*link && (*link)->start != addr)
        link = &(*link)->next;
    struct mapping *found = *link;
    int whole = found && length > 0 && whole_pages(length) == found->length;
    if (whole)
        *link = found->next;
    pthread_mutex_unlock(&mappings_lock);
    if (!whole) {
        errno = EINVAL;
        return -1;
    }
    free(found->start);
    free(found);
    return 0;
}

// Linear memory has no protection: every byte stays readable and writable, so a program that
// only narrows protection (the common use) behaves the same.
int mprotect(void *addr, size_t length, int prot)
{
    (void)addr, (void)length, (void)prot;
    return 0;
}

// Private mappings have nothing to write back.
int msync(void *addr, size_t length, int flags)
{
    (void)addr, (void)length, (void)flags;
    return 0;
}

// Advice may be ignored.
int madvise(void *addr, size_t length, int advice)
{
    (void)addr, (void)length, (void)advice;
    return 0;
}

int posix_madvise(void *addr, size_t length, int advice)
{
    (void)addr, (void)length, (void)advice;
    return 0;
}
