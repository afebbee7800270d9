/* A struct spindle_mount_backend on a host directory with POSIX *at calls,
 * for the native tests of the mount layer (no confinement: that is the Node
 * backend's job, tested in tests/mount.test.js). */
#ifndef SPINDLE_TEST_POSIX_BACKEND_H
#define SPINDLE_TEST_POSIX_BACKEND_H
#include <spindle/mount.h>

extern const struct spindle_mount_backend posix_backend;
/* ctx for posix_backend: an open directory fd cast to a pointer. */
void *posix_backend_ctx(const char *host_dir);

#endif
