// `spindle cargo build|run|test|bench [options] [cargo args]`: cargo for wasm32-wasip1-threads
// with Spindle's runtime linked into every binary (cli/cargo/rust-linker.js), binaries run by
// `spindle run` (in Node, or a browser with --browser[=NAME]), and `spindle cc` as the C compiler of the
// target so C dependencies built by the `cc` crate share the same malloc and files. docs/RUST.md.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { checkMountPaths } from '../../host/mount/index.js';
import { parseArgs } from '../build/cc.js';
import { parsePreloadSpec } from '../common/preload-files.js';
import { newestMtime } from '../build/runtime-lib.js';
import { settingsArg } from './rust-linker.js';
import { parseMount, runOption } from '../run/run-options.js';
import { llvmAr, requireSetup, root, rustToolchain, target } from '../common/toolchain.js';
import { cargoUsage as usage } from './cargo-usage.js';
import { CLI_NODE_FLAGS } from '../common/v8-start.js';

const TARGET_ENV = target.toUpperCase().replace(/-/g, '_');
const TARGET_CC_ENV = target.replace(/-/g, '_');
const spindle = join(root, 'bin', 'spindle');

/** Splits Spindle's build and run options from cargo's arguments. */
export function parseCargoArgs(argv) {
  const dashDash = argv.indexOf('--');
  const ours = dashDash < 0 ? argv : argv.slice(0, dashDash);
  const programArgs = dashDash < 0 ? [] : argv.slice(dashDash);
  const runner = [];
  const rest = [];
  for (let i = 0; i < ours.length; i++) {
    const flag = ours[i].split('=')[0];
    const option = runOption(flag);
    if (!option?.cargo) { rest.push(ours[i]); continue; }
    // an option that needs a value (--mount, --preload, --pool...) also takes it as the next
    // argument, as in spindle run; --browser and --env take one only after =
    const value = ours[i].includes('=') || typeof option.kind !== 'string' || option.kind === 'switch' ? null : ours[++i];
    if (value === undefined) throw new Error(`${flag}: expected a value\n${usage}`);
    runner.push(value === null ? ours[i] : `${flag}=${value}`);
  }
  const build = parseArgs(rest);
  if (build.help) return { help: true }; // before cargo's own arguments are looked at
  const cargoArgs = build.clangArgs;
  if (!cargoArgs.some((a) => !a.startsWith('-'))) throw new Error(usage);
  // a bad mount fails now, not once per test binary
  checkMountPaths(runner.filter((arg) => arg.startsWith('--mount=')).map((arg) => parseMount(arg.slice(8))));
  for (const arg of runner) {
    if (/\s/.test(arg)) throw new Error(`${arg}: cargo splits its runner at spaces; use a path without spaces`);
  }
  // The linker runs in rustc's directory: host paths become absolute here.
  const preload = build.preload.map((spec) => {
    const { host, target: path } = parsePreloadSpec(spec, '--preload-file');
    return `${resolve(host)}@${path}`;
  });
  const settings = { malloc: build.malloc, fs: build.fs, bare: build.bare, host: build.host, maxMemory: build.maxMemory,
    initialMemory: build.initialMemory, stackSize: build.stackSize, threadStackSize: build.threadStackSize, preload,
    stackCheck: build.stackCheck, asRoot: build.asRoot, keepNames: build.keepNames,
    // Part of RUSTFLAGS, so a changed runtime makes cargo link again (it does not see the archives).
    runtimeChanged: Math.max(newestMtime(join(root, 'runtime')), newestMtime(join(root, 'cli'))) };
  return { settings, runner, cargoArgs: [...cargoArgs, ...programArgs] };
}

/** The environment that makes cargo build for Spindle and run through it. */
export function cargoEnv({ settings, runner }, env = process.env) {
  const rustflags = ['-C linker-flavor=wasm-ld', `-C link-arg=${settingsArg(settings)}`, env[`CARGO_TARGET_${TARGET_ENV}_RUSTFLAGS`]].filter(Boolean).join(' ');
  return {
    ...env,
    RUSTUP_TOOLCHAIN: env.RUSTUP_TOOLCHAIN || rustToolchain,
    CARGO_BUILD_TARGET: target,
    [`CARGO_TARGET_${TARGET_ENV}_LINKER`]: join(root, 'cli', 'cargo', 'rust-linker.js'),
    [`CARGO_TARGET_${TARGET_ENV}_RUSTFLAGS`]: rustflags,
    [`CARGO_TARGET_${TARGET_ENV}_RUNNER`]: [process.execPath, ...CLI_NODE_FLAGS, spindle, 'run', ...runner].join(' '),
    // The cc crate: C and C++ of dependencies compiled by spindle cc for the same runtime.
    [`CC_${TARGET_CC_ENV}`]: `${spindle}-cc`,
    [`CXX_${TARGET_CC_ENV}`]: `${spindle}-c++`,
    [`AR_${TARGET_CC_ENV}`]: llvmAr,
  };
}

export function cargo(argv) {
  const parsed = parseCargoArgs(argv);
  if (parsed.help) {
    process.stdout.write(usage);
    return 0;
  }
  requireSetup();
  const r = spawnSync('cargo', parsed.cargoArgs, { stdio: 'inherit', env: cargoEnv(parsed) });
  if (r.error) throw new Error(`cannot run cargo (rustup installs it): ${r.error.message}`);
  return r.status ?? 1;
}
