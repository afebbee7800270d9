// What a host-directory mount keeps between calls, and what it must not answer from the past:
// - the directories kept open (host/mount/hostdir/dir-cache.js, docs/MOUNTS.md "Directories kept open"):
//   changes made from outside between two calls are seen at once, never an old directory, and
//   never one moved outside the mount;
// - the stats a listing took (host/mount/hostdir/listed-stats.js, "Stats from a listing"): used once,
//   not after the program changed the mount, not after 100 ms, never a symlink's for stat().
// The backend's requests are made in this process on a memory of their own, so the host's
// directory can be changed between two requests exactly.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AT, ERRNO, O } from '../host/abi/linux.js';
import { OP, REQ } from '../host/abi/mount-request.js';
import { client, prepare } from '../host/mount/hostdir/hostdir.js';

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
  // one request: fields { op, flags, path, handle, ptr, len, offset }; its result (a BigInt)
  const request = ({ op, flags = 0, path = '', handle = 0n, ptr = STAT_AT, len = 64, offset = 0n }) => {
    const bytes = new TextEncoder().encode(path);
    new Uint8Array(memory.buffer).fill(0, 0, STAT_AT + 64);
    new Uint8Array(memory.buffer).set(bytes, PATH_AT);
    view.setInt32(REQUEST + REQ.OP, op, true);
    view.setInt32(REQUEST + REQ.FLAGS, flags, true);
    view.setUint32(REQUEST + REQ.PATH, PATH_AT, true);
    view.setUint32(REQUEST + REQ.PATH_LEN, bytes.length, true);
    view.setBigUint64(REQUEST + REQ.HANDLE, handle, true);
    view.setBigInt64(REQUEST + REQ.OFFSET, offset, true);
    view.setUint32(REQUEST + REQ.PTR, ptr, true);
    view.setUint32(REQUEST + REQ.LEN, len, true);
    call(view, REQUEST);
    return view.getBigInt64(REQUEST + REQ.RESULT, true);
  };
  // STAT of rel: { size, ino } or { errno }
  const stat = (rel, flags = 0) => {
    const result = Number(request({ op: OP.STAT, path: rel, flags }));
    if (result !== 0) return { errno: -result };
    return { size: Number(view.getBigInt64(STAT_AT + 24, true)), ino: view.getBigUint64(STAT_AT, true) };
  };
  // opens, lists and closes directory rel (the listing's bytes are not looked at)
  const list = (rel) => {
    assert.equal(request({ op: OP.OPEN, path: rel, flags: O.DIRECTORY }), 0n);
    const handle = view.getBigUint64(REQUEST + REQ.HANDLE, true);
    assert.ok(request({ op: OP.READDIR, handle, ptr: 16384, len: 32768 }) > 0n);
    assert.equal(request({ op: OP.CLOSE, handle }), 0n);
  };
  // a call that changes the mount: mkdir of rel
  const mkdir = (rel) => assert.equal(request({ op: OP.MKDIR, path: rel, flags: 0 }), 0n);
  return { host, outside, stat, list, mkdir, dispose: prepared.dispose };
}

const openFds = () => readdirSync('/proc/self/fd').length;

describe('hostdir mount: what is kept between calls', { skip: process.platform !== 'linux' }, () => {
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

  it('a listing\'s stats answer one stat each, soon after, until the program changes the mount', async () => {
    const m = await mounted('listed', { 'd/a': '1', 'd/b': '22', 'd/c': '333', 'd/e': '4444' });
    const grow = (name, text) => writeFileSync(join(m.host, 'd', name), text);
    const listed = performance.now();
    m.list('d');
    // (changed from outside right after the listing: within 100 ms, the listing's stat answers;
    // a machine too busy to get there in time gets the host's)
    grow('a', 'grown');
    const first = m.stat('d/a').size;
    if (performance.now() - listed < 90) assert.equal(first, 1, 'the listing\'s stat');
    assert.equal(m.stat('d/a').size, 5, 'used once, then the host\'s');
    // a change by the program, on any path of the mount, ends every listing taken before it
    m.list('d');
    grow('b', 'grown');
    m.mkdir('new-dir');
    assert.equal(m.stat('d/b').size, 5);
    // and so do 100 ms
    m.list('d');
    grow('c', 'grown');
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(m.stat('d/c').size, 5);
    m.dispose();
  });

  it('a listed symlink answers lstat only; stat() reaches its target', async () => {
    const m = await mounted('listed-link', { 'd/target': 'twelve bytes' });
    symlinkSync('target', join(m.host, 'd/link'));
    m.list('d');
    assert.equal(m.stat('d/link').size, 12, 'stat follows the link to its target');
    m.list('d');
    assert.equal(m.stat('d/link', AT.SYMLINK_NOFOLLOW).size, 'target'.length);
    m.dispose();
  });
});
