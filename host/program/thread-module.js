// The module a pthread's worker instantiates. Where the program runs Liftoff code (compiled
// lazily, tiered up by V8 as it runs: a first run, or no cached code), each worker compiles a
// module of its own from the program's bytes; else it takes the program's module.
// Why: V8 keeps one tier-up budget per function in each compiled module (its NativeModule),
// shared by every instance of that module in the process, and Liftoff code lowers it at every
// call and loop iteration. So threads running the same Liftoff code write the same cache lines
// all the time, and a loop entered in Liftoff stays there until it ends (V8 replaces no running
// frame): the malloc ring's two threads, started together on a module's first run, each ran
// ~2.4x slower than one thread alone (docs/HOST.md, "Thirteenth pass"). A module of its own
// has budgets of its own. V8 shares one compiled module between equal bytes, so each worker's
// copy ends with a custom section naming its slot (the same in every run: a trap's trace names
// the module by a hash of its bytes, which then differs from main's but not between runs).
import { uleb } from '../compile/wasm-binary.js';

const SECTION_NAME = new TextEncoder().encode('spindle.thread');

/**
 * The module for a worker's thread: `init.module`, or, where `init.moduleBytes` (a shared copy
 * of the program's bytes) is given, a module compiled here from those bytes and the worker's slot.
 */
export function threadModule(init) {
  if (!init.moduleBytes) return init.module;
  const tag = new TextEncoder().encode(String(init.slot));
  const payload = [...uleb(SECTION_NAME.length), ...SECTION_NAME, ...tag];
  const section = [0, ...uleb(payload.length), ...payload];
  const bytes = new Uint8Array(init.moduleBytes.length + section.length);
  bytes.set(init.moduleBytes);
  bytes.set(section, init.moduleBytes.length);
  return new WebAssembly.Module(bytes);
}
