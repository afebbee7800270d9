// Builds real command-line tools unpatched, for tests/real-tools.test.js: pigz 2.8 through its own
// Makefile (CC, CFLAGS and LIBS given on make's command line, as a packager would) against zlib
// 1.3.1's objects, and ripgrep 15.1.0 through cargo with the Cargo.lock it was released with. Each
// is built once per target ('wasm': `spindle cc` / `spindle cargo`; 'native': clang-22 / cargo)
// and kept under build/real/tools/.
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { libraries, libraryObjects, nativeCc, newerThan, run, spindle, toolchainChangedSince } from './build.js';
import { realDir, sourceTree } from './sources.js';

const toolsDir = join(realDir, 'tools');

/** pigz for `target`, made in a copy of its tree (make builds in place). Returns the binary's path. */
export async function buildPigz(target) {
  const zlib = await libraryObjects('zlib', target);
  const made = join(toolsDir, target, 'pigz');
  const binary = join(made, 'pigz');
  if (newerThan(binary, zlib) && (target === 'native' || !toolchainChangedSince(binary))) return binary;
  // made beside and renamed into place, so a build cut short never looks finished
  const staging = `${made}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(toolsDir, target), { recursive: true });
  cpSync(sourceTree('pigz'), staging, { recursive: true });
  const cc = target === 'wasm' ? `${spindle} cc` : nativeCc;
  const include = libraries.zlib.include(sourceTree('zlib'));
  await run('make', ['-C', staging, '-j2', `CC=${cc}`, `CFLAGS=-O2 -I${include}`, `LIBS=-lm -lpthread ${zlib.join(' ')}`, 'pigz'],
    `making pigz for ${target}`);
  rmSync(made, { recursive: true, force: true });
  renameSync(staging, made);
  return binary;
}

/** rg for `target`; cargo keeps its own target directory up to date. Returns the binary's path. */
export async function buildRipgrep(target) {
  const tree = sourceTree('ripgrep');
  const targetDir = join(toolsDir, target, 'ripgrep');
  const env = { ...process.env, CARGO_TARGET_DIR: targetDir };
  const cargo = target === 'wasm' ? [spindle, ['cargo']] : ['cargo', []];
  await run(cargo[0], [...cargo[1], 'build', '--release', '--locked', '--quiet'], `building ripgrep for ${target}`, { cwd: tree, env });
  const binary = target === 'wasm' ? join(targetDir, 'wasm32-wasip1-threads', 'release', 'rg.wasm') : join(targetDir, 'release', 'rg');
  if (!existsSync(binary)) throw new Error(`cargo built ripgrep for ${target} but ${binary} is missing`);
  return binary;
}
