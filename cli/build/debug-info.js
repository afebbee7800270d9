// Whether a clang command line asks for debug info: -g in any form, unless a later -g0 turns it
// off again, as in clang. The lean-output strip and the stack-check pass both follow it.
export function wantsDebugInfo(clangArgs = []) {
  const g = clangArgs.filter((a) => /^-g/.test(a) && !a.startsWith('-gen'));
  return g.length > 0 && g[g.length - 1] !== '-g0';
}
