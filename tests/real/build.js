// Builds the real-program tests: each third-party library is compiled once per target (wasm with
// `spindle cc`, native with clang-22) into objects under build/real/obj/, then a test program is
// linked against them, for wasm once per set of `spindle cc` runtime flags (--malloc, --fs are
// link-time choices, so the library objects are shared).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestMtime } from '../../cli/build/runtime-lib.js';
import { exec, inParallel } from '../lib/exec.js';
import { realDir, root, sourceTree } from './sources.js';

export const spindle = join(root, 'bin', 'spindle');
export const nativeCc = 'clang-22';

// How each library is built. `defines` are the flags a port needs (docs/PORTING.md explains them).
export const libraries = {
  sqlite: {
    sources: (tree) => [join(tree, 'sqlite3', 'sqlite3.c')],
    include: (tree) => join(tree, 'sqlite3'),
    defines: [
      '-DSQLITE_THREADSAFE=1', // WASI builds default to 0: no mutexes, a silent race for threaded programs
      '-DSQLITE_OMIT_LOAD_EXTENSION', // SQLite sets it on WASI (no dlopen); natively too, so both match
    ],
  },
  zstd: {
    sources: (tree) => ['common', 'compress', 'decompress'].flatMap((dir) => {
      const d = join(tree, 'zstd', 'lib', dir);
      return readdirSync(d).filter((f) => f.endsWith('.c')).sort().map((f) => join(d, f));
    }),
    include: (tree) => join(tree, 'zstd', 'lib'),
    defines: [
      '-DZSTD_MULTITHREAD', // worker threads (ZSTD_c_nbWorkers); off by default in the library
      '-DZSTD_DISABLE_ASM', // the x86-64 Huffman decoder is assembly; both builds use the C one
    ],
  },
  lua: {
    sources: (tree) => {
      const d = join(tree, 'lua-5.4.9');
      return readdirSync(d).filter((f) => f.endsWith('.c') && f !== 'lua.c' && f !== 'luac.c').sort().map((f) => join(d, f));
    },
    include: (tree) => join(tree, 'lua-5.4.9'),
    defines: [
      '-D_WASI_EMULATED_SIGNAL', // lstate.h includes <signal.h> for sig_atomic_t; nothing calls signal()
    ],
    link: ['-lm'],
  },
  zlib: {
    sources: (tree) => {
      const d = join(tree, 'src', 'zlib');
      return readdirSync(d).filter((f) => f.endsWith('.c')).sort().map((f) => join(d, f));
    },
    include: (tree) => join(tree, 'src', 'zlib'),
    defines: [
      '-DHAVE_UNISTD_H', // what zlib's configure writes into zconf.h on POSIX systems (gz*.c call close/read/write)
    ],
  },
};

// Our test program for each library (tests/real/).
const programs = {
  sqlite: join(root, 'tests', 'real', 'sqlite_threads.c'),
  zstd: join(root, 'tests', 'real', 'zstd_roundtrip.c'),
  lua: join(root, 'tests', 'real', 'lua_run.c'),
};

// The SQLite VFS the tests, benchmarks and examples open databases with: `unix`, POSIX record
// locks (fcntl F_SETLK, runtime/posix-ipc). `--fs=js` has no record locks, so there SQLite uses
// `unix-dotfile`, which locks by creating a directory next to the database (mkdir is atomic).
export const SQLITE_VFS = 'unix';
export const sqliteVfsFor = (spindleFlags) => (spindleFlags.includes('--fs=js') ? 'unix-dotfile' : SQLITE_VFS);

/** A build error that means the toolchain cannot compile setjmp/longjmp yet (Lua needs them). */
export function isSetjmpUnsupported(err) {
  return /setjmp\/longjmp support requires exception handling/i.test(String(err?.message ?? err));
}

// The runtime's sources and spindle cc's own code (its post-link passes: the stack check) are
// inputs of every wasm link; a module linked before they changed would be tested and measured stale.
export function toolchainChangedSince(out) {
  const linked = statSync(out).mtimeMs;
  return [join(root, 'runtime'), join(root, 'cli')].some((dir) => newestMtime(dir) > linked);
}

export function newerThan(out, inputs) {
  if (!existsSync(out)) return false;
  const t = statSync(out).mtimeMs;
  return inputs.every((f) => statSync(f).mtimeMs <= t);
}

export async function run(cmd, args, what, { cwd, env } = {}) {
  const r = await exec(cmd, args, { cwd, env, timeoutMs: 15 * 60 * 1000 });
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}):\n${(r.stderr || r.stdout).slice(-3000)}`);
}

function compileArgs(target) {
  return target === 'wasm' ? [spindle, ['cc', '-O2']] : [nativeCc, ['-O2', '-pthread']];
}

/** The objects of library `key` for `target` ('wasm' or 'native'), compiled when missing or stale. */
export async function libraryObjects(key, target, { jobs = 2 } = {}) {
  const lib = libraries[key];
  const tree = sourceTree(key);
  const dir = join(realDir, 'obj', target, key);
  mkdirSync(dir, { recursive: true });
  const [cmd, base] = compileArgs(target);
  return inParallel(lib.sources(tree), jobs, async (src) => {
    const tag = createHash('sha256').update(`${src}\0${lib.defines.join('\0')}`).digest('hex').slice(0, 8);
    const out = join(dir, `${src.split('/').pop().replace(/\.c$/, '')}-${tag}.o`);
    if (newerThan(out, [src])) return out;
    await run(cmd, [...base, ...lib.defines, `-I${lib.include(tree)}`, '-c', src, '-o', `${out}.${process.pid}.tmp`], `compiling ${src} for ${target}`);
    // a build cut short leaves no object that looks complete; the pid lets two processes build at once
    renameSync(`${out}.${process.pid}.tmp`, out);
    return out;
  });
}

/**
 * Links a program against library `key` for `target`: our test program for it unless `source`
 * names another (an example's); `ccFlags` are extra `spindle cc` flags for wasm (e.g.
 * ['--malloc=dlmalloc']), `id` names the variant. Returns the binary's path.
 */
export async function buildProgram(key, { target = 'wasm', ccFlags = [], id = target, source = programs[key] } = {}) {
  const objects = await libraryObjects(key, target);
  const src = source;
  const name = source === programs[key] ? key : source.split('/').pop().replace(/\.c$/, '');
  const out = join(realDir, 'bin', `${name}-${id}.${target === 'wasm' ? 'wasm' : 'native'}`);
  mkdirSync(join(realDir, 'bin'), { recursive: true });
  if (newerThan(out, [src, ...objects]) && (target === 'native' || !toolchainChangedSince(out))) return out;
  const [cmd, base] = compileArgs(target);
  const include = `-I${libraries[key].include(sourceTree(key))}`;
  const link = libraries[key].link ?? [];
  await run(cmd, [...base, ...ccFlags, include, src, ...objects, ...link, '-o', `${out}.${process.pid}.tmp`], `linking ${key} (${id})`);
  renameSync(`${out}.${process.pid}.tmp`, out);
  return out;
}
