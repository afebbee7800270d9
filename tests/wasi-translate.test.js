// The WASI <-> Linux translations (host/abi/wasi-translate.js) and the guest-memory side of the
// host's WASI file calls (host/wasi/guest-memory.js), which both the host-directory preopens and
// the --fs=js baseline use: each rule once, with the values a hostile module would pass (unknown
// bits, all bits, negative and huge numbers, pointers outside memory).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AT, DT, ERRNO as LINUX, O, S, UTIME } from '../host/abi/linux.js';
import { DIRENT, ERRNO, FDFLAGS, FDSTAT, FILESTAT, FILETYPE, FSTFLAGS, OFLAGS, PRESTAT, RIGHTS } from '../host/abi/wasi.js';
import {
  accessFromRights, errnoFromLinux, fdflagsFromStatusFlags, filetypeOfDt, filetypeOfMode, followFromLookup,
  noFollowFromLookup, openFlagsFromOflags, rightsFromAccess, statusFlagsFromFdflags, utimensFromFstflags,
} from '../host/abi/wasi-translate.js';
import { guestMemory, WasiError, wasiCall } from '../host/wasi/guest-memory.js';

const U64_MAX = (1n << 64n) - 1n;
const errnoOf = (fn) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof WasiError) return err.errno;
    throw err;
  }
  return ERRNO.SUCCESS;
};

describe('WASI <-> Linux translations', () => {
  it('errno: by name, anything unknown is EIO', () => {
    assert.equal(errnoFromLinux(LINUX.ENOENT), ERRNO.NOENT);
    assert.equal(errnoFromLinux(LINUX.EOPNOTSUPP), ERRNO.NOTSUP);
    for (const hostile of [0, -1, 12345, 2 ** 53, NaN, undefined]) assert.equal(errnoFromLinux(hostile), ERRNO.IO);
  });

  it('filetypes of st_mode and d_type; other kinds are unknown', () => {
    assert.equal(filetypeOfMode(S.IFREG | 0o644), FILETYPE.REGULAR_FILE);
    assert.equal(filetypeOfMode(S.IFDIR | 0o7777), FILETYPE.DIRECTORY);
    assert.equal(filetypeOfMode(S.IFLNK), FILETYPE.SYMBOLIC_LINK);
    assert.equal(filetypeOfMode(S.IFCHR), FILETYPE.CHARACTER_DEVICE);
    assert.equal(filetypeOfMode(S.IFIFO), FILETYPE.UNKNOWN);
    assert.equal(filetypeOfMode(-1), FILETYPE.UNKNOWN);
    assert.equal(filetypeOfDt(DT.REG), FILETYPE.REGULAR_FILE);
    assert.equal(filetypeOfDt(DT.DIR), FILETYPE.DIRECTORY);
    assert.equal(filetypeOfDt(DT.LNK), FILETYPE.SYMBOLIC_LINK);
    assert.equal(filetypeOfDt(DT.FIFO), FILETYPE.UNKNOWN);
    assert.equal(filetypeOfDt(255), FILETYPE.UNKNOWN);
  });

  it("path_open's access mode comes from the read and write rights only", () => {
    assert.equal(accessFromRights(0n), O.RDONLY);
    assert.equal(accessFromRights(RIGHTS.FD_READ), O.RDONLY);
    assert.equal(accessFromRights(RIGHTS.FD_WRITE), O.WRONLY);
    assert.equal(accessFromRights(RIGHTS.FD_READ | RIGHTS.FD_WRITE), O.RDWR);
    assert.equal(accessFromRights(RIGHTS.ALL), O.RDWR);
    // an i64 as the module passes it: -1 is every right, bits above 64 do not exist
    assert.equal(accessFromRights(-1n), O.RDWR);
    assert.equal(accessFromRights(U64_MAX & ~RIGHTS.FD_WRITE), O.RDONLY);
    assert.equal(accessFromRights(1n << 70n), O.RDONLY);
  });

  it("path_open's oflags and lookupflags", () => {
    assert.equal(openFlagsFromOflags(0, 0), O.NOFOLLOW);
    assert.equal(openFlagsFromOflags(0, 1), 0);
    assert.equal(openFlagsFromOflags(OFLAGS.CREAT | OFLAGS.EXCL, 1), O.CREAT | O.EXCL);
    assert.equal(openFlagsFromOflags(OFLAGS.TRUNC | OFLAGS.DIRECTORY, 0), O.TRUNC | O.DIRECTORY | O.NOFOLLOW);
    // unknown bits are ignored, whatever the module sets
    const all = O.CREAT | O.DIRECTORY | O.EXCL | O.TRUNC;
    assert.equal(openFlagsFromOflags(-1, -1), all);
    assert.equal(openFlagsFromOflags(0xfff0, 0xfffe), O.NOFOLLOW);
    assert.equal(openFlagsFromOflags(2 ** 40, 0), O.NOFOLLOW);
  });

  it('fdflags to status flags and back', () => {
    assert.equal(statusFlagsFromFdflags(0), 0);
    assert.equal(statusFlagsFromFdflags(FDFLAGS.APPEND | FDFLAGS.NONBLOCK), O.APPEND | O.NONBLOCK);
    assert.equal(statusFlagsFromFdflags(FDFLAGS.DSYNC), O.DSYNC);
    assert.equal(statusFlagsFromFdflags(FDFLAGS.RSYNC), O.SYNC);
    assert.equal(statusFlagsFromFdflags(FDFLAGS.SYNC | FDFLAGS.DSYNC), O.SYNC);
    assert.equal(statusFlagsFromFdflags(-1), O.APPEND | O.NONBLOCK | O.SYNC);
    assert.equal(statusFlagsFromFdflags(0xffe0), 0);
    for (const fdflags of [0, FDFLAGS.APPEND, FDFLAGS.NONBLOCK, FDFLAGS.DSYNC, FDFLAGS.SYNC, FDFLAGS.APPEND | FDFLAGS.SYNC]) {
      assert.equal(fdflagsFromStatusFlags(statusFlagsFromFdflags(fdflags)), fdflags, `fdflags ${fdflags}`);
    }
    // the access mode and other open flags are no fdflags; O_SYNC holds O_DSYNC's bit
    assert.equal(fdflagsFromStatusFlags(O.RDWR | O.CREAT | O.TRUNC | O.DIRECTORY | O.NOFOLLOW), 0);
    assert.equal(fdflagsFromStatusFlags(O.DSYNC), FDFLAGS.DSYNC);
    assert.equal(fdflagsFromStatusFlags(-1), FDFLAGS.APPEND | FDFLAGS.NONBLOCK | FDFLAGS.SYNC);
  });

  it("fdstat's rights follow the access mode", () => {
    assert.equal(rightsFromAccess(O.RDWR), RIGHTS.ALL);
    assert.equal(rightsFromAccess(O.RDONLY | O.APPEND), RIGHTS.ALL & ~RIGHTS.FD_WRITE);
    assert.equal(rightsFromAccess(O.WRONLY), RIGHTS.ALL & ~(RIGHTS.FD_READ | RIGHTS.FD_READDIR));
    assert.equal(rightsFromAccess(O.ACCMODE), RIGHTS.ALL); // Linux's "3": neither refused
    for (const flags of [O.RDONLY, O.WRONLY, O.RDWR]) assert.equal(accessFromRights(rightsFromAccess(flags)), flags);
  });

  it('lookupflags as AT_ flags', () => {
    assert.equal(noFollowFromLookup(0), AT.SYMLINK_NOFOLLOW);
    assert.equal(noFollowFromLookup(1), 0);
    assert.equal(noFollowFromLookup(-2), AT.SYMLINK_NOFOLLOW);
    assert.equal(followFromLookup(0), 0);
    assert.equal(followFromLookup(-1), AT.SYMLINK_FOLLOW);
  });

  it('fstflags and timestamps as utimensat times', () => {
    const omit = [0n, UTIME.OMIT];
    const now = [0n, UTIME.NOW];
    assert.deepEqual(utimensFromFstflags(5n, 6n, 0), [omit, omit]);
    assert.deepEqual(utimensFromFstflags(1500000000n, 0n, FSTFLAGS.ATIM | FSTFLAGS.MTIM_NOW), [[1n, 500000000], now]);
    assert.deepEqual(utimensFromFstflags(0n, 2000000001n, FSTFLAGS.MTIM), [omit, [2n, 1]]);
    // a negative i64 is a huge unsigned timestamp, never a negative time
    assert.deepEqual(utimensFromFstflags(-1n, 0n, FSTFLAGS.ATIM), [[U64_MAX / 1000000000n, Number(U64_MAX % 1000000000n)], omit]);
    // a time and "now" for one timestamp: EINVAL
    assert.equal(utimensFromFstflags(0n, 0n, FSTFLAGS.ATIM | FSTFLAGS.ATIM_NOW), null);
    assert.equal(utimensFromFstflags(0n, 0n, FSTFLAGS.MTIM | FSTFLAGS.MTIM_NOW), null);
    assert.equal(utimensFromFstflags(0n, 0n, -1), null);
    assert.deepEqual(utimensFromFstflags(0n, 0n, 0xfff0), [omit, omit]);
  });
});

describe("WASI file calls' guest memory", () => {
  const PAGE = 65536;
  const setup = () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 2 });
    return { memory, mem: guestMemory(memory), dv: () => new DataView(memory.buffer) };
  };

  it('paths: inside memory, no NUL, shorter than PATH_MAX', () => {
    const { memory, mem } = setup();
    new Uint8Array(memory.buffer).set(new TextEncoder().encode('a/b\0c'), 100);
    assert.deepEqual([...mem.path(100, 3)], [...new TextEncoder().encode('a/b')]);
    assert.equal(errnoOf(() => mem.path(100, 5)), ERRNO.INVAL);
    assert.equal(errnoOf(() => mem.path(0, 4096)), ERRNO.NAMETOOLONG);
    for (const [ptr, len] of [[-1, 1], [PAGE, 1], [PAGE - 1, 2], [0, -1], [2 ** 31, 0], [0, 2 ** 32]]) {
      assert.equal(errnoOf(() => mem.path(ptr, len)), ERRNO.FAULT, `path(${ptr}, ${len})`);
    }
  });

  it('iovecs: the array and every buffer inside memory, at most IOV_MAX', () => {
    const { mem, dv } = setup();
    dv().setUint32(0, 100, true); dv().setUint32(4, 10, true);
    dv().setUint32(8, PAGE - 5, true); dv().setUint32(12, 5, true);
    assert.deepEqual(mem.iovecs(0, 2), [[100, 10], [PAGE - 5, 5]]);
    dv().setUint32(12, 6, true);
    assert.equal(errnoOf(() => mem.iovecs(0, 2)), ERRNO.FAULT);
    dv().setUint32(8, 0xffffffff, true); dv().setUint32(12, 0xffffffff, true);
    assert.equal(errnoOf(() => mem.iovecs(0, 2)), ERRNO.FAULT);
    assert.equal(errnoOf(() => mem.iovecs(PAGE - 4, 1)), ERRNO.FAULT);
    assert.equal(errnoOf(() => mem.iovecs(0, -1)), ERRNO.FAULT);
    assert.equal(errnoOf(() => mem.iovecs(0, 1025)), ERRNO.INVAL);
    assert.equal(errnoOf(() => mem.iovecs(0, 2 ** 31 - 1)), ERRNO.INVAL);
  });

  it('results are written in WASI layouts, and only inside memory', () => {
    const { memory, mem, dv } = setup();
    new Uint8Array(memory.buffer).fill(0xaa);
    mem.putFilestat(0, { dev: 1, ino: 2n, filetype: FILETYPE.DIRECTORY, nlink: 3, size: 4, atim: -1n, mtim: 6n, ctim: 7 });
    assert.equal(dv().getBigUint64(FILESTAT.DEV, true), 1n);
    assert.equal(dv().getBigUint64(FILESTAT.INO, true), 2n);
    assert.equal(dv().getUint8(FILESTAT.FILETYPE), FILETYPE.DIRECTORY);
    assert.equal(dv().getUint8(FILESTAT.FILETYPE + 1), 0); // padding cleared
    assert.equal(dv().getBigUint64(FILESTAT.ATIM, true), U64_MAX);
    assert.equal(dv().getBigUint64(FILESTAT.CTIM, true), 7n);
    mem.putFdstat(100, { filetype: FILETYPE.REGULAR_FILE, fdflags: FDFLAGS.APPEND, rightsBase: RIGHTS.ALL, rightsInheriting: 0n });
    assert.equal(dv().getUint8(100 + FDSTAT.FILETYPE), FILETYPE.REGULAR_FILE);
    assert.equal(dv().getUint16(100 + FDSTAT.FLAGS, true), FDFLAGS.APPEND);
    assert.equal(dv().getBigUint64(100 + FDSTAT.RIGHTS_BASE, true), RIGHTS.ALL);
    mem.putPrestat(200, 5);
    assert.equal(dv().getUint32(200 + PRESTAT.DIR_NAME_LEN, true), 5);
    assert.equal(errnoOf(() => mem.putPrestatName(300, 1, new Uint8Array([1, 2]))), ERRNO.NAMETOOLONG);
    for (const put of [(p) => mem.putU32(p, 1), (p) => mem.putU64(p, -1n), (p) => mem.putPrestat(p, 1),
      (p) => mem.putFilestat(p, { dev: 0, ino: 0, filetype: 0, nlink: 0, size: 0, atim: 0, mtim: 0, ctim: 0 }),
      (p) => mem.putFdstat(p, { filetype: 0, fdflags: 0, rightsBase: 0n, rightsInheriting: 0n }),
      (p) => mem.putPrestatName(p, 8, new Uint8Array(1))]) {
      for (const ptr of [-8, PAGE - 3, PAGE, 2 ** 32]) assert.equal(errnoOf(() => put(ptr)), ERRNO.FAULT, `${put} at ${ptr}`);
    }
  });

  it('dirents are packed header then name, the last one cut at the buffer end', () => {
    const { memory, mem, dv } = setup();
    const name = new TextEncoder().encode('abc');
    const one = DIRENT.BYTES + name.length;
    const out = mem.direntWriter(0, one + 10);
    assert.equal(out.add({ next: 1n, ino: 7, filetype: FILETYPE.REGULAR_FILE, name }), true);
    assert.equal(out.add({ next: -1n, ino: 8, filetype: FILETYPE.DIRECTORY, name }), false);
    assert.equal(out.used, one + 10);
    assert.equal(dv().getBigUint64(DIRENT.NEXT, true), 1n);
    assert.equal(dv().getUint32(DIRENT.NAMLEN, true), 3);
    assert.equal(dv().getUint8(DIRENT.TYPE), FILETYPE.REGULAR_FILE);
    assert.deepEqual([...new Uint8Array(memory.buffer, DIRENT.BYTES, 3)], [...name]);
    assert.equal(dv().getBigUint64(one + DIRENT.NEXT, true), U64_MAX);
    assert.equal(mem.direntWriter(0, 0).add({ next: 1, ino: 1, filetype: 0, name }), false);
    assert.equal(errnoOf(() => mem.direntWriter(PAGE - 10, 11)), ERRNO.FAULT);
    assert.equal(errnoOf(() => mem.direntWriter(-1, 0)), ERRNO.FAULT);
  });

  it('views follow memory.grow', () => {
    const { memory, mem } = setup();
    assert.equal(errnoOf(() => mem.putU32(PAGE, 1)), ERRNO.FAULT);
    memory.grow(1);
    mem.putU32(PAGE, 42);
    assert.equal(new DataView(memory.buffer).getUint32(PAGE, true), 42);
  });

  it('wasiCall: errnos returned or thrown, other errors to otherError or on', () => {
    assert.equal(wasiCall(() => {})(), ERRNO.SUCCESS);
    assert.equal(wasiCall(() => ERRNO.BADF)(), ERRNO.BADF);
    assert.equal(wasiCall(() => { throw new WasiError(ERRNO.NOENT); })(), ERRNO.NOENT);
    assert.equal(wasiCall(() => { throw new RangeError('x'); }, () => ERRNO.FAULT)(), ERRNO.FAULT);
    assert.throws(() => wasiCall(() => { throw new TypeError('bug'); })(), TypeError);
    assert.equal(wasiCall((a, b, c) => a + b + c).length, 3); // jsfs/proxy.js reads the arity
  });
});
