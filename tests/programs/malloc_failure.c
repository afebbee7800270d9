// Requests that cannot be satisfied fail with NULL and errno ENOMEM (or the
// error code for posix_memalign) instead of crashing, leave existing blocks
// intact, and the allocator keeps working afterwards.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Called through volatile pointers: compilers may otherwise drop an unused
// allocation and assume it succeeded.
static void *(*volatile call_malloc)(size_t) = malloc;
static void *(*volatile call_calloc)(size_t, size_t) = calloc;
static void *(*volatile call_realloc)(void *, size_t) = realloc;
static void *(*volatile call_aligned_alloc)(size_t, size_t) = aligned_alloc;
static int (*volatile call_posix_memalign)(void **, size_t, size_t) = posix_memalign;

static const char *name(int e) { return e == ENOMEM ? "ENOMEM" : e == 0 ? "0" : "other"; }

int main(void)
{
    int failures = 0;
    // Far beyond any address space the program has, on 32 and 64 bits alike.
    size_t huge = SIZE_MAX / 2 + 1;

    errno = 0;
    void *p = call_malloc(huge);
    int e = errno; // saved at once: printf may change errno (isatty probe of stdout)
    printf("malloc(huge): %s, errno %s\n", p ? "non-NULL" : "NULL", name(e));
    failures += p != NULL || e != ENOMEM;

    errno = 0;
    p = call_calloc(SIZE_MAX / 4, 8); // the multiplication overflows
    e = errno;
    printf("calloc overflowing count*size: %s, errno %s\n", p ? "non-NULL" : "NULL", name(e));
    failures += p != NULL || e != ENOMEM;

    char *kept = malloc(64);
    memcpy(kept, "still here", 11);
    errno = 0;
    void *grown = call_realloc(kept, huge);
    e = errno;
    printf("realloc(huge): %s, errno %s, old block intact: %d\n", grown ? "non-NULL" : "NULL", name(e),
           strcmp(kept, "still here") == 0);
    failures += grown != NULL || e != ENOMEM || strcmp(kept, "still here") != 0;
    free(kept);

    void *aligned = NULL;
    int rc = call_posix_memalign(&aligned, 64, huge);
    printf("posix_memalign(huge): returns %s, pointer untouched: %d\n", name(rc), aligned == NULL);
    failures += rc != ENOMEM || aligned != NULL;

    errno = 0;
    p = call_aligned_alloc(4096, huge & ~(size_t)4095);
    e = errno;
    printf("aligned_alloc(huge): %s, errno %s\n", p ? "non-NULL" : "NULL", name(e));
    failures += p != NULL || e != ENOMEM;

    // Still usable afterwards.
    int usable = 1;
    for (int i = 0; i < 1000; i++) {
        unsigned char *q = call_malloc((size_t)(i * 37 % 5000) + 1);
        if (!q)
            usable = 0;
        else
            q[0] = (unsigned char)i;
        free(q);
    }
    printf("allocator usable afterwards: %d\n", usable);
    failures += !usable;
    printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
