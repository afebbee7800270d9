/* Process-level calls wasi-libc declares but leaves undefined. There is no shell, no setuid
 * and no terminal; each answers as Linux does in that situation. */
#define _GNU_SOURCE /* L_ctermid, L_cuserid, P_tmpdir, mkostemps */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/spindle/identity.h"

/* system(): no /bin/sh. NULL asks whether a shell exists (0: none); a command gets the status
 * of a shell that could not run, exit code 127, as glibc reports a missing /bin/sh. */
int system(const char *command) { return command == NULL ? 0 : 127 << 8; }

/* Never setuid: the plain environment. */
char *secure_getenv(const char *name) { return getenv(name); }

/* The controlling terminal's name, which POSIX allows to be returned without one. */
char *ctermid(char *buf)
{
    static char internal[L_ctermid];
    char *out = buf != NULL ? buf : internal;
    strcpy(out, "/dev/tty");
    return out;
}

/* The user of the effective uid (identity.c): "root" when linked --as-root; uid 1000 has no
 * user database entry, for which glibc gives an empty name. */
char *cuserid(char *buf)
{
    static char internal[L_cuserid];
    char *out = buf != NULL ? buf : internal;
    strcpy(out, spindle_runs_as_root() ? "root" : "");
    return out;
}
