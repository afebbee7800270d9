// The directories a host-directory mount keeps open (host/mount/dir-cache.js, docs/MOUNTS.md
// "Directories kept open"): changes made from outside the program between two calls are seen
// at once, never an old directory, and never one moved outside the mount. The backend's STAT and
// OPEN are called in this process on a memory of their own, so the host's directory can be
// changed between two requests exactly.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ERRNO } from '../host/abi/linux.js';
import { OP, REQ } from '../host/abi/mount-request.js';
import { client, prepare } from '../host/mount/hostdir.js';

const REQUEST = 1024;
const PATH_AT = 4096;
const STAT_AT = 8192;
let base;
before(() => { base = mkdtempSync(join(tmpdir(), 'spindle-kept-dirs-')); });
after(() => rmSync(base, { recursive: true, force: true }));

// A mount of a fresh directory holding `files` ({ 'a/b/file': 'text' }), outside: a sibling.
async function mounted(name, files) {
  const host = join(base, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(host, path, '..'), { recursive: true });
    writeFileSync(join(host, path), text);
  }
  const outside = join(base, `${name}-outside`);
  mkdirSync(outside);
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  const prepared = await prepare({ path: '/m', hostDir: host });
  const call = client(prepared.config, memory);
  const view = new DataView(memory.buffer);
  // STAT of rel: { size, ino } or { errno }
  const stat = (rel) => {
    const bytes = new TextEncoder().encode(rel);
    new Uint8Array(memory.buffer).fill(0, 0, STAT_AT + 64);
    new Uint8Array(memory.buffer).set(bytes, PATH_AT);
    view.setInt32(REQUEST + REQ.OP, OP.STAT, true);
    view.setUint32(REQUEST + REQ.PATH, PATH_AT, true);
    view.setUint32(REQUEST + REQ.PATH_LEN, bytes.length, true);
    view.setUint32(REQUEST + REQ.PTR, STAT_AT, true);
    view.setUint32(REQUEST + REQ.LEN, 64, true);
    call(view, REQUEST);
    const result = Number(view.getBigInt64(REQUEST + REQ.RESULT, true));
    if (result !== 0) return { errno: -result };
    return { size: Number(view.getBigInt64(STAT_AT + 24, true)), ino: view.getBigUint64(STAT_AT, true) };
  };
  return { host, outside, stat, dispose: prepared.dispose };
}

const openFds = () => readdirSync('/proc/self/fd').length;

describe('hostdir mount: directories kept open', { skip: process.platform !== 'linux' }, () => {
  it('a directory renamed and replaced from outside: the new one is seen at once', async () => {
    const m = await mounted('replaced', { 'a/b/file': 'old' });
    assert.equal(m.stat('a/b/file').size, 3);
    renameSync(join(m.host, 'a/b'), join(m.host, 'a/was-b'));
    mkdirSync(join(m.host, 'a/b'));
    writeFileSync(join(m.host, 'a/b/file'), 'newer');
    assert.deepEqual(m.stat('a/b/file'), { size: 5, ino: statSync(join(m.host, 'a/b/file'), { bigint: true }).ino });
    assert.equal(m.stat('a/was-b/file').size, 3);
    m.dispose();
  });

  it('a directory moved outside the mount is not reached any more', async () => {
    const m = await mounted('moved-out', { 'a/b/file': 'secret' });
    assert.equal(m.stat('a/b/file').size, 6);
    renameSync(join(m.host, 'a/b'), join(m.outside, 'b'));
    assert.deepEqual(m.stat('a/b/file'), { errno: ERRNO.ENOENT });
    // and put back by a symlink to where it went: the path leaves the mount (EXDEV without a
    // follow buffer), never the outside file
    symlinkSync(m.outside, join(m.host, 'a/link'));
    renameSync(join(m.host, 'a'), join(m.host, 'a-old'));
    symlinkSync(m.outside, join(m.host, 'a'));
    assert.deepEqual(m.stat('a/b/file'), { errno: ERRNO.EXDEV });
    m.dispose();
  });

  it('a directory removed from outside gives ENOENT; one made again is found', async () => {
    const m = await mounted('removed', { 'd/file': 'x' });
    assert.equal(m.stat('d/file').size, 1);
    rmSync(join(m.host, 'd'), { recursive: true });
    assert.deepEqual(m.stat('d/file'), { errno: ERRNO.ENOENT });
    mkdirSync(join(m.host, 'd'));
    writeFileSync(join(m.host, 'd/file'), 'again');
    assert.equal(m.stat('d/file').size, 5);
    m.dispose();
  });

  it('at most 32 directories stay open per thread, and dispose closes them', async () => {
    const files = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`d${i}/f`, 'y']));
    const before = openFds();
    const m = await mounted('many', files);
    for (let i = 0; i < 100; i++) assert.equal(m.stat(`d${i}/f`).size, 1);
    assert.ok(openFds() - before <= 32, `${openFds() - before} fds kept`);
    m.dispose();
    assert.equal(openFds(), before);
  });
});
