// The files mailbox: one SharedArrayBuffer between the coordinator (host/files/client.js) and the
// service thread's worker (host/files/service.js), one request at a time. The coordinator writes
// a request and wakes the service; the service answers by message ('files-done'). For a write,
// the service also asks the coordinator (message 'files-fill') to copy the bytes straight into
// the file's chunks, and waits on the mailbox until they are there.
// TIMES_AT: a restore's atime, mtime and ctime, each as BigInt64 seconds then nanoseconds.
// SERVICE_SLOT: 1 + the pool slot of the service thread's worker, which the coordinator keeps
// alive after exit (0 until the service runs).
export const BOX = { STATE: 0, OP: 1, MODE: 2, PATH_LEN: 3, PATH2_LEN: 4, SERVICE_SLOT: 5, SIZE64: 3 /* BigInt64 index */ };
export const STATE = { IDLE: 0, REQUEST: 1, BUSY: 2, FILLING: 3, FILLED: 4 };
export const PATHS_AT = 32; // byte offset of path, then path2
export const PATH_MAX = 4096; // SPINDLE_FS_PATH_MAX, NUL included
export const TIMES_AT = PATHS_AT + 2 * PATH_MAX;
export const MAILBOX_BYTES = TIMES_AT + 6 * 8;

// runtime/wasi/files_api_service.c: enum op, and spindle_fs_copy_pieces' directions
export const OP = { READ: 1, WRITE: 2, STAT: 3, READDIR: 4, MKDIR: 5, UNLINK: 6, RMDIR: 7, RENAME: 8, RELEASE_MAIN: 9,
  SYMLINK: 10, RESTORE_ATTRS: 11 };
export const COPY_IN = 1;
export const COPY_OUT = 2;
// struct request
export const RQ = { OP: 0, MODE: 4, SIZE: 8, PATH: 16, PATH2: 16 + PATH_MAX, TIMES: 16 + 2 * PATH_MAX };
export const RQ_BYTES = RQ.TIMES + 6 * 8; // its three times: seconds and nanoseconds each
// spindle_fs_restore_attrs: leave the permission bits as they are (SPINDLE_MODE_KEEP)
export const MODE_KEEP = 0xffffffff;

const NS_PER_S = 1000000000n;
/** [seconds, nanoseconds 0..999999999] of a BigInt count of nanoseconds since 1970. */
export function splitNs(ns) {
  const nsec = ((ns % NS_PER_S) + NS_PER_S) % NS_PER_S;
  return [(ns - nsec) / NS_PER_S, nsec];
}
