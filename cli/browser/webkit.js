// The WebKit Spindle can run pages in, named once: WebKitGTK's MiniBrowser (SPINDLE_WEBKIT, else
// Debian's, which comes with libwebkit2gtk-4.1-0), what its environment holds, and its version.
// WebKitGTK has no headless mode: the watchdog (cli/browser/browser-watchdog.js) starts a private Xvfb
// for it and ends it with the browser. Like Firefox's, its page reports back to the CLI's own
// server: no WebDriver.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const { mkdirSync } = process.getBuiltinModule('node:fs');

const multiarch = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' }[process.arch] ?? `${process.arch}-linux-gnu`;
export const webkitPackage = 'libwebkit2gtk-4.1-0';
export const webkitPath = process.env.SPINDLE_WEBKIT || `/usr/lib/${multiarch}/webkit2gtk-4.1/MiniBrowser`;

/**
 * JavaScriptCore's options, which it reads from JSC_* variables in every process (the page's is
 * the web process, which inherits the browser's environment):
 * - useSharedArrayBuffer: Linux WebKit keeps SharedArrayBuffer off even on a cross-origin
 *   isolated page (Safari turns it on there); without it a threaded module cannot have its
 *   shared memory at all.
 * - useWasmIPInt=false: JSC's in-place wasm interpreter (IPInt, its first tier since 2025) got
 *   setjmp/longjmp wrong in WebKitGTK 2.50: tests/programs/setjmp_longjmp failed there and
 *   passed with it off; the tier below it (the wasm LLInt) and the JITs run it right.
 */
export const jscOptions = { JSC_useSharedArrayBuffer: '1', JSC_useWasmIPInt: 'false' };

/**
 * The nearest JSC has to V8's --no-liftoff. JSC cannot run OMG (its optimizing wasm JIT) alone:
 * with no interpreter and no BBQ (its baseline JIT) it refuses to start ("INCOHERENT OPTIONS: at
 * least one of useWasmIPInt, useWasmLLInt, or useBBQJIT must be true"). So: no interpreter (each
 * function is compiled by BBQ at its first call) and OMG's tier-up thresholds at 0, so that a
 * function is recompiled by OMG at its first entry or loop check (a running loop moves into OMG
 * code by on-stack replacement): a benchmark's loops run OMG code from their first iterations.
 */
export const optimizedFromStartOptions = {
  JSC_useWasmLLInt: 'false', JSC_thresholdForOMGOptimizeAfterWarmUp: '0', JSC_thresholdForOMGOptimizeSoon: '0',
};

/**
 * The browser's environment in `profile`: its data, cache and configuration there (a fresh
 * MiniBrowser each run, nothing in the user's home), no accessibility bus, and the JSC options
 * (`extra`: more of them). A JSC_* variable already in the environment wins (to check whether
 * a newer WebKit still needs one: JSC_useWasmIPInt=true).
 */
export function webkitEnv(profile, extra = {}) {
  const dirs = { XDG_DATA_HOME: 'data', XDG_CACHE_HOME: 'cache', XDG_CONFIG_HOME: 'config' };
  for (const dir of Object.values(dirs)) mkdirSync(join(profile, dir), { recursive: true });
  const jsc = Object.entries({ ...jscOptions, ...extra }).filter(([name]) => process.env[name] === undefined);
  return {
    ...Object.fromEntries(Object.entries(dirs).map(([name, dir]) => [name, join(profile, dir)])),
    NO_AT_BRIDGE: '1', GTK_A11Y: 'none', ...Object.fromEntries(jsc),
  };
}

/**
 * Arguments of a launch: none (the start page's URL comes after them). MiniBrowser keeps its
 * defaults: WebKit's web process sandbox off (it needs bubblewrap), and navigator.storage off
 * (WebKitGTK's StorageAPI feature; with it and FileSystem and AccessHandle turned on,
 * createSyncAccessHandle still fails: "NotSupportedError: Backend does not support this operation").
 */
export const webkitArgs = () => [];

/** "WebKitGTK 2.50.6" from Debian's package, for bench's machine line; null when not known. */
export function webkitVersion() {
  if (process.env.SPINDLE_WEBKIT) return null; // not the package's
  try {
    // "libwebkit2gtk-4.1-0:amd64\t2.50.6-1~deb12u2"
    const line = execFileSync('dpkg-query', ['-W', webkitPackage], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const version = line.trim().split('\t')[1]?.replace(/-[^-]*$/, '');
    return version ? `WebKitGTK ${version}` : null;
  } catch {
    return null;
  }
}
