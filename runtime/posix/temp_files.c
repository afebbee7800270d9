/* Temporary files, which wasi-libc leaves out ("no temp directories"): Spindle's tree has /tmp.
 * mkstemp, mkostemp, mkstemps, mkostemps, mkdtemp, mktemp, tmpfile, tmpnam. Names get six
 * random letters and digits (arc4random); creation is O_EXCL, retried on a clash. */
#define _GNU_SOURCE /* L_ctermid, L_cuserid, P_tmpdir, mkostemps */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ATTEMPTS 100

/* The six X's before `suffix_len` trailing bytes, or NULL (EINVAL) if the template lacks them. */
static char *template_xs(char *template, int suffix_len)
{
    size_t len = strlen(template);
    if (suffix_len < 0 || len < 6 + (size_t)suffix_len ||
        memcmp(template + len - suffix_len - 6, "XXXXXX", 6) != 0) {
        errno = EINVAL;
        return NULL;
    }
    return template + len - suffix_len - 6;
}

static void randomize(char *xs)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    uint8_t bytes[6];
    arc4random_buf(bytes, sizeof bytes);
    for (int i = 0; i < 6; i++)
        xs[i] = alphabet[bytes[i] % (sizeof alphabet - 1)];
}

int mkostemps(char *template, int suffix_len, int flags)
{
    char *xs = template_xs(template, suffix_len);
    if (xs == NULL)
        return -1;
    for (int i = 0; i < ATTEMPTS; i++) {
        randomize(xs);
        int fd = open(template, O_RDWR | O_CREAT | O_EXCL | (flags & ~O_ACCMODE), 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    memcpy(xs, "XXXXXX", 6);
    errno = EEXIST;
    return -1;
}

int mkstemps(char *template, int suffix_len) { return mkostemps(template, suffix_len, 0); }
int mkostemp(char *template, int flags) { return mkostemps(template, 0, flags); }
int mkstemp(char *template) { return mkostemps(template, 0, 0); }

char *mkdtemp(char *template)
{
    char *xs = template_xs(template, 0);
    if (xs == NULL)
        return NULL;
    for (int i = 0; i < ATTEMPTS; i++) {
        randomize(xs);
        if (mkdir(template, 0700) == 0)
            return template;
        if (errno != EEXIST)
            return NULL;
    }
    memcpy(xs, "XXXXXX", 6);
    errno = EEXIST;
    return NULL;
}

/* Unsafe by design (the name may be taken before it is used), kept for old programs. */
char *mktemp(char *template)
{
    char *xs = template_xs(template, 0);
    if (xs == NULL) {
        if (template[0] != '\0')
            template[0] = '\0';
        return template;
    }
    struct stat st;
    for (int i = 0; i < ATTEMPTS; i++) {
        randomize(xs);
        if (lstat(template, &st) < 0 && errno == ENOENT)
            return template;
    }
    template[0] = '\0';
    errno = EEXIST;
    return template;
}

char *tmpnam(char *buf)
{
    static char internal[L_tmpnam];
    char name[] = P_tmpdir "/tmp_XXXXXX";
    if (mktemp(name)[0] == '\0')
        return NULL;
    char *out = buf != NULL ? buf : internal;
    memcpy(out, name, sizeof name);
    return out;
}

/* An unlinked file open for update: gone when closed, as on Linux. */
FILE *tmpfile(void)
{
    char name[] = P_tmpdir "/tmpfile_XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
        return NULL;
    unlink(name);
    FILE *f = fdopen(fd, "w+");
    if (f == NULL)
        close(fd);
    return f;
}
