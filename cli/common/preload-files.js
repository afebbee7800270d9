// Host files for preloading (`spindle cc --preload-file`, `spindle run --preload`): parses
// HOSTPATH[@/PATH] specs, walks files and directory trees, packs them in the spindle.preload
// format (host/files/preload.js), each file read straight into its place, and appends that as
// a custom section to a linked module. What a walk meets is taken as it is, as `cp -a` does:
// symlinks stay symlinks (never followed, so dangling links and loops are fine), and every
// entry keeps its permission bits (without setuid, setgid and sticky) and its times.
import { posix } from 'node:path';
import { KIND, packPreload, PRELOAD_SECTION } from '../../host/files/preload.js';

const { appendFileSync, closeSync, existsSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, statSync } = process.getBuiltinModule('node:fs');

const NAME_MAX = 255; // runtime/include/spindle/fs.h
const PATH_MAX = 4096;

/**
 * 'HOSTPATH@/PATH' or 'HOSTPATH' (then the target is HOSTPATH itself, made absolute). The last
 * '@' splits, unless the whole spec names a host file (a name with '@' in it).
 */
export function parsePreloadSpec(spec, flag) {
  const at = existsSync(spec) ? -1 : spec.lastIndexOf('@');
  const host = at >= 0 ? spec.slice(0, at) : spec;
  let target = at >= 0 ? spec.slice(at + 1) : spec;
  if (!host) throw new Error(`${flag}=${spec}: no host path`);
  if (at < 0) {
    if (posix.normalize(spec).split('/').includes('..')) {
      throw new Error(`${flag}=${spec}: a path with '..' needs an explicit target: ${spec}@/PATH`);
    }
    target = `/${spec}`;
  }
  if (!target.startsWith('/')) throw new Error(`${flag}=${spec}: the target path '${target}' is not absolute`);
  target = posix.normalize(target).replace(/(.)\/$/, '$1');
  checkTarget(target, `${flag}=${spec}`);
  return { host, target };
}

function checkTarget(target, what) {
  if (Buffer.byteLength(target) >= PATH_MAX) throw new Error(`${what}: the target path is longer than ${PATH_MAX - 1} bytes`);
  const long = target.split('/').find((name) => Buffer.byteLength(name) > NAME_MAX);
  if (long) throw new Error(`${what}: the name '${long.slice(0, 40)}...' is longer than ${NAME_MAX} bytes`);
}

/**
 * Entries { kind, path, mode, size, times, host, link } for the specs: parents first,
 * directories walked. A spec's own path is followed if it is a symlink; what is under it is not.
 */
export function collectPreload(specs, flag) {
  const entries = [];
  const dirs = new Set(['/']);
  // Parents made only to hold a spec's target have no times (they keep the load time).
  const addDir = (path, mode, times = null) => {
    if (dirs.has(path)) return;
    addDir(posix.dirname(path), 0o755);
    dirs.add(path);
    entries.push({ kind: KIND.DIR, path, mode, size: 0, times });
  };
  const walk = (host, target, spec, follow) => {
    const what = `${flag}=${spec}`;
    checkTarget(target, what);
    let st;
    try {
      st = (follow ? statSync : lstatSync)(host, { bigint: true });
    } catch (err) {
      throw new Error(`${what}: ${host}: ${err.code === 'ENOENT' ? 'no such file or directory' : err.message}`);
    }
    const mode = Number(st.mode & 0o777n);
    const times = [st.atimeNs, st.mtimeNs, st.ctimeNs];
    if (st.isDirectory()) {
      addDir(target, mode, times);
      for (const name of readdirSync(host).sort()) walk(`${host}/${name}`, posix.join(target, name), spec, false);
    } else if (st.isFile()) {
      addDir(posix.dirname(target), 0o755);
      entries.push({ kind: KIND.FILE, path: target, mode, size: Number(st.size), times, host });
    } else if (st.isSymbolicLink()) {
      const link = readlinkSync(host, { encoding: 'buffer' });
      if (link.length >= PATH_MAX) throw new Error(`${what}: ${host}: the link's target is longer than ${PATH_MAX - 1} bytes`);
      addDir(posix.dirname(target), 0o755);
      entries.push({ kind: KIND.SYMLINK, path: target, mode: 0o777, size: link.length, times, link });
    } else {
      throw new Error(`${flag}=${spec}: ${host} is not a regular file, a directory or a symlink`);
    }
  };
  for (const spec of specs) {
    const { host, target } = parsePreloadSpec(spec, flag);
    walk(host, target, spec, true);
  }
  return entries;
}

/** The packed spindle.preload bytes of the specs; each file is read once, into its place. */
export function packPreloadFiles(specs, flag) {
  return packPreloadEntries(collectPreload(specs, flag));
}

/** The packed bytes of collected entries (their attributes as they were when collected). */
function packPreloadEntries(entries) {
  return packPreload(entries, (entry, bytes) => {
    if (entry.link) return bytes.set(entry.link);
    const fd = openSync(entry.host, 'r');
    try {
      for (let done = 0; done < bytes.length;) {
        const n = readSync(fd, bytes, done, bytes.length - done, done);
        if (n === 0) throw new Error(`${entry.host} became shorter while it was read`);
        done += n;
      }
    } finally {
      closeSync(fd);
    }
  });
}

function leb128(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/** Appends a custom section (id 0: name, payload) to a wasm file; engines ignore it when running. */
export function appendCustomSection(wasmPath, name, payload) {
  const nameBytes = Buffer.from(name);
  const body = [...leb128(nameBytes.length), ...nameBytes];
  appendFileSync(wasmPath, Buffer.from([0, ...leb128(body.length + payload.length), ...body]));
  appendFileSync(wasmPath, payload);
}

/** Collects before clang runs (bad specs fail first, and a walk reads no host atime it moved). */
export function appendPreloadSection(wasmPath, entries) {
  appendCustomSection(wasmPath, PRELOAD_SECTION, packPreloadEntries(entries));
}
