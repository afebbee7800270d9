// What a host-directory mount keeps between calls, and what it must not answer from the past:
// - the directories kept open (host/mount/hostdir/dir-cache.js, docs/MOUNTS.md "Directories kept open"):
//   changes made from outside between two calls are seen at once, never an old directory, and
//   never one moved outside the mount;
// - the stats a listing took (host/mount/hostdir/listed-stats.js, "Stats from a listing"): used once,
//   not after the program changed the mount, not after 100 ms, never a symlink's for stat(); and
//   the names it lacks, ENOENT under the same rules.
// The backend's requests are made in this process on a memory of their own, so the host's
// directory can be changed between two requests exactly.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AT, ERRNO, O } from '../host/abi/linux.js';
import { OP, REQ } from '../host/abi/mount-request.js';
import { readDirents } from '../host/abi/mount-wire.js';
import { client, prepare } from '../host/mount/hostdir/hostdir.js';
import { mountAddon } from '../host/platform/mount-addon.js';

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
  const request = ({ op, flags = 0, path = '', handle = 0n, ptr = STAT_AT, len = 64, offset = 0n, mode = 0 }) => {
    const bytes = typeof path === 'string' ? new TextEncoder().encode(path) : path;
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
    view.setUint32(REQUEST + REQ.MODE, mode, true);
    call(view, REQUEST);
    return view.getBigInt64(REQUEST + REQ.RESULT, true);
  };
  // STAT of rel: { size, ino } or { errno }
  const stat = (rel, flags = 0) => { // (rel: a string, or the path's bytes)
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
  // the names READDIR gives for directory rel, asking for at most `most` entries a call
  const names = (rel, most) => {
    assert.equal(request({ op: OP.OPEN, path: rel, flags: O.DIRECTORY }), 0n);
    const handle = view.getBigUint64(REQUEST + REQ.HANDLE, true);
    const out = [];
    for (let cookie = 0n; ;) {
      const got = Number(request({ op: OP.READDIR, handle, ptr: 16384, len: 32768, offset: cookie, mode: most }));
      const entries = readDirents(view, 16384, got);
      if (most) assert.ok(entries.length <= most, `${entries.length} entries for ${most}`);
      if (!entries.length) break;
      out.push(...entries.map((e) => Buffer.from(e.name).toString('latin1')));
      cookie = entries.at(-1).next;
    }
    assert.equal(request({ op: OP.CLOSE, handle }), 0n);
    return out;
  };
  const viewHandle = () => view.getBigUint64(REQUEST + REQ.HANDLE, true);
  return { host, outside, stat, list, mkdir, names, request, viewHandle, dispose: prepared.dispose };
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
    mountAddon()?.dropKeptDirs?.(); // (what earlier tests' calls left kept on this thread)
    const before = openFds();
    const m = await mounted('many', files);
    for (let i = 0; i < 100; i++) assert.equal(m.stat(`d${i}/f`).size, 1);
    // (the addon's are its own: 32 and the queue of their watches, addon/kept_dirs.c)
    assert.ok(openFds() - before <= 32 + (mountAddon() ? 1 : 0), `${openFds() - before} fds kept`);
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

  it('a name a fresh listing lacks is ENOENT with no system call, below it too; not \'.\', \'..\', after a change or 100 ms', async () => {
    const m = await mounted('absent', { 'd/a': '1', 'd/sub/b': '2' });
    const made = (rel, text = 'x') => writeFileSync(join(m.host, rel), text);
    // made from outside right after the listing: a fresh listing still says it is not there
    // (a machine too busy to get there within 90 ms gets the host's answer)
    const checkAbsent = (rel) => {
      const listed = performance.now();
      m.list('d');
      made(rel);
      const got = m.stat(rel);
      if (performance.now() - listed < 90) assert.deepEqual(got, { errno: ERRNO.ENOENT }, rel);
      assert.equal(m.stat(rel).errno === ERRNO.ENOENT, performance.now() - listed < 90, `${rel}: again, as long as it is fresh`);
    };
    checkAbsent('d/.gitignore');
    // a path under a name the listing lacks: `.git/info/exclude` when `.git` is not there
    mkdirSync(join(m.host, 'd', '.git', 'info'), { recursive: true });
    rmSync(join(m.host, 'd', '.git'), { recursive: true });
    const listed = performance.now();
    m.list('d');
    mkdirSync(join(m.host, 'd', '.git', 'info'), { recursive: true });
    made('d/.git/info/exclude');
    const below = m.stat('d/.git/info/exclude');
    if (performance.now() - listed < 90) assert.deepEqual(below, { errno: ERRNO.ENOENT });
    // what is listed is never ENOENT; '.' and '..', which no listing holds, are the host's to answer
    m.list('d');
    assert.equal(m.stat('d/sub').errno, undefined);
    assert.equal(m.stat('d/sub/b').size, 1);
    for (const rel of ['d/.', 'd/..', 'd/./a', 'd/../d/a']) assert.notEqual(m.stat(rel).errno, ERRNO.ENOENT, rel);
    // a change by the program ends it at once, 100 ms too
    m.list('d');
    made('d/new-file');
    m.mkdir('elsewhere');
    assert.equal(m.stat('d/new-file').size, 1);
    m.list('d');
    made('d/late');
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(m.stat('d/late').size, 1);
    m.dispose();
  });

  it('READDIR gives at most the entries asked for, and its cookies go on from there', async () => {
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`d/f${String(i).padStart(2, '0')}`, 'x']));
    const m = await mounted('most', files);
    const all = Object.keys(files).map((p) => p.slice(2)).sort();
    for (const most of [0, 1, 3, 16, 40, 64]) assert.deepEqual(m.names('d', most), all, `at most ${most} a call`);
    m.dispose();
  });

  it('a listing answers by the bytes of the name, as strcmp sorts them, and never a name that is not UTF-8', async () => {
    // names of 8 bytes (no room for padding after them), prefixes of each other, and bytes from 0x80
    const names = ['abcdefgh', 'abcdefg', 'abcdefghi', 'b', 'B', 'a b', '\u00e9t\u00e9'];
    const m = await mounted('bytes', Object.fromEntries(names.map((n, i) => [`d/${n}`, 'x'.repeat(i + 1)])));
    writeFileSync(Buffer.from(`${m.host}/d/raw\xff`, 'latin1'), 'raw');
    assert.deepEqual(m.names('d', 0), [...names.map((n) => Buffer.from(n).toString('latin1')), 'raw\xff'].sort((a, b) => Buffer.compare(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1'))));
    // each grown from outside right after the listing: the listing's size is the sign it was found
    // there (a machine too busy to get there within 90 ms gets the host's)
    const listed = performance.now();
    m.list('d');
    names.forEach((n, i) => writeFileSync(join(m.host, 'd', n), 'x'.repeat(i + 10)));
    const sizes = names.map((n) => m.stat(`d/${n}`).size);
    // (a name with a byte from 0x80 is always the host's: it checks the name is UTF-8)
    const ascii = (n) => Buffer.from(n).every((byte) => byte < 0x80);
    if (performance.now() - listed < 90) assert.deepEqual(sizes, names.map((n, i) => (ascii(n) ? i + 1 : i + 10)));
    assert.deepEqual(names.map((n) => m.stat(`d/${n}`).size), names.map((n, i) => i + 10), 'then the host\'s');
    assert.equal(m.stat('d/abcdefgh/x').errno, ERRNO.ENOTDIR);
    // raw\xff is listed as its bytes, but a STAT of them is refused, listing or not
    m.list('d');
    assert.deepEqual(m.stat(Buffer.from('d/raw\xff', 'latin1')), { errno: ERRNO.EILSEQ });
    m.dispose();
  });

  it('a listing of a directory moved away since it was opened is not kept', async () => {
    const m = await mounted('listed-moved', { 'd/a': '1' });
    assert.equal(m.request({ op: OP.OPEN, path: 'd', flags: O.DIRECTORY }), 0n);
    const handle = m.viewHandle();
    renameSync(join(m.host, 'd'), join(m.host, 'e'));
    mkdirSync(join(m.host, 'd'));
    writeFileSync(join(m.host, 'd/a'), 'four');
    assert.ok(m.request({ op: OP.READDIR, handle, ptr: 16384, len: 32768 }) > 0n);
    assert.equal(m.stat('d/a').size, 4, 'the file now at d/a, not the listing\'s');
    m.request({ op: OP.CLOSE, handle });
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
