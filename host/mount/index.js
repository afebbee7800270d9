// Mounts (docs/MOUNTS.md): the backend registry, the coordinator's preparation of the
// `mounts` option, and the `spindle.mount_list` / `spindle.mount_call` imports of each thread.
// A backend is { prepare(spec, ctx) -> { config, dispose?, checkModes?, servedHere? }, client(config, memory) -> call,
// checkTogether?(mounts) }: prepare runs on the coordinator before the workers start, client in
// every thread worker, and call(view, request) performs one request synchronously (writing
// result and outputs, not state); checkTogether (coordinator, after every prepare) may refuse a
// combination of its mounts ([{ path, config }]) with an Error. checkModes: the host lets every
// call through whatever the modes (a root process), so the module checks them itself (its WASI
// preopens: host/wasi/preopens.js), unless the module is root too (linked --as-root). servedHere
// (true unless a backend says false): the mount needs the coordinator's event loop while the
// program runs (workers it started and watches), so the C main must not block this thread
// (host/program/program.js).
// The folder's layers (scripts/check-layers.js): this registry on top; one folder per backend
// (hostdir/, opfs/; each starts at the file named after it), which never import each other; the
// protocol pieces they share beside them (mailbox.js, handle-table.js), which import no backend.
import { ERRNO } from '../abi/linux.js';
import { REQ, requestInMemory, setResult } from '../abi/mount-request.js';
import { importsFromSpindle, linkedAsRoot } from '../compile/module-info.js';
import { isNode } from '../platform/current.js';
import { bufferCovering } from '../platform/memory-view.js';

const registry = new Map();

/** Adds a backend kind; a mount spec selects it by its key (`hostDir` -> 'hostdir', `opfs`). */
export function registerBackend(kind, backend) { registry.set(kind, backend); }

// The built-in backends load on demand: no top-level await here, because a browser module
// worker drops the messages that arrive while its static imports are still evaluating.
let loaded = null;
/** Loads the built-in backends of this host (hostdir in Node, opfs in browsers). */
export function loadBackends() {
  loaded ??= (async () => {
    if (isNode) {
      registerBackend('hostdir', (await import('./hostdir/hostdir.js')).hostdirBackend);
    } else {
      try {
        registerBackend('opfs', (await import('./opfs/opfs.js')).opfsBackend);
      } catch { /* no OPFS backend in this build */ }
    }
  })();
  return loaded;
}

function kindOf(spec) {
  if (spec.kind) return spec.kind;
  if (spec.hostDir !== undefined) return 'hostdir';
  if (spec.opfs !== undefined) return 'opfs';
  throw new Error(`mount ${spec.path}: say what to mount (hostDir, or opfs in a browser)`);
}

/** Checks the mount points: absolute, normalized, not '/', no duplicates, none inside another. */
export function checkMountPaths(specs) {
  const seen = [];
  for (const spec of specs) {
    const p = spec.path;
    if (typeof p !== 'string' || !p.startsWith('/')) throw new Error(`mount ${p}: the mount point must be an absolute path`);
    const norm = `/${p.split('/').filter((c) => c !== '' && c !== '.').join('/')}`;
    if (norm.split('/').includes('..')) throw new Error(`mount ${p}: the mount point must not contain '..'`);
    if (norm === '/') throw new Error(`mount ${p}: cannot mount over /`);
    for (const other of seen) {
      if (other === norm) throw new Error(`mount ${p}: mounted twice`);
      if (norm.startsWith(`${other}/`) || other.startsWith(`${norm}/`)) {
        throw new Error(`mount ${p}: nested inside mount ${other} (not supported)`);
      }
    }
    seen.push(norm);
  }
  return seen;
}

/** Whether the module can take mounts (it links runtime/fs: imports spindle.mount_call). */
export function moduleTakesMounts(module) {
  return importsFromSpindle(module, 'mount_call');
}

/**
 * Coordinator: prepares every mount. Returns { list, preopens, servedHere, dispose } where list
 * (structured-cloneable) goes to every thread worker as init.mounts.
 */
export async function prepareMounts(specs = [], ctx) {
  if (!specs.length) return { list: [], dispose() {} };
  // A module without Spindle's filesystem gets each mount as a WASI preopen (host/wasi/preopens.js):
  // host directories only, in Node.
  const preopens = ctx.module && !moduleTakesMounts(ctx.module);
  if (preopens && ctx.jsfs) {
    throw new Error('mounts need a module built with the Spindle filesystem (spindle cc --fs=spindle, the default, or spindle cargo), not --fs=js');
  }
  if (preopens && specs.some((s) => s.ioWorkers)) {
    throw new Error('ioWorkers needs a module built with the Spindle filesystem (WASI preopens are served on the calling thread)');
  }
  if (preopens && !(isNode && specs.every((s) => kindOf(s) === 'hostdir'))) {
    throw new Error('a module without the Spindle filesystem (plain cargo, spindle cc --bare or --fs=none) can mount ' +
      'host directories in Node only; build it with spindle cc / spindle cargo for other mounts');
  }
  const paths = checkMountPaths(specs);
  const programIsRoot = Boolean(ctx.module) && linkedAsRoot(ctx.module);
  await loadBackends();
  const list = [];
  const disposers = [];
  let servedHere = false;
  try {
    for (let i = 0; i < specs.length; i++) {
      const kind = kindOf(specs[i]);
      const backend = registry.get(kind);
      if (!backend) throw new Error(`mount ${specs[i].path}: no '${kind}' backend on this host`);
      // mountId: the mount's handles carry it, so a handle of one mount is EBADF on another
      const prepared = await backend.prepare({ ...specs[i], path: paths[i], mountId: i }, ctx);
      if (prepared.dispose) disposers.push(prepared.dispose);
      servedHere ||= prepared.servedHere !== false;
      list.push({ kind, path: paths[i], config: prepared.config, checkModes: Boolean(prepared.checkModes) && !programIsRoot });
    }
    // checks that need every mount of a kind at once (hostdir: no two host directories overlap)
    for (const [kind, backend] of registry) backend.checkTogether?.(list.filter((m) => m.kind === kind));
  } catch (err) {
    disposers.forEach((d) => d());
    throw err;
  }
  return { list, preopens, servedHere, dispose() { disposers.forEach((d) => d()); } };
}

/** A thread's call for one prepared mount (see the backend shape above). */
export function backendClient(mount, memory) {
  return registry.get(mount.kind)?.client(mount.config, memory);
}

/** Thread worker (after `await loadBackends()`): the imports runtime/fs/mount/mount_host.c calls. */
export function mountImports(mounts = [], memory) {
  // each mount: '+' where the module checks the modes itself (the host lets everything through)
  // or '-', then its path and a NUL (runtime/fs/mount/mount_host.c)
  const encoded = new TextEncoder().encode(mounts.map((m) => `${m.checkModes ? '+' : '-'}${m.path}\0`).join(''));
  const calls = mounts.map((m) => backendClient(m, memory));
  // views of the memory, made again only when it grew (a new buffer): a call is a few microseconds
  let views = null;
  // (brought up to date where this thread's view ends before `end`: host/platform/memory-view.js)
  const viewsNow = (end) => {
    const buffer = bufferCovering(memory, end);
    if (views?.buffer !== buffer) views = { buffer, bytes: new DataView(buffer), words: new Int32Array(buffer) };
    return views;
  };
  return {
    mount_list(buf, len) {
      buf >>>= 0; // (wasm's i32 arrives signed)
      if (buf + encoded.length > bufferCovering(memory, buf + encoded.length).byteLength) return -ERRNO.EFAULT;
      if (encoded.length && encoded.length <= len) new Uint8Array(memory.buffer, buf, encoded.length).set(encoded);
      return encoded.length;
    },
    mount_call(request) {
      request >>>= 0;
      // (a request the module placed outside its memory is not touched: the call returns -EFAULT)
      const { buffer, bytes: view, words } = viewsNow(request + REQ.BYTES);
      if (!requestInMemory(buffer, request)) return -ERRNO.EFAULT;
      const call = calls[view.getInt32(request + REQ.MOUNT, true)];
      try {
        if (call) call(view, request);
        else setResult(view, request, -ERRNO.ENODEV);
      } catch {
        setResult(view, request, -ERRNO.EIO); // whatever the module sent, never an exception into it
      }
      Atomics.store(words, (request + REQ.STATE) >>> 2, 1);
      return 0;
    },
  };
}
