// Builds Spindle's runtime components (runtime/<component>/*.c) into wasm archives on demand,
// cached under .toolchain/runtime and rebuilt when a source or public header changes.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clang, llvmAr, root, sysroot, target, toolchainDir } from './toolchain.js';

const run = promisify(execFile);
const runtimeDir = join(root, 'runtime');
const outDir = join(toolchainDir, 'runtime');

export const runtimeCflags = ['-O2', '-std=c11', '-Wall', '-Wextra', '-Werror', '-I', join(runtimeDir, 'include')];

function newestMtime(dir) {
  if (!existsSync(dir)) return 0;
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

async function inBatches(items, size, fn) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/** Returns the path of libspindle-<component>.a, building it if it is missing or stale. */
export async function componentArchive(component) {
  const srcDir = join(runtimeDir, component);
  const sources = existsSync(srcDir) ? readdirSync(srcDir).filter((f) => f.endsWith('.c')) : [];
  if (sources.length === 0) throw new Error(`runtime component '${component}' has no sources in ${srcDir}`);
  const archive = join(outDir, `libspindle-${component}.a`);
  const inputsChanged = Math.max(newestMtime(srcDir), newestMtime(join(runtimeDir, 'include')));
  if (existsSync(archive) && statSync(archive).mtimeMs >= inputsChanged) return archive;

  // Build in a private folder and rename into place, so parallel `make -j` links never see a
  // half-written archive.
  const work = join(outDir, `${component}.${process.pid}.tmp`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const objects = sources.map((src) => join(work, src.replace(/\.c$/, '.o')));
  await inBatches(sources.map((src, i) => [src, objects[i]]), availableParallelism(), ([src, obj]) =>
    run(clang, [`--target=${target}`, `--sysroot=${sysroot}`, '-pthread', ...runtimeCflags,
      '-isystem', join(runtimeDir, 'include', 'posix'), // the POSIX layer's declarations (docs/POSIX.md)
      '-c', join(srcDir, src), '-o', obj]).catch((err) => {
      throw new Error(`building runtime/${component}/${src} failed:\n${err.stderr || err.message}`);
    }));
  await run(llvmAr, ['crs', join(work, 'lib.a'), ...objects]);
  renameSync(join(work, 'lib.a'), archive);
  rmSync(work, { recursive: true, force: true });
  return archive;
}
