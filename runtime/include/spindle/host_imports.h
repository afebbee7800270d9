/* The seam between the runtime and Spindle's host: every `spindle.*` import a module can have,
 * declared once, in C as spindle_host_<import name> (the host's WASI calls are in
 * runtime/wasi/wasi_host.h). A module imports only those its linked code calls. The host's side:
 * host/threads/thread-instance.js, and the hostImports of host/program/thread-setup.js and host/jsfs/host-thread.js.
 *
 * Compiled three ways:
 * - for Spindle's host (the default), each is an import;
 * - in runtime/portable (`--host=wasi`, compiled with -DSPINDLE_PORTABLE by cli/build/runtime-lib.js),
 *   plain prototypes: runtime/portable defines in C those a portable module reaches
 *   (docs/PORTABLE.md), so its definitions are checked against these. The other archives still
 *   declare imports; a definition in the link takes their place, so none is left;
 * - natively (the filesystem's tests), plain prototypes that nothing calls. */
#ifndef SPINDLE_HOST_IMPORTS_H
#define SPINDLE_HOST_IMPORTS_H

#include <stdint.h>

#if defined(__wasm__) && !defined(SPINDLE_PORTABLE)
#define SPINDLE_HOST_IMPORT(name) __attribute__((import_module("spindle"), import_name(#name)))
#else
#define SPINDLE_HOST_IMPORT(name)
#endif

struct mount_request; /* runtime/fs/mount/mount_wire.h */
struct files_request; /* runtime/wasi/files_api_service.c */
struct files_piece;

/* Threads (runtime/core/pthread_exit.c, pthread_exit_call.c, sysconf.c) */

/* Calls start(arg) back through the export __spindle_invoke_start; returns its result, or
 * pthread_exit's value when thread_exit unwound it. */
SPINDLE_HOST_IMPORT(run_thread_body) void *spindle_host_run_thread_body(void *(*start)(void *), void *arg);
/* Throws to this thread's run_thread_body, which returns value. */
SPINDLE_HOST_IMPORT(thread_exit) _Noreturn void spindle_host_thread_exit(void *value);
/* Waits, briefly, while every worker is busy but one whose thread is ending (host/threads/control.js). */
SPINDLE_HOST_IMPORT(thread_slot_wait) void spindle_host_thread_slot_wait(void);
/* The host's core count (0 or less: unknown). */
SPINDLE_HOST_IMPORT(cpu_count) int spindle_host_cpu_count(void);

/* Ends the program with the stack overflow message (host/threads/stack-overflow.js); stack_kind is a
 * SPINDLE_STACK_* of runtime/core/stack_check.h. */
SPINDLE_HOST_IMPORT(stack_overflow)
_Noreturn void spindle_host_stack_overflow(uint32_t stack_bytes, int stack_kind);

/* File timestamps (runtime/fs/core/stamp_clock.c) */

/* The wall clock in milliseconds, coarse, never ahead of clock_gettime (host/platform/wall-clock.js). */
SPINDLE_HOST_IMPORT(fs_clock_ms) double spindle_host_fs_clock_ms(void);
/* The host's Date.now(): when it moves, fs_clock_ms is read again. */
SPINDLE_HOST_IMPORT(date_now_ms) double spindle_host_date_now_ms(void);
/* Asks the host to keep the same clock, in ns, in cell->ns about every millisecond while
 * cell->wanted is set (struct stamp_clock_cell, stamp_clock.c); 1 when it will, 0 when this host
 * cannot (the core then stops asking). */
SPINDLE_HOST_IMPORT(stamp_ticker) int32_t spindle_host_stamp_ticker(void *cell);

/* The host's stdio, fds 0-2 (runtime/wasi/wasi_stdio.c, runtime/posix/statfs.c; host/wasi/imports.js) */

/* Writes Linux's /proc/self/fd text for the fd at text (at most size bytes); its length, or -1. */
SPINDLE_HOST_IMPORT(stdio_name) int32_t spindle_host_stdio_name(int32_t fd, void *text, int32_t size);
/* Linux's fstatfs f_type for the fd, 0 when the host cannot say. */
SPINDLE_HOST_IMPORT(stdio_fs_type) int32_t spindle_host_stdio_fs_type(int32_t fd);

/* Mounts (runtime/fs/mount/mount_host.c; host/mount/index.js, docs/MOUNTS.md) */

/* Writes the mounts at buf when they fit in len, each '+' or '-' (whether the module checks the
 * modes), its path and a NUL; returns their length (-EFAULT: buf is outside memory). */
SPINDLE_HOST_IMPORT(mount_list) int32_t spindle_host_mount_list(char *buf, int32_t len);
/* Serves the request: stores its results, then state = 1, and returns 0 (-EFAULT: the request is
 * outside memory, untouched). */
SPINDLE_HOST_IMPORT(mount_call) int32_t spindle_host_mount_call(struct mount_request *request);

/* The files API and preloading (runtime/wasi/files_api_service.c; host/files/service.js) */

/* 1 when the host wants the files API's service thread. */
SPINDLE_HOST_IMPORT(files_wanted) int32_t spindle_host_files_wanted(void);
/* The service could not start (a WASI errno); while preloading, the host ends the run. */
SPINDLE_HOST_IMPORT(files_unavailable) void spindle_host_files_unavailable(int32_t err);
/* Blocks until the next request, writes it into *request and returns its op. */
SPINDLE_HOST_IMPORT(files_wait) int32_t spindle_host_files_wait(struct files_request *request);
/* Writes the next step of preloading into *request: its op, or 0 when there are no more (the host
 * ends the run with a message if a step fails). */
SPINDLE_HOST_IMPORT(files_preload_next)
int32_t spindle_host_files_preload_next(struct files_request *request);
/* Copies into (SPINDLE_COPY_IN) or out of these pieces of the file, in order. */
SPINDLE_HOST_IMPORT(files_pieces)
void spindle_host_files_pieces(const struct files_piece *list, int32_t count, int32_t direction);
/* The request's answer: a file's stat. */
SPINDLE_HOST_IMPORT(files_stat)
void spindle_host_files_stat(uint32_t mode, int64_t size, int64_t ino, int64_t nlink, int64_t atime_ns,
                             int64_t mtime_ns, int64_t ctime_ns);
/* The request's answer: one directory entry. */
SPINDLE_HOST_IMPORT(files_entry) void spindle_host_files_entry(const char *name, int32_t len, int32_t type);
/* Ends the request: a result >= 0 or -errno. */
SPINDLE_HOST_IMPORT(files_done) void spindle_host_files_done(int64_t result);

/* --fs=js, the C main on the host's thread (runtime/jsfs/host_thread_wait.c; docs/JSFS.md) */

/* Serves proxied file calls and waits while *addr == expected: 0 (woken, or a short wait ended:
 * a spurious wake-up the callers loop on), -EAGAIN (*addr != expected) or -ETIMEDOUT. It unwinds
 * the thread when another thread ended the program. */
SPINDLE_HOST_IMPORT(jsfs_host_thread_wait)
int32_t spindle_host_jsfs_host_thread_wait(volatile void *addr, int32_t expected, int64_t timeout_ns);
/* 1 when this thread runs on the host's main thread (Node), 0 on a worker (browsers). */
SPINDLE_HOST_IMPORT(jsfs_on_host_thread) int32_t spindle_host_jsfs_on_host_thread(void);

#undef SPINDLE_HOST_IMPORT

#endif
