// Builds Spindle's runtime components (runtime/<component>/*.c) into wasm archives on demand,
// cached under .toolchain/runtime and rebuilt when a source or public header changes.
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clang, llvmAr, root, sysroot, target, toolchainDir } from '../common/toolchain.js';

const { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } = process.getBuiltinModule('node:fs');

const run = promisify(execFile);
const runtimeDir = join(root, 'runtime');
const outDir = join(toolchainDir, 'runtime');

export const runtimeCflags = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-I', join(runtimeDir, 'include')];

export function newestMtime(dir) {
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

// Built for size (-Oz) unless listed here: most of the runtime's bytes are start-up, namespace
// changes, directory listing, renames, preloading and mounts (whose cost is the round trip to
// their backend), and little of its time. The per-call paths of the file system and the WASI
// layer lose nothing measurable at -Os; malloc/free's fast paths lost 12% at -Os, so they stay
// -O2 (their files' cold functions are marked to be built for size), as do memcmp and the path
// resolver of runtime/core; the rest of core runs once per thread or per memory growth
// (docs/TOOLCHAIN.md, "Output size").
const optimizedFor = {
  alloc: { 'malloc_api.c': '-O2', 'thread_heap.c': '-O2' },
  core: { 'memcmp.c': '-O2', 'working_directory.c': '-O2' },
  jsfs: 'all',
  fs: { 'ops/ops_io.c': '-Os', 'core/mem_file.c': '-Os', 'core/file_data.c': '-Os', 'core/fd_table.c': '-Os', 'core/path.c': '-Os' },
  wasi: { 'wasi_fd_calls.c': '-Os', 'wasi_support.c': '-Os' },
};

// runtime/portable ends a pthread_exit with longjmp (thread_exit.c): clang's Wasm setjmp lowering.
// SPINDLE_PORTABLE: runtime/include/spindle/host_imports.h gives it prototypes to define, not imports.
const extraFlags = { portable: ['-mllvm', '-wasm-enable-sjlj', '-DSPINDLE_PORTABLE'] };

export function optimizationFlag(component, source) {
  const chosen = optimizedFor[component];
  return chosen === 'all' ? '-O2' : chosen?.[source] ?? '-Oz';
}

/** Returns the path of libspindle-<component>.a, building it if it is missing or stale. */
export async function componentArchive(component) {
  const srcDir = join(runtimeDir, component);
  // paths relative to srcDir: runtime/fs keeps its layers in subfolders (docs/FILESYSTEM.md)
  const sources = existsSync(srcDir) ? readdirSync(srcDir, { recursive: true }).filter((f) => f.endsWith('.c')).sort() : [];
  if (sources.length === 0) throw new Error(`runtime component '${component}' has no sources in ${srcDir}`);
  const archive = join(outDir, `libspindle-${component}.a`);
  // This file is an input too: it holds the flags.
  const inputsChanged = Math.max(newestMtime(srcDir), newestMtime(join(runtimeDir, 'include')), statSync(import.meta.filename).mtimeMs);
  if (existsSync(archive) && statSync(archive).mtimeMs >= inputsChanged) return archive;

  // Build in a private folder and rename into place, so parallel `make -j` links never see a
  // half-written archive.
  const work = join(outDir, `${component}.${process.pid}.tmp`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const objects = sources.map((src) => join(work, src.replace(/\.c$/, '.o').replaceAll('/', '-')));
  await inBatches(sources.map((src, i) => [src, objects[i]]), availableParallelism(), ([src, obj]) =>
    run(clang, [`--target=${target}`, `--sysroot=${sysroot}`, '-pthread', optimizationFlag(component, src), ...(extraFlags[component] ?? []), ...runtimeCflags,
      '-isystem', join(runtimeDir, 'include', 'posix'), // the POSIX layer's declarations (docs/POSIX.md)
      '-c', join(srcDir, src), '-o', obj]).catch((err) => {
      throw new Error(`building runtime/${component}/${src} failed:\n${err.stderr || err.message}`);
    }));
  await run(llvmAr, ['crs', join(work, 'lib.a'), ...objects]);
  renameSync(join(work, 'lib.a'), archive);
  rmSync(work, { recursive: true, force: true });
  return archive;
}
