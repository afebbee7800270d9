// The compile hints `spindle run --browser` serves a module with in Chromium, when the page keeps
// its code between runs (docs/HOST.md, "Cached code in pages"). A page compiles lazily with
// Liftoff and V8 caches only what it tiers up while the program runs, so a short program's
// first run leaves optimized code for a few hot functions and its next runs start mostly in
// Liftoff again (own_files' second run ~2.2x Node's). A `metadata.code.compilation_priority`
// section (the WebAssembly compilation-hints proposal; V8's `--wasm-compilation-hints`, which the
// CLI gives Chromium with it) that asks for every function with an optimization priority makes
// V8 compile each one with TurboFan on its background threads as the module is compiled, and
// that code is cached as it is made: from the second run on, every function starts optimized,
// as `spindle run` in Node does with its own cache. The section is custom: an engine that does
// not know it, or has the feature off, ignores it. It must come before the code section, or a
// streaming compile has scheduled the functions before it sees the hints.
import { concat, moduleLayout, sections, uleb } from '../../host/compile/wasm-binary.js';

export const COMPILATION_PRIORITY_SECTION = 'metadata.code.compilation_priority';
// Each hint: compile with priority 0 (the first), then optimize with priority 0.
const HINT = [0, 0];
// Past this much code the first run's eager compile costs more than later runs win: SQLite's
// 1.1 MB of code made its first run's compile ~0.3 s longer (docs/HOST.md).
export const HINTED_CODE_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * `bytes` with a compilation-priority section that asks for every function it defines to be
 * optimized, placed before its code section: { bytes, inserted: { at, size } } (where the section
 * went and its length). `bytes` itself, inserted null, where the module already has such a
 * section (its own hints win), has no code, more than HINTED_CODE_LIMIT_BYTES of it, or is not a
 * module this reader knows (the hints are only a speed-up: the page then compiles as before).
 */
export function withOptimizeHints(bytes) {
  const as = { bytes, inserted: null };
  let list;
  let layout;
  try {
    list = sections(bytes);
    if (list.some((s) => s.id === 0 && s.name === COMPILATION_PRIORITY_SECTION)) return as;
    layout = moduleLayout(bytes, list);
  } catch {
    return as;
  }
  const code = layout.codeSection;
  if (!code || !layout.bodies.length || code.end - code.start > HINTED_CODE_LIMIT_BYTES) return as;
  const section = compilationPrioritySection(layout.importedFuncs, layout.bodies.length);
  // the code section's header starts where the section before it ends
  const before = list[list.indexOf(code) - 1];
  const at = before ? before.end : 8;
  return { bytes: concat([bytes.subarray(0, at), section, bytes.subarray(at)]), inserted: { at, size: section.length } };
}

/**
 * `text` (a trap's stack, an error) with the module offsets of its wasm frames
 * (`wasm-function[N]:0xOFF`, V8's and SpiderMonkey's) as they are in the file, where the page ran
 * the module with a section `inserted` (withOptimizeHints): what users look up is their file.
 */
export function offsetsInFile(text, inserted) {
  if (!inserted) return text;
  return text.replace(/(wasm-function\[\d+\]:0x)([0-9a-f]+)/g, (all, frame, hex) => {
    const offset = parseInt(hex, 16);
    return offset >= inserted.at + inserted.size ? `${frame}${(offset - inserted.size).toString(16)}` : all;
  });
}

/**
 * The custom section hinting functions first..first+count-1 (their indices in the function
 * space, imports first): vec(function index, byte offset 0 (the whole function), hint length,
 * compilation priority, optimization priority), indices increasing.
 */
export function compilationPrioritySection(first, count) {
  const name = new TextEncoder().encode(COMPILATION_PRIORITY_SECTION);
  const entries = [];
  for (let i = 0; i < count; i++) entries.push(...uleb(first + i), 0, ...uleb(HINT.length), ...HINT);
  const payload = [...uleb(name.length), ...name, ...uleb(count), ...entries];
  return new Uint8Array([0, ...uleb(payload.length), ...payload]);
}
