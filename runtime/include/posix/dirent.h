/* Spindle's POSIX layer (docs/POSIX.md): Linux's struct dirent (d_ino, d_off, d_reclen, d_type,
 * d_name[256]) and DT_* values, filled by the layer's own directory streams
 * (runtime/posix/directory_stream.c, scandir.c).
 *
 * libc.a's readdir fills wasi-libc's smaller layout, and code built against it stays as it is:
 * libc's nftw, glob and fts, libc++'s <filesystem>. So the layer does not replace libc's symbols;
 * each function below is declared under the name of Spindle's definition (an asm label), and a
 * program built with this header calls Spindle's. A DIR must not pass between the two. */
#ifndef SPINDLE_POSIX_DIRENT_H
#define SPINDLE_POSIX_DIRENT_H

#define __NEED_ino_t
#define __NEED_off_t
#include <bits/alltypes.h>

/* wasi-libc's struct dirent (d_ino, d_type, d_name[]) is skipped: its header sees this guard */
#define __wasilibc___struct_dirent_h
#define _DIRENT_HAVE_D_TYPE
#define _DIRENT_HAVE_D_OFF
#define _DIRENT_HAVE_D_RECLEN
#define _DIRENT_MATCHES_DIRENT64 1
struct dirent {
    ino_t d_ino;
    off_t d_off;              /* telldir's value after this entry: the next entry's position */
    unsigned short d_reclen;  /* offsetof(d_name) + name length + 1, rounded up to 8, as Linux */
    unsigned char d_type;     /* DT_* below (Linux's values) */
    char d_name[256];
};
#define _D_EXACT_NAMLEN(d) (__builtin_strlen((d)->d_name))
#define _D_ALLOC_NAMLEN(d) ((d)->d_reclen - __builtin_offsetof(struct dirent, d_name))

#include <__typedef_DIR.h>

#define __SPINDLE_DIRENT_CALL(name) __asm__("__spindle_" #name)
#ifdef __cplusplus
extern "C" {
#endif
DIR *opendir(const char *) __SPINDLE_DIRENT_CALL(opendir);
DIR *fdopendir(int) __SPINDLE_DIRENT_CALL(fdopendir);
DIR *opendirat(int, const char *) __SPINDLE_DIRENT_CALL(opendirat);
struct dirent *readdir(DIR *) __SPINDLE_DIRENT_CALL(readdir);
int readdir_r(DIR *__restrict, struct dirent *__restrict, struct dirent **__restrict)
    __SPINDLE_DIRENT_CALL(readdir_r);
void rewinddir(DIR *) __SPINDLE_DIRENT_CALL(rewinddir);
void seekdir(DIR *, long) __SPINDLE_DIRENT_CALL(seekdir);
long telldir(DIR *) __SPINDLE_DIRENT_CALL(telldir);
int dirfd(DIR *) __SPINDLE_DIRENT_CALL(dirfd);
int closedir(DIR *) __SPINDLE_DIRENT_CALL(closedir);
int fdclosedir(DIR *) __SPINDLE_DIRENT_CALL(fdclosedir);
int scandir(const char *, struct dirent ***, int (*)(const struct dirent *),
            int (*)(const struct dirent **, const struct dirent **)) __SPINDLE_DIRENT_CALL(scandir);
int scandirat(int, const char *, struct dirent ***, int (*)(const struct dirent *),
              int (*)(const struct dirent **, const struct dirent **)) __SPINDLE_DIRENT_CALL(scandirat);
int alphasort(const struct dirent **, const struct dirent **) __SPINDLE_DIRENT_CALL(alphasort);
#ifdef _GNU_SOURCE
int versionsort(const struct dirent **, const struct dirent **) __SPINDLE_DIRENT_CALL(versionsort);
#endif
/* Linux's raw reads of a directory fd from its position (runtime/posix/getdents.c): records of
 * struct dirent, which is struct linux_dirent64. getdents is musl's declaration, getdents64
 * glibc's (the sysroot's macro that maps it to getdents is undone below). */
int getdents(int, struct dirent *, size_t);
#if defined(_LARGEFILE64_SOURCE) || defined(_GNU_SOURCE)
#define __SPINDLE_GETDENTS64
#endif
#ifdef __cplusplus
}
#endif
#undef __SPINDLE_DIRENT_CALL

/* The sysroot's declarations repeat the ones above (and keep their names); its dirent64,
 * readdir64, scandir64... macros name these functions. */
#include_next <dirent.h>

#if defined(_LARGEFILE64_SOURCE) || defined(_GNU_SOURCE)
#define readdir64_r readdir_r
#endif
#ifdef __SPINDLE_GETDENTS64
#undef getdents64
#undef __SPINDLE_GETDENTS64
#define __NEED_ssize_t
#include <bits/alltypes.h>
#ifdef __cplusplus
extern "C" {
#endif
ssize_t getdents64(int, void *, size_t);
#ifdef __cplusplus
}
#endif
#endif

/* Linux's DT_* values, not WASI's file types */
#undef DT_UNKNOWN
#undef DT_FIFO
#undef DT_CHR
#undef DT_DIR
#undef DT_BLK
#undef DT_REG
#undef DT_LNK
#undef DT_SOCK
#undef IFTODT
#undef DTTOIF
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12
#define DT_WHT 14
#define IFTODT(mode) (((mode) & 0170000) >> 12)
#define DTTOIF(type) ((type) << 12)
#endif
