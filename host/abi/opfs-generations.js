// The OPFS backend's generations buffer (docs/OPFS.md): one SharedArrayBuffer per mount that the
// coordinator (host/mount/opfs/opfs.js) makes and every I/O worker of the mount sees. Int32 slots
// 0..SLOTS-1 count, per hash bucket of paths, the removals and renames at those paths (inode
// numbers mix them in: host/mount/opfs/opfs-identity.js); slot EPOCH counts removals and moves of
// directories (each worker then forgets its directory handles: host/mount/opfs/opfs-paths.js).
export const SLOTS = 1 << 16;
export const EPOCH = SLOTS;

/** A new, zeroed generations buffer. */
export const createGenerations = () => new SharedArrayBuffer((SLOTS + 1) * 4);
