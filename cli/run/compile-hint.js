// Whether a run loads the module's TurboFan code from the compiled-code cache or compiles it
// lazily (Liftoff first, V8's tier-up after), from how its last run here went. Loading the code
// costs time in proportion to its size (a hello world's 611 KB: ~7 ms of a ~60 ms run on the
// 2-core VM), which a program that runs for a millisecond never wins back; a lazy compile costs
// ~2 ms and each called function a Liftoff compile. So a run that found main short next to the
// load has the next one compile lazily, and a lazy run whose main took longer than the load
// sends the next one back to the code (docs/HOST.md, "Short programs compile lazily"). The two
// bounds differ (half the load, then the whole) so that timing noise does not flip a module
// between the two on every run. Kept in the module's `.compile` hint file
// (cli/run/hint-file.js): "LOAD_MS MODE MAIN_MS", the code's load (its compile: read, checked,
// deserialized) and the last run's main.
import { hintPath, writeHint } from './hint-file.js';

const { readFileSync } = process.getBuiltinModule('node:fs');

const FORMAT = /^(\d{1,7}\.\d) (turbofan|lazy) (\d{1,7}\.\d)$/;

/** For runs that keep no hint, or may not choose (options, flags): the code, where cached. */
export const NO_COMPILE_HINT = Object.freeze({ choice: 'turbofan', why: 'no hint', record: () => {} });

/**
 * What the last run's timings say of the next: { choice: 'turbofan' | 'lazy', why }.
 * `last`: { loadMs, mode, mainMs } (the TurboFan code's load, in the last run that loaded it;
 * how the last run compiled, and how long its main ran), or null where none is known.
 */
export function chooseCompile(last) {
  if (!last) return { choice: 'turbofan', why: 'no run here has loaded its TurboFan code yet' };
  const main = `${last.mainMs.toFixed(1)} ms`;
  const load = `${last.loadMs.toFixed(1)} ms`;
  if (last.mode === 'turbofan') {
    return last.mainMs < last.loadMs / 2
      ? { choice: 'lazy', why: `its last main took ${main}, under half the ${load} its TurboFan code took to load` }
      : { choice: 'turbofan', why: `its last main took ${main}, ${load} to load its code` };
  }
  return last.mainMs < last.loadMs
    ? { choice: 'lazy', why: `its last main took ${main} compiled lazily, under the ${load} its TurboFan code takes to load` }
    : { choice: 'turbofan', why: `its last main took ${main} compiled lazily, over the ${load} its TurboFan code takes to load` };
}

/** The hint file's text as { loadMs, mode, mainMs }, or null where it is not one. */
export function parseCompileHint(text) {
  const m = FORMAT.exec(text);
  return m ? { loadMs: Number(m[1]), mode: m[2], mainMs: Number(m[3]) } : null;
}

/**
 * The hint for module file `wasmPath` with `codeCache` as `spindle run --code-cache` gave it:
 * { choice, why } (chooseCompile) and `record({ mode, loadMs, mainMs })`, which keeps this
 * run's timings for the next: `mode` 'turbofan' where it loaded the code (`loadMs` that load),
 * 'lazy' where it compiled lazily, null for neither.
 */
export function compileHint(wasmPath, codeCache) {
  const base = hintPath(wasmPath, codeCache);
  if (!base) return NO_COMPILE_HINT;
  const file = `${base}.compile`;
  let last = null;
  try {
    last = parseCompileHint(readFileSync(file, 'latin1'));
  } catch { /* no run known */ }
  const { choice, why } = chooseCompile(last);
  return {
    choice,
    why,
    record({ mode, loadMs, mainMs }) {
      if (!Number.isFinite(mainMs) || mainMs < 0) return;
      let next;
      if (mode === 'turbofan' && Number.isFinite(loadMs) && loadMs >= 0) next = { loadMs, mode, mainMs };
      else if (mode === 'lazy' && last) next = { loadMs: last.loadMs, mode, mainMs }; // (without a load, the next run loads the code)
      else return;
      // written only where the next run would choose otherwise (a file's write costs a run its time)
      if (last && chooseCompile(next).choice === choice) return;
      writeHint(file, `${next.loadMs.toFixed(1)} ${next.mode} ${next.mainMs.toFixed(1)}`);
    },
  };
}
