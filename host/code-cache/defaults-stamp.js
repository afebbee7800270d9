// TurboFan's code for a Node that runs V8's default wasm compilers (docs/HOST.md, "Compiled-code
// cache"). V8 stamps serialized wasm code with a hash of the process's V8 flags and refuses code
// stamped under others. A Node with V8's defaults never compiles a function with TurboFan up
// front (Liftoff first, then only hot functions), and flags cannot change while it runs, so the
// code is made by a Node started with TURBOFAN_FLAGS (host/code-cache/make-turbofan-code.js) and
// stamped with the defaults' hash, which a Node with V8's defaults reads from code of its own
// (defaultsStamp; the stamp is its own, whatever other flags it was started with). The flags that differ choose how a function is compiled, not how its code
// runs: the code is the same TurboFan code a Node with V8's defaults makes of a hot function.

/** The flags of a Node that compiles every function with TurboFan before the module runs. */
export const TURBOFAN_FLAGS = ['--no-liftoff', '--no-wasm-dynamic-tiering', '--no-wasm-lazy-compilation'];

// V8's header of serialized wasm code (wasm-serialization.cc): four words, magic, V8's version
// hash, the CPU's features, the flags' hash (Node 24's and 26's V8 add a fifth, the enabled wasm
// features, which no flag here changes and V8 checks itself). Only the flags' hash may differ.
const FLAG_HASH = [12, 16];
const HEADER_BYTES = 16;

/**
 * The cache setting (part of the key) of TurboFan code stamped for a Node whose wasm compilers are
 * V8's defaults. Its other flags are left out: V8 checks the stamp, and a file stamped for
 * other flags is refused, removed and made again (host/code-cache/compile-cached.js), which only
 * a module run under two sets of flags by turns pays.
 */
export const stampedSetting = () => `${process.version} ${process.arch} TurboFan code from ${TURBOFAN_FLAGS.join(' ')}, stamped for V8's defaults`;

// A function that loops `n` times: called until V8 has tiered it up, the smallest module that
// serializes (V8 writes nothing for a module without TurboFan code).
const LOOP = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0,
  7, 5, 1, 1, 102, 0, 0, 10, 27, 1, 25, 1, 1, 127, 3, 64, 32, 1, 32, 0, 106, 33, 1, 32, 0, 65, 1,
  107, 34, 0, 13, 0, 11, 32, 1, 11]);

/**
 * The header V8 writes in this process (V8's default wasm compilers): a loop tiered up and its code
 * serialized by `addon` (host/code-cache/addon.js); 2-5 ms. Null where V8 did not tier it up
 * within a second.
 */
export async function defaultsStamp(addon) {
  const module = new WebAssembly.Module(LOOP);
  const loop = new WebAssembly.Instance(module).exports.f;
  const until = Date.now() + 1000;
  while (Date.now() < until) {
    for (let i = 0; i < 10; i++) loop(100000);
    const code = addon.serialize(module);
    if (code) return Buffer.from(code.subarray(0, HEADER_BYTES));
    await new Promise((next) => setTimeout(next, 0)); // V8 tiers up on a background thread
  }
  return null;
}

/**
 * `code` (serialized here, under TURBOFAN_FLAGS) stamped with `stamp` (defaultsStamp's header),
 * or null where the headers differ in more than the flags' hash (another V8 or CPU).
 */
export function restamp(code, stamp) {
  if (stamp.length !== HEADER_BYTES || code.length <= HEADER_BYTES) return null;
  for (let i = 0; i < HEADER_BYTES; i++) {
    if ((i < FLAG_HASH[0] || i >= FLAG_HASH[1]) && code[i] !== stamp[i]) return null;
  }
  const stamped = Buffer.from(code);
  stamp.copy(stamped, FLAG_HASH[0], FLAG_HASH[0], FLAG_HASH[1]);
  return stamped;
}
