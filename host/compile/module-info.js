// What the host learns about a module: from its bytes, what JavaScript cannot ask a compiled
// module (the limits of its imported memory: WebAssembly.Module.imports() names the memory but
// not its size; its custom sections without a copy), and which parts of the runtime it linked.

/** Whether a compiled module imports spindle.`name`, i.e. links the part of the runtime that calls it. */
export function importsFromSpindle(module, name) {
  return WebAssembly.Module.imports(module).some((i) => i.module === 'spindle' && i.name === name);
}

/** True if the module was linked `spindle cc --as-root` (cli/build/cc.js exports the flag's symbol then). */
export function linkedAsRoot(module) {
  return WebAssembly.Module.exports(module).some((e) => e.name === 'spindle_link_as_root');
}

/** True if the module was built with `spindle cc --fs=js` (runtime/jsfs imports this). */
export function usesJsFs(module) {
  return importsFromSpindle(module, 'jsfs_host_thread_wait');
}

function reader(bytes) {
  let pos = 0;
  const r = {
    get pos() { return pos; },
    set pos(p) { pos = p; },
    byte() {
      if (pos >= bytes.length) throw new Error('truncated wasm module');
      return bytes[pos++];
    },
    u32() {
      let result = 0; let shift = 0; let b;
      do { b = r.byte(); result += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
      return result;
    },
    name() { const len = r.u32(); const s = new TextDecoder().decode(bytes.subarray(pos, pos + len)); pos += len; return s; },
  };
  return r;
}

/** Returns { module, name, initial, maximum, shared } of the imported memory, or null. */
export function importedMemory(bytes) {
  bytes = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error('not a WebAssembly module (bad magic)');
  }
  const r = reader(bytes);
  r.pos = 8;
  while (r.pos < bytes.length) {
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    if (id === 2) {
      for (let count = r.u32(); count > 0; count--) {
        const module = r.name();
        const name = r.name();
        const kind = r.byte();
        if (kind === 0) r.u32();                              // function: type index
        else if (kind === 1) { r.byte(); const f = r.byte(); r.u32(); if (f & 1) r.u32(); } // table
        else if (kind === 3) { r.byte(); r.byte(); }          // global: type, mutability
        else if (kind === 4) { r.byte(); r.u32(); }           // tag
        else if (kind === 2) {
          const flags = r.byte();
          const initial = r.u32();
          const maximum = flags & 1 ? r.u32() : undefined;
          return { module, name, initial, maximum, shared: Boolean(flags & 2) };
        } else throw new Error(`unknown import kind ${kind}`);
      }
      return null;
    }
    r.pos = end;
  }
  return null;
}

/**
 * Each section of a module, in order: { id, name (custom sections only), start (its id byte),
 * payload (where its content starts), end }.
 */
export function* sections(bytes) {
  const r = reader(bytes);
  r.pos = 8;
  while (r.pos < bytes.length) {
    const start = r.pos;
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    const name = id === 0 ? r.name() : undefined;
    yield { id, name, start, payload: r.pos, end };
    r.pos = end;
  }
}

/**
 * The payload of the first custom section named `name`, as a view of `bytes` (no copy, unlike
 * WebAssembly.Module.customSections), or null.
 */
export function customSection(bytes, name) {
  for (const s of sections(bytes)) {
    if (s.id === 0 && s.name === name) return bytes.subarray(s.payload, s.end);
  }
  return null;
}

/** Bytes of the code section's payload (the functions' bodies), 0 when there is none. */
export function codeSectionSize(bytes) {
  for (const s of sections(bytes)) if (s.id === 10) return s.end - s.payload;
  return 0;
}
