// Builds the napi-rs addon tests/napi/addon: `default` the way napi-rs builds wasm32-wasip1-threads
// packages (plain cargo; napi-build's link flags, emnapi's C part from the `emnapi` npm package),
// `spindle` by `spindle cargo --host=wasi` (docs/NAPI.md). Shared by tests/napi.test.js and bench/napi.
import { join } from 'node:path';
import { rustToolchain } from '../../cli/common/toolchain.js';
import { exec } from '../lib/exec.js';

const root = join(import.meta.dirname, '..', '..');
const crate = join(root, 'tests', 'napi', 'addon');
const spindle = join(root, 'bin', 'spindle');
const commands = {
  default: ['cargo', ['build', '--release', '--locked', '--target', 'wasm32-wasip1-threads']],
  // napi-rs's loaders give a memory of up to 4 GiB: the module must declare that maximum.
  spindle: [process.execPath, [spindle, 'cargo', '--host=wasi', '--max-memory=4GiB', 'build', '--release', '--locked']],
};

/**
 * Builds `variant` ('default' or 'spindle') under build/napi/VARIANT, one cargo target folder
 * for the tests and the bench (cargo rebuilds only what changed, and locks the folder while
 * building), so CI builds each variant once; gives back the addon's path.
 */
export async function buildAddon(variant) {
  const targetDir = join(root, 'build', 'napi', variant);
  const [cmd, args] = commands[variant];
  const env = {
    ...process.env,
    CARGO_TARGET_DIR: targetDir,
    RUSTUP_TOOLCHAIN: process.env.RUSTUP_TOOLCHAIN || rustToolchain,
    // napi-build links emnapi's threaded C library from here.
    EMNAPI_LINK_DIR: join(root, 'node_modules', 'emnapi', 'lib', 'wasm32-wasip1-threads'),
  };
  const r = await exec('bash', ['-c', 'cd "$0" && exec "$@"', crate, cmd, ...args], { env, timeoutMs: 15 * 60 * 1000 });
  if (r.code !== 0) throw new Error(`${variant} build of tests/napi/addon failed (exit ${r.code}):\n${r.stderr.slice(-3000)}`);
  return join(targetDir, 'wasm32-wasip1-threads', 'release', 'spindle_napi_addon.wasm');
}
