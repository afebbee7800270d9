// Node flags that only choose V8's wasm compilers (host/compile/wasm-tiers.js): the ones a
// `spindle` Node may be started with again (cli/common/v8-start.js), and that make Node write
// nothing at its exit (cli/common/exit-status.js).
const WASM_FLAG = /^--(no-)?(liftoff|wasm[-_](dynamic[-_]tiering|tier[-_]up|inlining|lazy[-_]compilation))\b/;

/** Whether the Node argument `arg` is a wasm compiler's flag. */
export const isWasmFlag = (arg) => WASM_FLAG.test(arg);
