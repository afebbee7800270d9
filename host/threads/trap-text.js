// A trap reads the same in every engine: SpiderMonkey (Firefox) and JavaScriptCore (WebKit) word
// their wasm traps and write their stack frames differently from V8 (Node, Chromium), so their
// messages are mapped to V8's and their frames to V8's `at NAME (...)` form before the program's
// end reports them.

// SpiderMonkey's and JavaScriptCore's RuntimeError messages -> V8's words for the same trap.
const v8Words = new Map([
  ['unreachable executed', 'unreachable'],
  ['index out of bounds', 'memory access out of bounds'],
  ['integer divide by zero', 'divide by zero'],
  ['integer overflow', 'divide result unrepresentable'],
  ['invalid conversion to integer', 'float unrepresentable in integer range'],
  ['indirect call to null', 'null function or function signature mismatch'],
  ['indirect call signature mismatch', 'null function or function signature mismatch'],
  ['unaligned memory access', 'operation does not support unaligned accesses'],
  // JavaScriptCore (WebKitGTK 2.50)
  ['Unreachable code should not be executed', 'unreachable'],
  ['Out of bounds memory access', 'memory access out of bounds'],
  ['Division by zero', 'divide by zero'],
  ['Integer overflow', 'divide result unrepresentable'],
  ['Out of bounds Trunc operation', 'float unrepresentable in integer range'],
  ['call_indirect to a null table entry', 'null function or function signature mismatch'],
  ['call_indirect to a signature that does not match', 'null function or function signature mismatch'],
  ['Out of bounds call_indirect', 'table index is out of bounds'],
  ['Out of bounds table access', 'table index is out of bounds'],
  ['Unaligned memory access', 'operation does not support unaligned accesses'],
]);

// JavaScriptCore adds the JS call the trap came through: `... (evaluating 'body()')`.
const jscCallSuffix = / \(evaluating '.*'\)$/s;

/**
 * Whether `err` is the engine's "the call stack is exhausted" (V8's RangeError, SpiderMonkey's
 * InternalError, JavaScriptCore's RangeError with a full stop or its wasm "Stack overflow").
 */
function isStackExhausted(err) {
  return err instanceof Error && /^(Maximum call stack size exceeded\.?|too much recursion|Stack overflow)$/.test(err.message.replace(jscCallSuffix, ''));
}

/** The text after `trap: ` for a wasm trap or an exhausted call stack; null for anything else. */
export function trapWords(err) {
  if (isStackExhausted(err)) return 'call stack exhausted';
  if (!(err instanceof WebAssembly.RuntimeError)) return null;
  const message = err.message.replace(jscCallSuffix, '');
  return v8Words.get(message) ?? message;
}

// SpiderMonkey's wasm frame: `NAME@URL:wasm-function[N]:0xOFF` (NAME empty without a name section).
const spiderMonkeyFrame = /^([^@]*)@.*:(wasm-function\[\d+\]:0x[0-9a-f]+)$/;
// JavaScriptCore's: `NAME@MODULE:wasm-function[N]` (MODULE `<?>` and NAME the index N without
// names); V8 and SpiderMonkey name a function MODULE.NAME.
const jscFrame = /^([^@]*)@([^:]*):(wasm-function\[(\d+)\])$/;

/**
 * The wasm frames of `stack`, each as V8 writes it: `at NAME (LOCATION)` with a name, else
 * `at LOCATION`. A SpiderMonkey frame's location keeps only `wasm-function[N]:0xOFF`: its URL
 * is the page's, and says nothing about the module; a JavaScriptCore frame has no offset.
 */
export function wasmFrames(stack) {
  return String(stack ?? '').split('\n').map((line) => line.trim()).filter((l) => l.includes('wasm-function') || l.includes('.wasm'))
    .map((line) => {
      const m = spiderMonkeyFrame.exec(line);
      if (m) return m[1] ? `at ${m[1]} (${m[2]})` : `at ${m[2]}`;
      const j = jscFrame.exec(line);
      if (!j) return line;
      const [, name, module, location, index] = j;
      if (!name || name === index) return `at ${location}`;
      return `at ${module === '<?>' ? '' : `${module}.`}${name} (${location})`;
    });
}

// spindle cc drops the names unless asked: then say how to get them.
function trapStack(stack) {
  const frames = wasmFrames(stack);
  if (!frames.length) return '';
  const named = frames.some((l) => /^at \S+ \(/.test(l));
  const hint = named ? '' : '\n    (no function names: build with spindle cc --keep-names or -g)';
  return `\n${frames.slice(0, 12).map((l) => `    ${l}`).join('\n')}${hint}`;
}

/**
 * What a thread's trap report ({ tid, message, stack }) says after `spindle: `: the thread, the
 * trap and its wasm frames (function names come from the module's name section), so a trap says
 * where it happened.
 */
export function trapReport({ tid, message, stack }) {
  return `thread ${tid === 0 ? 'main' : tid}: ${message}${trapStack(stack)}`;
}
