/* The host's own WASI functions, reachable under these names because
 * runtime/wasi takes over the __imported_wasi_snapshot_preview1_* symbols
 * that wasi-libc calls. Used for the host's fds (stdio) and, in a portable
 * module, for the host's preopened directories (runtime/portable). */
#ifndef SPINDLE_WASI_HOST_H
#define SPINDLE_WASI_HOST_H

#include <stdint.h>

#define HOST_IMPORT(name) __attribute__((import_module("wasi_snapshot_preview1"), import_name(#name)))

HOST_IMPORT(fd_advise) int32_t host_fd_advise(int32_t, int64_t, int64_t, int32_t);
HOST_IMPORT(fd_allocate) int32_t host_fd_allocate(int32_t, int64_t, int64_t);
HOST_IMPORT(fd_close) int32_t host_fd_close(int32_t);
HOST_IMPORT(fd_datasync) int32_t host_fd_datasync(int32_t);
HOST_IMPORT(fd_fdstat_get) int32_t host_fd_fdstat_get(int32_t, int32_t);
HOST_IMPORT(fd_fdstat_set_flags) int32_t host_fd_fdstat_set_flags(int32_t, int32_t);
HOST_IMPORT(fd_fdstat_set_rights) int32_t host_fd_fdstat_set_rights(int32_t, int64_t, int64_t);
HOST_IMPORT(fd_filestat_get) int32_t host_fd_filestat_get(int32_t, int32_t);
HOST_IMPORT(fd_filestat_set_size) int32_t host_fd_filestat_set_size(int32_t, int64_t);
HOST_IMPORT(fd_filestat_set_times) int32_t host_fd_filestat_set_times(int32_t, int64_t, int64_t, int32_t);
HOST_IMPORT(fd_pread) int32_t host_fd_pread(int32_t, int32_t, int32_t, int64_t, int32_t);
HOST_IMPORT(fd_pwrite) int32_t host_fd_pwrite(int32_t, int32_t, int32_t, int64_t, int32_t);
HOST_IMPORT(fd_read) int32_t host_fd_read(int32_t, int32_t, int32_t, int32_t);
HOST_IMPORT(fd_readdir) int32_t host_fd_readdir(int32_t, int32_t, int32_t, int64_t, int32_t);
HOST_IMPORT(fd_seek) int32_t host_fd_seek(int32_t, int64_t, int32_t, int32_t);
HOST_IMPORT(fd_sync) int32_t host_fd_sync(int32_t);
HOST_IMPORT(fd_tell) int32_t host_fd_tell(int32_t, int32_t);
HOST_IMPORT(fd_write) int32_t host_fd_write(int32_t, int32_t, int32_t, int32_t);
HOST_IMPORT(fd_renumber) int32_t host_fd_renumber(int32_t, int32_t);
HOST_IMPORT(poll_oneoff) int32_t host_poll_oneoff(int32_t, int32_t, int32_t, int32_t);
HOST_IMPORT(clock_time_get) int32_t host_clock_time_get(int32_t, int64_t, int32_t);
HOST_IMPORT(proc_exit) _Noreturn void host_proc_exit(int32_t);
HOST_IMPORT(fd_prestat_get) int32_t host_fd_prestat_get(int32_t, int32_t);
HOST_IMPORT(fd_prestat_dir_name) int32_t host_fd_prestat_dir_name(int32_t, int32_t, int32_t);
HOST_IMPORT(path_open)
int32_t host_path_open(int32_t, int32_t, int32_t, int32_t, int32_t, int64_t, int64_t, int32_t, int32_t);
HOST_IMPORT(path_filestat_get) int32_t host_path_filestat_get(int32_t, int32_t, int32_t, int32_t, int32_t);
HOST_IMPORT(path_filestat_set_times)
int32_t host_path_filestat_set_times(int32_t, int32_t, int32_t, int32_t, int64_t, int64_t, int32_t);
HOST_IMPORT(path_create_directory) int32_t host_path_create_directory(int32_t, int32_t, int32_t);
HOST_IMPORT(path_remove_directory) int32_t host_path_remove_directory(int32_t, int32_t, int32_t);
HOST_IMPORT(path_unlink_file) int32_t host_path_unlink_file(int32_t, int32_t, int32_t);
HOST_IMPORT(path_rename) int32_t host_path_rename(int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);
HOST_IMPORT(path_link) int32_t host_path_link(int32_t, int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);
HOST_IMPORT(path_symlink) int32_t host_path_symlink(int32_t, int32_t, int32_t, int32_t, int32_t);
HOST_IMPORT(path_readlink) int32_t host_path_readlink(int32_t, int32_t, int32_t, int32_t, int32_t, int32_t);

#endif
