// The shared-memory protocols between C and JavaScript are written once per side: C's headers
// (runtime/fs/mount/mount_wire.h, runtime/include/spindle/fs.h, runtime/wasi/wasi_abi.h, wasi-libc's
// <wasi/api.h>) and host/abi/*.js. This test turns every JS value into a C _Static_assert naming
// it and compiles the lot for wasm32 (the layout the program has), so any disagreement fails the
// build with the name of the field or number. Linux values the C side does not name are checked
// against the build machine's Linux headers instead, and C's Linux -> WASI errno switch
// (runtime/wasi/wasi_support.c) is read and compared with errnoFromLinux.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { exec } from './lib/exec.js';
import { clang, sysroot, target } from '../cli/common/toolchain.js';
import * as linux from '../host/abi/linux.js';
import * as wasi from '../host/abi/wasi.js';
import { errnoFromLinux } from '../host/abi/wasi-translate.js';
import * as request from '../host/abi/mount-request.js';
import * as wire from '../host/abi/mount-wire.js';

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'spindle-abi-'));
after(() => rmSync(work, { recursive: true, force: true }));

const fsHeader = readFileSync(join(root, 'runtime/include/spindle/fs.h'), 'utf8');
const spindleNames = new Set([...fsHeader.matchAll(/^#define (SPINDLE_\w+)/gm)].map((m) => m[1]));

const num = (v) => (typeof v === 'bigint' ? `${v}ULL` : `(${v})`);
const equal = (c, v, what) => `_Static_assert((${c}) == ${num(v)}, "${what}: JS says ${v}");`;
const offset = (type, field, v, what) => equal(`offsetof(${type}, ${field})`, v, what);
const lower = (name) => name.toLowerCase();

/** The fields of a JS layout table as C offsetof checks (BYTES: sizeof). */
function layout(table, type, jsName, fieldOf = lower) {
  return Object.entries(table).map(([name, v]) => (name === 'BYTES'
    ? equal(`sizeof(${type})`, v, `${jsName}.BYTES`)
    : offset(type, fieldOf(name), v, `${jsName}.${name}`)));
}

/** A JS table of numbers against the C macros cName(key) names. */
function numbers(table, jsName, cName) {
  return Object.entries(table).map(([name, v]) => equal(cName(name), v, `${jsName}.${name}`));
}

// The checks against the headers the wasm program is built with.
function wasmChecks(abi = { linux, wasi, request, wire }) {
  const lines = [];
  const spindle = (prefix) => (name) => `SPINDLE_${prefix}${name}`;
  // Linux numbering: every SPINDLE_E* must be in the JS table; JS-only ones are checked natively
  for (const name of spindleNames) {
    const m = /^SPINDLE_(E[A-Z0-9]+)$/.exec(name);
    if (m) lines.push(equal(name, abi.linux.ERRNO[m[1]] ?? 'undefined', `linux ERRNO.${m[1]}`));
  }
  for (const [table, jsName, prefix] of [[abi.linux.O, 'linux O', 'O_'], [abi.linux.AT, 'linux AT', 'AT_'],
    [abi.linux.S, 'linux S', 'S_'], [abi.linux.DT, 'linux DT', 'DT_'], [abi.linux.UTIME, 'linux UTIME', 'UTIME_']]) {
    for (const [name, v] of Object.entries(table)) {
      if (spindleNames.has(`SPINDLE_${prefix}${name}`)) lines.push(equal(spindle(prefix)(name), v, `${jsName}.${name}`));
    }
  }
  // the mount protocol
  lines.push(...layout(abi.request.REQ, 'struct mount_request', 'REQ'));
  lines.push(...numbers(abi.request.OP, 'OP', (n) => `MOUNT_OP_${n}`));
  lines.push(equal('MOUNT_FSYNC_DATASYNC', abi.request.FSYNC_DATASYNC, 'FSYNC_DATASYNC'));
  lines.push(equal('MOUNT_RESULT_FOLLOW', abi.request.FOLLOW.RESULT, 'FOLLOW.RESULT'));
  lines.push(equal('MOUNT_FOLLOW_BYTES', abi.request.FOLLOW.BYTES, 'FOLLOW.BYTES'));
  lines.push(...layout(abi.wire.STAT, 'struct mount_wire_stat', 'STAT'));
  lines.push(...layout(abi.wire.DIRENT, 'struct mount_wire_dirent', 'DIRENT'));
  lines.push(equal('MOUNT_WIRE_DIRENT_ALIGN', abi.wire.DIRENT_ALIGN, 'DIRENT_ALIGN'));
  // WASI: the numbers against wasi-libc's <wasi/api.h>, and the binding's own wasi_abi.h
  const w = abi.wasi;
  for (const [name, v] of Object.entries(w.ERRNO)) {
    lines.push(equal(`__WASI_ERRNO_${name}`, v, `wasi ERRNO.${name}`));
    lines.push(`#ifdef WASI_E${name}\n${equal(`WASI_E${name}`, v, `wasi ERRNO.${name} (wasi_abi.h)`)}\n#endif`);
  }
  for (const [table, jsName, cPrefix] of [[w.FILETYPE, 'FILETYPE', 'FILETYPE'], [w.OFLAGS, 'OFLAGS', 'OFLAGS'],
    [w.FDFLAGS, 'FDFLAGS', 'FDFLAGS'], [w.FSTFLAGS, 'FSTFLAGS', 'FSTFLAGS'], [w.LOOKUPFLAGS, 'LOOKUPFLAGS', 'LOOKUPFLAGS'],
    [w.CLOCK, 'CLOCK', 'CLOCKID'], [w.EVENTTYPE, 'EVENTTYPE', 'EVENTTYPE'], [w.SUBCLOCKFLAGS, 'SUBCLOCKFLAGS', 'SUBCLOCKFLAGS'], [w.PREOPENTYPE, 'PREOPENTYPE', 'PREOPENTYPE']]) {
    lines.push(...numbers(table, `wasi ${jsName}`, (n) => `__WASI_${cPrefix}_${n}`));
  }
  for (const [name, v] of Object.entries(w.RIGHTS)) {
    lines.push(equal(name === 'ALL' ? 'WASI_RIGHTS_ALL' : `__WASI_RIGHTS_${name}`, v, `wasi RIGHTS.${name}`));
  }
  const fields = (map) => (name) => map[name];
  lines.push(...layout(w.FDSTAT, '__wasi_fdstat_t', 'wasi FDSTAT', fields({ FILETYPE: 'fs_filetype', FLAGS: 'fs_flags',
    RIGHTS_BASE: 'fs_rights_base', RIGHTS_INHERITING: 'fs_rights_inheriting' })));
  lines.push(...layout(w.FDSTAT, 'struct wasi_fdstat', 'wasi FDSTAT (wasi_abi.h)'));
  lines.push(...layout(w.FILESTAT, '__wasi_filestat_t', 'wasi FILESTAT'));
  lines.push(...layout(w.FILESTAT, 'struct wasi_filestat', 'wasi FILESTAT (wasi_abi.h)'));
  lines.push(...layout(w.DIRENT, '__wasi_dirent_t', 'wasi DIRENT', (n) => `d_${lower(n)}`));
  lines.push(...layout(w.DIRENT, 'struct wasi_dirent', 'wasi DIRENT (wasi_abi.h)', fields({ NEXT: 'next', INO: 'ino',
    NAMLEN: 'namlen', TYPE: 'type' })));
  lines.push(...layout(w.PRESTAT, '__wasi_prestat_t', 'wasi PRESTAT', fields({ TAG: 'tag', DIR_NAME_LEN: 'u.dir.pr_name_len' })));
  lines.push(...layout(w.PRESTAT, 'struct wasi_prestat', 'wasi PRESTAT (wasi_abi.h)'));
  lines.push(...layout(w.IOVEC, '__wasi_iovec_t', 'wasi IOVEC', fields({ BUF: 'buf', LEN: 'buf_len' })));
  lines.push(...layout(w.SUBSCRIPTION, '__wasi_subscription_t', 'wasi SUBSCRIPTION', fields({ USERDATA: 'userdata',
    TAG: 'u.tag', CLOCK_ID: 'u.u.clock.id', CLOCK_TIMEOUT: 'u.u.clock.timeout', CLOCK_PRECISION: 'u.u.clock.precision',
    CLOCK_FLAGS: 'u.u.clock.flags', FD: 'u.u.fd_read.file_descriptor' })));
  lines.push(...layout(w.EVENT, '__wasi_event_t', 'wasi EVENT', fields({ USERDATA: 'userdata', ERROR: 'error',
    TYPE: 'type', NBYTES: 'fd_readwrite.nbytes', FLAGS: 'fd_readwrite.flags' })));
  lines.push(...layout(w.IOVEC, 'struct wasi_iovec', 'wasi IOVEC (wasi_abi.h)'));
  // the WASI errno for each Linux errno C translates (wasi_errno_from_linux maps by name)
  for (const name of spindleNames) {
    const m = /^SPINDLE_E([A-Z0-9]+)$/.exec(name);
    if (m) {
      lines.push(`#ifdef WASI_E${m[1]}\n${equal(`WASI_E${m[1]}`, errnoFromLinux(abi.linux.ERRNO[`E${m[1]}`]), `errnoFromLinux(E${m[1]})`)}\n#endif`);
    }
  }
  return ['#include <stddef.h>', '#include <wasi/api.h>', '#include "spindle/fs.h"', '#include "mount_wire.h"',
    '#include "wasi_abi.h"', ...lines].join('\n');
}

// Linux values the runtime's headers do not name, against the machine's own <errno.h>, <dirent.h>.
function nativeChecks() {
  const lines = ['#include <errno.h>', '#include <dirent.h>'];
  for (const [name, v] of Object.entries(linux.ERRNO)) {
    if (!spindleNames.has(`SPINDLE_${name}`)) lines.push(equal(name, v, `linux ERRNO.${name}`));
  }
  lines.push(equal('DT_UNKNOWN', linux.DT.UNKNOWN, 'linux DT.UNKNOWN'));
  return lines.join('\n');
}

async function compileWasm(source, name) {
  const file = join(work, name);
  writeFileSync(file, `${source}\n`);
  return exec(clang, [`--target=${target}`, `--sysroot=${sysroot}`, '-std=c11', '-fsyntax-only',
    '-I', join(root, 'runtime/include'), '-I', join(root, 'runtime/fs/mount'), '-I', join(root, 'runtime/wasi'), file]);
}

describe('C and JavaScript agree on the shared-memory protocols (host/abi)', () => {
  it('every host/abi value equals its C counterpart (wasm32 layout)', async () => {
    const r = await compileWasm(wasmChecks(), 'abi.c');
    assert.equal(r.code, 0, `C and host/abi disagree:\n${r.stderr}`);
  });

  it('a wrong value fails the check, naming what disagrees', async () => {
    const wrongRequest = { ...request, REQ: { ...request.REQ, HANDLE: 28 } };
    const wrongErrno = { ...linux, ERRNO: { ...linux.ERRNO, ENOENT: 3 } };
    let r = await compileWasm(wasmChecks({ linux, wasi, request: wrongRequest, wire }), 'wrong-request.c');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /REQ\.HANDLE: JS says 28/);
    r = await compileWasm(wasmChecks({ linux: wrongErrno, wasi, request, wire }), 'wrong-errno.c');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /linux ERRNO\.ENOENT: JS says 3/);
  });

  it('Linux values the runtime does not name match Linux', { skip: process.platform !== 'linux' && 'needs Linux headers' }, async () => {
    const file = join(work, 'native.c');
    writeFileSync(file, `${nativeChecks()}\n`);
    const r = await exec(clang, ['-std=c11', '-D_DEFAULT_SOURCE', '-fsyntax-only', file]);
    assert.equal(r.code, 0, `host/abi/linux.js disagrees with Linux:\n${r.stderr}`);
  });

  it("errnoFromLinux maps as runtime/wasi's wasi_errno_from_linux does", () => {
    const c = readFileSync(join(root, 'runtime/wasi/wasi_support.c'), 'utf8');
    const body = c.slice(c.indexOf('wasi_errno_from_linux('), c.indexOf('bool wasi_in_memory'));
    const cases = [...body.matchAll(/case SPINDLE_(E[A-Z0-9]+):\s*return WASI_E([A-Z0-9]+);/g)];
    assert.ok(cases.length > 20, `read ${cases.length} cases`);
    for (const [, linuxName, wasiName] of cases) {
      assert.equal(errnoFromLinux(linux.ERRNO[linuxName]), wasi.ERRNO[wasiName], `${linuxName} -> ${wasiName}`);
    }
    assert.match(body, /default:\s*return WASI_EIO;/);
    assert.equal(errnoFromLinux(12345), wasi.ERRNO.IO);
  });

  it('the routing rule: a handle goes back to the I/O worker that made it', () => {
    const view = new DataView(new ArrayBuffer(request.REQ.BYTES));
    const rr = new Int32Array(new SharedArrayBuffer(4));
    view.setInt32(request.REQ.OP, request.OP.OPEN, true);
    assert.deepEqual([0, 1, 2, 3].map(() => request.ioWorkerOf(view, 0, 3, rr)), [0, 1, 2, 0]);
    view.setInt32(request.REQ.OP, request.OP.PREAD, true);
    view.setBigUint64(request.REQ.HANDLE, request.ioHandle(12345, 2), true);
    assert.equal(request.ioWorkerOf(view, 0, 3, rr), 2);
    assert.equal(request.ioWorkerOf(view, 0, 2, rr), -1);
    assert.deepEqual(request.ioHandleParts(request.ioHandle(12345, 2)), { id: 12345n, w: 2 });
    view.setInt32(request.REQ.OP, request.OP.RENAME, true);
    assert.equal(request.ioWorkerOf(view, 0, 3, rr), 0);
  });
});
