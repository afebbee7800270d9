// Test worker: drives host/mount/opfs/opfs-backend.js directly with requests laid out as
// docs/MOUNTS.md says (host/abi), in a shared WebAssembly.Memory, no C involved. Answers { log } or
// { error }.
import { AT, ERRNO, O } from '../../host/abi/linux.js';
import { ioHandleParts, OP, REQ } from '../../host/abi/mount-request.js';
import { readDirents, STAT } from '../../host/abi/mount-wire.js';
import { createGenerations } from '../../host/abi/opfs-generations.js';
import { OpfsBackend, mountRoot } from '../../host/mount/opfs/opfs-backend.js';
import { createOwners } from '../../host/mount/opfs/opfs-owners.js';

const AT_REQ = 1024; const PATH = 2048; const PATH2 = 3072; const DATA = 65536;
const memory = new WebAssembly.Memory({ initial: 4, maximum: 16, shared: true });
const enc = new TextEncoder();
const names = {}; // -errno -> its (first) name
for (const [name, n] of Object.entries(ERRNO)) names[-n] ??= name;

function request(op, { path = '', path2 = '', flags = 0, handle = 0n, offset = 0, ptr = DATA, len = 0 } = {}) {
  const v = new DataView(memory.buffer);
  new Uint8Array(memory.buffer, AT_REQ, REQ.BYTES).fill(0);
  const bytes = (s) => (typeof s === 'string' ? enc.encode(s) : s); // (a Uint8Array: a name that is not UTF-8)
  const p = bytes(path); const p2 = bytes(path2);
  new Uint8Array(memory.buffer, PATH, p.length).set(p);
  new Uint8Array(memory.buffer, PATH2, p2.length).set(p2);
  v.setInt32(AT_REQ + REQ.OP, op, true); v.setInt32(AT_REQ + REQ.FLAGS, flags, true);
  v.setBigUint64(AT_REQ + REQ.HANDLE, handle, true); v.setBigInt64(AT_REQ + REQ.OFFSET, BigInt(offset), true);
  v.setUint32(AT_REQ + REQ.PTR, ptr, true); v.setUint32(AT_REQ + REQ.LEN, len, true);
  v.setUint32(AT_REQ + REQ.PATH, PATH, true); v.setUint32(AT_REQ + REQ.PATH_LEN, p.length, true);
  v.setUint32(AT_REQ + REQ.PATH2, PATH2, true); v.setUint32(AT_REQ + REQ.PATH2_LEN, p2.length, true);
  return v;
}

self.onmessage = async (e) => {
  const log = [];
  try {
    const generations = createGenerations();
    const owners = createOwners();
    // a request forwarded to the worker holding its file: that backend answers it (as its ring would)
    const forward = (req, w) => backends[w].handle(new DataView(memory.buffer), req);
    const backends = [0, 1].map((w) => new OpfsBackend({ root: mountRoot(e.data.subdir), w, memory, generations, owners, forward, debug: e.data.debug }));
    // worker 0's peers: backend 1, called directly (what the MessagePorts do between workers)
    backends[0].peers = { broadcast: async (m) => (m.type === 'detach' ? backends[1].detach(m) : backends[1].settle(m)) };
    const call = async (op, args = {}, w = 0) => {
      const v = request(op, args);
      await backends[w].handle(v, AT_REQ);
      const r = v.getBigInt64(AT_REQ + REQ.RESULT, true);
      return { r: r < 0n ? (names[r] ?? String(r)) : Number(r), v };
    };
    const show = async (label, op, args, w) => { const x = await call(op, args, w); log.push(`${label}: ${x.r}`); return x; };
    const put = (text) => { const b = enc.encode(text); new Uint8Array(memory.buffer, DATA, b.length).set(b); return b.length; };
    const get = (n) => new TextDecoder().decode(new Uint8Array(memory.buffer, DATA, n).slice());
    const open = async (label, path, flags, w = 0) => {
      const x = await show(label, OP.OPEN, { path, flags }, w);
      return x.v.getBigUint64(AT_REQ + REQ.HANDLE, true);
    };
    const { RDWR: O_RDWR, CREAT: O_CREAT, EXCL: O_EXCL, TRUNC: O_TRUNC, DIRECTORY: O_DIRECTORY } = O;

    const h = await open('open create a', 'a', O_RDWR | O_CREAT);
    log.push(`handle worker: ${ioHandleParts(h).w}`);
    await show('write a', OP.PWRITE, { handle: h, len: put('hello opfs'), offset: 0 });
    await show('read a', OP.PREAD, { handle: h, len: 100, offset: 6 }); log.push(`  bytes: ${get(4)}`);
    let st = await call(OP.FSTAT, { handle: h, ptr: DATA + 4096 });
    log.push(`fstat size: ${st.v.getBigInt64(DATA + 4096 + STAT.SIZE, true)} mode: ${st.v.getUint32(DATA + 4096 + STAT.MODE, true).toString(8)}`);
    await open('open excl existing', 'a', O_RDWR | O_CREAT | O_EXCL);
    await open('open missing', 'nope', 0);
    await open('open a as directory', 'a', O_DIRECTORY);
    await open('open under a file', 'a/x', O_RDWR | O_CREAT);
    await open('open ..', '../x', 0);
    await open('open long name', 'n'.repeat(256), O_RDWR | O_CREAT);
    await open('open not UTF-8', new Uint8Array([0x62, 0x61, 0x64, 0xff]), O_RDWR | O_CREAT);
    await show('mkdir d', OP.MKDIR, { path: 'd' });
    await show('mkdir d again', OP.MKDIR, { path: 'd' });
    await show('mkdir root', OP.MKDIR, { path: '' });
    await open('open d for writing', 'd', O_RDWR);
    const hb = await open('open d/b on worker 1', 'd/b', O_RDWR | O_CREAT, 1);
    await show('write d/b', OP.PWRITE, { handle: hb, len: put('in d'), offset: 0 }, 1);
    await show('write d/b via worker 0', OP.PWRITE, { handle: hb, len: 1, offset: 0 }, 0);
    await show('rmdir d (not empty)', OP.UNLINK, { path: 'd', flags: AT.REMOVEDIR });
    await show('unlink d', OP.UNLINK, { path: 'd' });
    await show('rmdir a', OP.UNLINK, { path: 'a', flags: AT.REMOVEDIR });
    await show('stat d/b', OP.STAT, { path: 'd/b', ptr: DATA + 4096 });
    log.push(`  size: ${new DataView(memory.buffer).getBigInt64(DATA + 4096 + STAT.SIZE, true)}`);
    await show('rename d -> e (d/b open on worker 1)', OP.RENAME, { path: 'd', path2: 'e' });
    await show('stat d/b after', OP.STAT, { path: 'd/b', ptr: DATA + 4096 });
    await show('read d/b through its fd', OP.PREAD, { handle: hb, len: 100, offset: 0 }, 1); log.push(`  bytes: ${get(4)}`);
    await show('write after rename', OP.PWRITE, { handle: hb, len: put('IN'), offset: 0 }, 1);
    // e/b is open on worker 1: its second open is served there, on the same handle
    const he = await open('open e/b', 'e/b', 0);
    log.push(`  on worker: ${ioHandleParts(he).w}`);
    await show('read e/b', OP.PREAD, { handle: he, len: 100, offset: 0 }, 1); log.push(`  bytes: ${get(4)}`);
    await show('close e/b', OP.CLOSE, { handle: he }, 1);
    await show('rename a -> e/a (file, open)', OP.RENAME, { path: 'a', path2: 'e/a' });
    await show('read a after move', OP.PREAD, { handle: h, len: 100, offset: 0 }); log.push(`  bytes: ${get(10)}`);
    await show('rename e/b over e/a (both open)', OP.RENAME, { path: 'e/b', path2: 'e/a' });
    await show('read old e/a fd (replaced)', OP.PREAD, { handle: h, len: 100, offset: 0 }); log.push(`  bytes: ${get(10)}`);
    await show('unlink e/a while open', OP.UNLINK, { path: 'e/a' });
    await show('read unlinked', OP.PREAD, { handle: hb, len: 100, offset: 0 }, 1); log.push(`  bytes: ${get(4)}`);
    await show('write unlinked', OP.PWRITE, { handle: hb, len: put('!'), offset: 4 }, 1);
    st = await call(OP.FSTAT, { handle: hb, ptr: DATA + 4096 }, 1);
    log.push(`fstat unlinked: size ${st.v.getBigInt64(DATA + 4096 + STAT.SIZE, true)} nlink ${st.v.getBigUint64(DATA + 4096 + STAT.NLINK, true)}`);
    await show('open e/a after unlink', OP.OPEN, { path: 'e/a' });
    await show('close unlinked', OP.CLOSE, { handle: hb }, 1);
    await show('close twice', OP.CLOSE, { handle: hb }, 1);
    await show('close a', OP.CLOSE, { handle: h });
    await open('make f', 'f', O_RDWR | O_CREAT | O_TRUNC);
    await show('dir e over file f', OP.RENAME, { path: 'e', path2: 'f' });
    await show('file f over dir e', OP.RENAME, { path: 'f', path2: 'e' });
    await show('dir into itself', OP.RENAME, { path: 'e', path2: 'e/x' });
    await show('mkdir g/h', OP.MKDIR, { path: 'g' }); await call(OP.MKDIR, { path: 'g/h' });
    await show('dir e over non-empty g', OP.RENAME, { path: 'e', path2: 'g' });
    await show('dir e over empty g/h', OP.RENAME, { path: 'e', path2: 'g/h' });
    await show('symlink', OP.SYMLINK, { path: 'f', path2: 'l' });
    await show('link', OP.LINK, { path: 'f', path2: 'l' });
    await show('readlink f', OP.READLINK, { path: 'f', len: 100 });
    await show('utimens f', OP.UTIMENS, { path: 'f' });
    for (let i = 0; i < 40; i++) { const x = await open('', `g/h/n${i}`, O_RDWR | O_CREAT); await call(OP.CLOSE, { handle: x }); }
    log.splice(log.length - 40, 40);
    const hd = await open('open g/h', 'g/h', O_DIRECTORY);
    const seen = [];
    for (let cookie = 0; ;) {
      const x = await call(OP.READDIR, { handle: hd, offset: cookie, len: 256 });
      if (x.r === 0) break;
      for (const d of readDirents(new DataView(memory.buffer), DATA, x.r)) {
        cookie = Number(d.next);
        seen.push(`${new TextDecoder().decode(d.name)}/${d.type}`);
      }
    }
    log.push(`readdir g/h: ${seen.length} entries, ${new Set(seen).size} distinct; ${seen.filter((s) => s.startsWith('n')).length} files; dir b? ${seen.includes('b/8')}`);
    await show('readdir on a file', OP.READDIR, { handle: (await open('', 'f', 0)), len: 256 });
    // a file created by its open has no sync access handle until its first write, which is in
    // OPFS when it returns; one closed empty never gets one
    const inOpfs = async (name) => (await (await (await mountRoot(e.data.subdir)).getFileHandle(name)).getFile()).size;
    const hEmpty = await open('open new e', 'e', O_RDWR | O_CREAT | O_EXCL);
    log.push(`  e has a handle: ${Boolean(backends[0].files.get('e').sah)}`);
    await show('close e', OP.CLOSE, { handle: hEmpty });
    const hn = await open('open new n', 'n', O_RDWR | O_CREAT | O_EXCL);
    await show('write n', OP.PWRITE, { handle: hn, len: put('new'), offset: 0 });
    await show('stat n on worker 1', OP.STAT, { path: 'n', ptr: DATA + 4096 }, 1);
    log.push(`  size: ${new DataView(memory.buffer).getBigInt64(DATA + 4096 + STAT.SIZE, true)}`, `  in OPFS: ${await inOpfs('n')}`);
    await show('close n', OP.CLOSE, { handle: hn });
    log.push(`  in OPFS: ${await inOpfs('n')}`);
    const hm = await open('open new m', 'm', O_RDWR | O_CREAT | O_EXCL);
    await show('rename m -> m2 (open, in memory)', OP.RENAME, { path: 'm', path2: 'm2' });
    await show('write m2', OP.PWRITE, { handle: hm, len: put('moved'), offset: 0 });
    await show('close m2', OP.CLOSE, { handle: hm });
    log.push(`  m2 in OPFS: ${await inOpfs('m2')}`);
    await show('unlink m2', OP.UNLINK, { path: 'm2' });
    // right after a file's last close (its handle is closed before the close is answered, and its
    // path let go after that: docs/OPFS.md) it can be opened again, unlinked or renamed, from its
    // worker or another
    const hp = await open('open new p', 'p', O_RDWR | O_CREAT | O_EXCL);
    await show('write p', OP.PWRITE, { handle: hp, len: put('closed'), offset: 0 });
    await show('close p', OP.CLOSE, { handle: hp });
    const hp2 = await open('open p right after', 'p', 0);
    await show('read p', OP.PREAD, { handle: hp2, len: 100, offset: 0 }); log.push(`  bytes: ${get(6)}`);
    await show('close p again', OP.CLOSE, { handle: hp2 });
    await show('rename p -> p2 right after', OP.RENAME, { path: 'p', path2: 'p2' });
    const hq = await open('open new q on worker 1', 'q', O_RDWR | O_CREAT | O_EXCL, 1);
    await show('write q', OP.PWRITE, { handle: hq, len: put('q'), offset: 0 }, 1);
    await show('close q', OP.CLOSE, { handle: hq }, 1);
    await show('unlink q right after', OP.UNLINK, { path: 'q' });
    await open('open q after', 'q', 0);
    log.push(`  p2 in OPFS: ${await inOpfs('p2')}`);
    // A file's last close lets go of its path only once its handle is closed: a worker that took
    // the path sooner opened a second handle while this one was open, EBUSY (threads_append.c)
    const hr = await open('open r', 'r', O_RDWR | O_CREAT);
    const sah = backends[0].files.get('r').sah;
    const closeHandle = sah.close.bind(sah);
    let heldWhileClosing = null;
    sah.close = () => { heldWhileClosing = backends[0].owners.holderOf('r') === 0; closeHandle(); };
    await show('close r', OP.CLOSE, { handle: hr });
    log.push(`  r held while its handle closed: ${heldWhileClosing}`, `  r held after: ${backends[0].owners.holderOf('r') >= 0}`);
    self.postMessage({ log });
  } catch (err) {
    self.postMessage({ error: `${err.stack}`, log });
  }
};
