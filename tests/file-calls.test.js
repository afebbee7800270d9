// The one WASI file-call layer (host/wasi/file-calls.js) over a fake backend, called as an
// attacker's module would call it: operations the backend lacks answer ENOSYS (or go to the
// fallback), pointers outside memory answer EFAULT before the backend acts, huge lengths and
// counts are refused, unknown fds get the backend's EBADF, and results land in WASI's layouts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { O, S } from '../host/abi/linux.js';
import { ERRNO, FDFLAGS, FDSTAT, FILESTAT, FILETYPE, IOVEC, OFLAGS, RIGHTS } from '../host/abi/wasi.js';
import { FILE_CALLS, fileCalls } from '../host/wasi/file-calls.js';
import { fail } from '../host/wasi/guest-memory.js';

const PAGE = 65536;
const U32_MAX = 2 ** 32 - 1;

// A backend with one file, fd 5, holding "hello"; every operation it is asked for is logged.
function fakeBackend(log) {
  const fd = (n) => (n === 5 ? n : fail(ERRNO.BADF));
  return {
    readv(n, list) {
      fd(n);
      log.push(['readv', list]);
      return 5;
    },
    writev: (n, list) => { fd(n); log.push(['writev', list]); return list.reduce((sum, [, len]) => sum + len, 0); },
    seek: (n, offset) => { fd(n); return offset; },
    fdstat: (n) => ({ mode: fd(n) && S.IFREG, flags: O.WRONLY | O.APPEND }),
    readdir: (n) => [{ next: 1n, ino: fd(n), dt: 8, name: new Uint8Array([0x78]) }],
    fstat: (n) => ({ dev: 1, ino: fd(n), mode: S.IFDIR, nlink: 2, size: 7n, atim: 1n, mtim: 2n, ctim: 3n }),
    open(dirfd, path, flags) {
      fd(dirfd);
      log.push(['open', String.fromCharCode(...path), flags]);
      return 9;
    },
  };
}

function setup(backend, options) {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 2, shared: true });
  const calls = fileCalls(backend, memory, options);
  const dv = () => new DataView(memory.buffer);
  new Uint8Array(memory.buffer).set([0x61, 0x2f, 0x62], 400); // "a/b", a path for path_open
  return { memory, calls, dv };
}

describe('WASI file-call layer', () => {
  it('serves every file call, with the arity the mailbox of host/jsfs/proxy.js passes on', () => {
    const { calls } = setup({});
    assert.deepEqual(Object.keys(calls).sort(), Object.keys(FILE_CALLS).sort());
    assert.equal(calls.path_open.length, 9);
    assert.equal(calls.fd_read.length, 4);
  });

  it('an operation the backend lacks answers ENOSYS, or goes to the fallback', () => {
    const { calls } = setup({});
    for (const name of Object.keys(FILE_CALLS)) assert.equal(calls[name](5, 0, 0, 0, 0, 0, 0, 0, 0), ERRNO.NOSYS, name);
    const fallback = { fd_advise: (fd) => (fd === 1 ? ERRNO.SUCCESS : ERRNO.BADF) };
    const served = fileCalls({}, new WebAssembly.Memory({ initial: 1 }), { fallback });
    assert.equal(served.fd_advise(1, 0n, 0n, 0), ERRNO.SUCCESS);
    assert.equal(served.fd_advise(7, 0n, 0n, 0), ERRNO.BADF);
  });

  it('pointers outside memory: EFAULT, and the backend is never asked', () => {
    const log = [];
    const { calls, dv } = setup(fakeBackend(log));
    for (const bad of [PAGE, PAGE - 3, U32_MAX, -1]) {
      assert.equal(calls.fd_read(5, bad, 1, 0), ERRNO.FAULT);
      assert.equal(calls.fd_write(5, 0, 1, bad), ERRNO.FAULT);
      assert.equal(calls.fd_seek(5, 0n, 0, bad), ERRNO.FAULT);
      assert.equal(calls.fd_fdstat_get(5, bad), ERRNO.FAULT);
      assert.equal(calls.fd_filestat_get(5, bad), ERRNO.FAULT);
      assert.equal(calls.path_open(3, 0, bad, 4, 0, 0n, 0n, 0, 0), ERRNO.FAULT);
      assert.equal(calls.path_open(5, 0, 400, 3, 0, 0n, 0n, 0, bad), ERRNO.FAULT);
    }
    // an iovec whose buffer runs past the end
    dv().setUint32(16 + IOVEC.BUF, PAGE - 8, true);
    dv().setUint32(16 + IOVEC.LEN, 16, true);
    assert.equal(calls.fd_read(5, 16, 1, 0), ERRNO.FAULT);
    assert.deepEqual(log, []);
  });

  it('huge counts and lengths are refused, not looped over', () => {
    const log = [];
    const { calls } = setup(fakeBackend(log));
    assert.equal(calls.fd_write(5, 0, U32_MAX, 64), ERRNO.INVAL); // more than IOV_MAX iovecs
    assert.equal(calls.fd_write(5, 0, 1025, 64), ERRNO.INVAL);
    assert.equal(calls.path_open(5, 0, 0, U32_MAX, 0, 0n, 0n, 0, 64), ERRNO.FAULT);
    assert.equal(calls.path_open(5, 0, 0, 4096, 0, 0n, 0n, 0, 64), ERRNO.NAMETOOLONG);
    assert.equal(calls.fd_readdir(5, 0, U32_MAX, 0n, 64), ERRNO.FAULT);
    assert.deepEqual(log, []);
  });

  it("unknown fds: the backend's EBADF", () => {
    const { calls } = setup(fakeBackend([]));
    for (const fd of [-1, 0, 4, 6, 2 ** 31 - 1, U32_MAX]) {
      assert.equal(calls.fd_write(fd, 0, 0, 64), ERRNO.BADF);
      assert.equal(calls.fd_fdstat_get(fd, 64), ERRNO.BADF);
      assert.equal(calls.path_open(fd, 0, 400, 3, 0, 0n, 0n, 0, 64), ERRNO.BADF);
    }
  });

  it('results: counts, fdstat by access mode, filestat, path_open flags translated once', () => {
    const log = [];
    const { calls, dv, memory } = setup(fakeBackend(log));
    dv().setUint32(16 + IOVEC.BUF, 100, true);
    dv().setUint32(16 + IOVEC.LEN, 3, true);
    assert.equal(calls.fd_write(5, 16, 1, 64), ERRNO.SUCCESS);
    assert.equal(dv().getUint32(64, true), 3);
    assert.deepEqual(log.pop(), ['writev', [[100, 3]]]);

    assert.equal(calls.fd_fdstat_get(5, 200), ERRNO.SUCCESS);
    assert.equal(dv().getUint8(200 + FDSTAT.FILETYPE), FILETYPE.REGULAR_FILE);
    assert.equal(dv().getUint16(200 + FDSTAT.FLAGS, true), FDFLAGS.APPEND);
    assert.equal(dv().getBigUint64(200 + FDSTAT.RIGHTS_BASE, true) & RIGHTS.FD_READ, 0n); // write-only

    assert.equal(calls.fd_filestat_get(5, 300), ERRNO.SUCCESS);
    assert.equal(dv().getUint8(300 + FILESTAT.FILETYPE), FILETYPE.DIRECTORY);
    assert.equal(dv().getBigUint64(300 + FILESTAT.SIZE, true), 7n);

    assert.equal(calls.fd_readdir(5, 500, 64, 0n, 64), ERRNO.SUCCESS);
    assert.equal(dv().getUint32(64, true), 24 + 1); // one dirent and its one-byte name
    assert.equal(dv().getUint8(500 + 24), 0x78);
    assert.equal(calls.fd_readdir(6, 500, 64, 0n, 64), ERRNO.BADF);

    assert.equal(calls.path_open(5, 0, 400, 3, OFLAGS.CREAT | OFLAGS.TRUNC, RIGHTS.FD_READ, 0n, FDFLAGS.APPEND, 64), ERRNO.SUCCESS);
    assert.equal(dv().getUint32(64, true), 9);
    assert.deepEqual(log.pop(), ['open', 'a/b', O.RDONLY | O.CREAT | O.TRUNC | O.NOFOLLOW | O.APPEND]);
    new Uint8Array(memory.buffer).set([0x61, 0, 0x62], 400); // a NUL inside the path
    assert.equal(calls.path_open(5, 0, 400, 3, 0, 0n, 0n, 0, 64), ERRNO.INVAL);
  });

  it('passOn: fds the backend does not own go to another set for the calls named', () => {
    const stdio = { fd_write: () => 77 };
    const { calls } = setup(fakeBackend([]), { passOn: { calls: new Set(['fd_write']), owns: (fd) => fd >= 3, to: stdio } });
    assert.equal(calls.fd_write(1, 0, 0, 64), 77);
    assert.equal(calls.fd_write(5, 0, 0, 64), ERRNO.SUCCESS);
    assert.equal(calls.fd_fdstat_get(1, 64), ERRNO.BADF); // not named: the backend answers
  });
});
