/* Spindle's POSIX layer (docs/POSIX.md): F_DUPFD, F_DUPFD_CLOEXEC, AT_EMPTY_PATH and
 * AT_STATX_*, which wasi-libc's <fcntl.h> leaves out (Linux's numbers; runtime/posix/dup.c
 * and stat_mode_owner.c handle them). */
#include_next <fcntl.h>

#ifndef F_DUPFD
#define F_DUPFD 0
#endif
#ifndef F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC 1030
#endif
/* fstatat, fchmodat, fchownat on the fd itself (runtime/posix/stat_mode_owner.c) */
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
/* Linux's numbers, hidden by wasi-libc or under feature macros (runtime/posix/dup.c answers the
 * commands; there is no automounting to suppress) */
#ifndef F_SETOWN
#define F_SETOWN 8
#define F_GETOWN 9
#endif
#ifndef AT_NO_AUTOMOUNT
#define AT_NO_AUTOMOUNT 0x800
#endif
/* statx's synchronisation hints (nothing to synchronise: accepted and ignored) */
#ifndef AT_STATX_SYNC_AS_STAT
#define AT_STATX_SYNC_TYPE 0x6000
#define AT_STATX_SYNC_AS_STAT 0x0000
#define AT_STATX_FORCE_SYNC 0x2000
#define AT_STATX_DONT_SYNC 0x4000
#endif
