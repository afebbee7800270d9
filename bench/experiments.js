// What `spindle bench` measures. An experiment is one program run at each thread count; its
// variants are builds of it (wasm with some `spindle cc` flags, or native), each run on some
// hosts. Every variant of an experiment runs in the same session, interleaved, so ratios compare
// like with like. Programs print one `RESULT {json}` line with at least "ms". An experiment with
// `suite` instead runs its own interleaved runs on its `host` and returns them (cli/bench/bench.js).
// `key: true` puts an experiment in the default run (the main job); a variant with `fullOnly`
// runs only with --full. `sweep: true` marks the thread-scaling experiments: with --full they
// run at 1, 2, 4, 8 and 16 threads (cli/bench/bench.js), whatever the machine's cores.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ioExperiments } from './io/suites.js';
import { napiExperiments } from './napi/suite.js';
import { pageCacheExperiments } from './page-cache/suite.js';
import { realExperiments } from './real/suites.js';
import { rustExperiments } from './rust/suites.js';
import { startupExperiments } from './startup/suite.js';

const wasm = (id, ccFlags, label = id) => ({ id, label, kind: 'wasm', ccFlags });
const native = (id, libs = [], label = id, env = {}) => ({ id, label, kind: 'native', libs, env });
// Native file benchmarks run in a tmpfs directory: the fair "files in memory" reference.
const tmpfs = existsSync('/dev/shm') ? '/dev/shm' : '/tmp';

/**
 * The experiments a run does. --full: all of them. --only=regex: those it matches, of all. Otherwise
 * the key ones, plus the first of any family (the id up to its first '-') that marks none, so every
 * family is touched once. `fullOnly` variants run with --full, or when --variants names them.
 */
export function mainJob(list, { full, only, variants }) {
  const family = (e) => e.id.split('-')[0];
  const touched = new Set(list.filter((e) => e.key).map(family));
  const picked = full || only ? list.filter((e) => !only || only.test(e.id)) : list.filter((e) => {
    if (e.key) return true;
    if (touched.has(family(e))) return false;
    touched.add(family(e));
    return true;
  });
  return full || variants ? picked : picked.map((e) => ({ ...e, variants: e.variants.filter((v) => !v.fullOnly) }));
}

export function experiments({ root, quick, full = false }) {
  const mimallocNative = join(root, '.toolchain', 'mimalloc', 'libmimalloc-native.a');
  const mallocVariants = [
    wasm('spindle', ['--malloc=spindle'], 'Spindle malloc'),
    wasm('dlmalloc', ['--malloc=dlmalloc'], 'wasi-libc dlmalloc'),
    wasm('mimalloc', ['--malloc=mimalloc'], 'mimalloc'),
    native('native-glibc', [], 'native glibc'),
    native('native-mimalloc', [mimallocNative], 'native mimalloc'),
  ];
  const size = (full, small) => (quick ? small : full);
  const list = [
    {
      id: 'math', key: true, title: 'Math scaling: primes below N, split across threads', chart: 'speedup',
      source: 'bench/math/primes.c', args: (t) => [t, size(6000000, 1500000)],
      variants: [wasm('wasm', [], 'wasm'), native('native', [], 'native')], baseline: 'native',
    },
    {
      id: 'malloc-reference', key: true, sweep: true, title: 'Reference malloc workload: ring of 1024 blocks per thread',
      chart: 'throughput', source: 'bench/alloc/ref_workload.c', args: (t) => [t, size(40000000, 4000000)],
      variants: mallocVariants, baseline: 'dlmalloc',
    },
    {
      id: 'malloc-larson', title: 'Cross-thread frees (larson style)', chart: 'throughput',
      source: 'bench/alloc/larson.c', args: (t) => [t, size(200000, 50000), size(10, 4), 512, 1000],
      variants: mallocVariants, baseline: 'dlmalloc',
    },
    {
      id: 'malloc-prodcons', title: 'Producer/consumer: one thread allocates, another frees', chart: 'throughput',
      source: 'bench/alloc/prodcons.c', args: (t) => [Math.max(2, t), size(2000000, 300000)],
      variants: mallocVariants, baseline: 'dlmalloc', minThreads: 2,
    },
    {
      id: 'malloc-false-sharing', title: 'False sharing (cache-scratch style): small objects written by their thread',
      chart: 'throughput', source: 'bench/alloc/cache_scratch.c', args: (t) => [t, size(1000, 200), 8, size(10000, 2000)],
      variants: mallocVariants, baseline: 'dlmalloc',
    },
    {
      id: 'malloc-mixed', title: 'Mixed sizes 8 B..64 KiB with realloc', chart: 'throughput',
      source: 'bench/alloc/mixed.c', args: (t) => [t, size(500000, 100000), 65536],
      variants: mallocVariants, baseline: 'dlmalloc',
    },
  ];
  // File system: each program's measured part on the C main thread or on one pthread (the
  // x axis is where it runs, not a thread count), Spindle's FS against the JS FS baseline and an
  // npm WASI host.
  // The npm WASI host (bench/npm-wasi): the same program built without Spindle's runtime
  // (wasi-libc's file calls), run by @tybys/wasm-util + @emnapi/wasi-threads with a memfs volume
  // on the JS main thread, the other threads' calls proxied to it; the C main on the JS main
  // thread or on a worker. emnapi's thread-spawn needs malloc and free exported.
  // "Spindle portable" (docs/PORTABLE.md): the same host running a --host=wasi build, which has
  // Spindle's malloc and FS and standard imports only.
  const npmWasi = (id, cMain, label, build = '--bare') => ({ ...wasm(id, [build, '-Wl,--export=malloc,--export=free'], label),
    runner: 'npm-wasi', cMain, fullOnly: true }); // several seconds a run: --full only
  // The malloc experiments under the npm host: wasi-libc's dlmalloc (plain build) against the
  // portable build's Spindle malloc, the C main on the JS main thread (no file calls to serve).
  for (const e of list.filter((x) => x.id.startsWith('malloc-'))) {
    e.variants = [...e.variants, npmWasi('npm-wasi-dlmalloc', 'main', 'npm WASI, wasi-libc dlmalloc'),
      npmWasi('npm-wasi-portable', 'main', 'Spindle portable, npm WASI', '--host=wasi')];
  }
  const fsVariants = [
    wasm('spindle-fs', ['--fs=spindle'], 'Spindle FS'),
    wasm('js-fs', ['--fs=js'], 'JS FS'), // files in JS on the host's main thread, other threads proxied
    npmWasi('npm-wasi-main', 'main', 'npm WASI, C main on JS main'),
    npmWasi('npm-wasi-worker', 'worker', 'npm WASI, C main on worker'),
    npmWasi('npm-wasi-portable-main', 'main', 'Spindle portable, npm WASI, C main on JS main', '--host=wasi'),
    npmWasi('npm-wasi-portable-worker', 'worker', 'Spindle portable, npm WASI, C main on worker', '--host=wasi'),
    native('native-tmpfs', [], 'native, tmpfs', { TMPDIR: tmpfs }),
  ];
  const fsExperiment = (id, title, source, points, key = false) => ({
    id, key, title, chart: 'bars', source, points, args: (point) => [point], variants: fsVariants, baseline: 'js-fs',
    note: 'npm WASI: @tybys/wasm-util WASI + @emnapi/wasi-threads, files in a memfs volume on the JS main thread, ' +
      'workers\' file calls proxied to it (@napi-rs/wasm-runtime createFsProxy), one fd table per thread; ' +
      '"C main on JS main": the C main runs on the JS main thread, "on worker": on a worker (bench/npm-wasi).',
  });
  list.push(
    fsExperiment('fs-stdio-files', 'File workload: 100 files x 1000 fwrite/fread, then unlink (50 MB written, one file live at a time)', 'bench/fs/stdio_files.c', ['main', 'thread'], true),
    fsExperiment('fs-metadata', 'Small-file metadata: create, stat, rename, readdir, unlink', 'bench/fs/metadata.c', ['main', 'thread']),
    fsExperiment('fs-call-cost', 'One cheap file call (lseek) x 100,000: the per-call cost', 'bench/fs/call_cost.c', ['main', 'thread']),
    fsExperiment('fs-two-writers', 'Threads writing different files (100 files split over 1 or 2 threads)', 'bench/fs/two_writers.c', [1, 2]),
    fsExperiment('fs-two-readers', 'Threads reading one file (64 passes over 16 MiB split over 1 or 2 threads)', 'bench/fs/two_readers.c', [1, 2]),
  );
  // Fresh files, as a program that unpacks or generates them makes them: many new files, one
  // first write each, all live at once; the 1 MiB point is the 50 MB+ working set (64 MiB live),
  // --full adds a 256 MiB one. Points are the file size and count (bench/fs/new_files.c).
  const newFiles = { '4KiB x 200': [4, 200], '64KiB x 200': [64, 200], '1MiB x 64': [1024, 64], ...(full && { '1MiB x 256': [1024, 256] }) };
  list.push({
    ...fsExperiment('fs-new-files', 'Fresh files: create and write each once, all kept live (4 KiB - 1 MiB)', 'bench/fs/new_files.c',
      Object.keys(newFiles), true),
    args: (point) => newFiles[point],
    speedupOf: {}, // the points are sizes, not thread counts: no speed-up between them
  });
  // Independent and shared file work as threads are added, against native tmpfs: the same total
  // work split over the threads (docs/PERFORMANCE.md, "16 cores").
  const scalingFsVariants = [fsVariants[0], fsVariants.at(-1)];
  const fsScaling = (id, title, source, args = []) => ({
    id, sweep: true, title, chart: 'speedup', source, args: (t) => [t, ...args], variants: scalingFsVariants, baseline: 'native-tmpfs',
  });
  list.push(
    fsScaling('fs-own-files', 'Threads on their own files in one directory (200 x 64 KiB, 1 KiB write/read)', 'bench/fs/own_files.c'),
    fsScaling('fs-shared-pread', 'Threads reading one 32 MiB file at random 4 KiB offsets (400,000 preads, one fd)', 'bench/fs/shared_pread.c', ['shared']),
    fsScaling('fs-path-lookups', 'Threads looking up their own files by relative name (400,000 stat or open+close)', 'bench/fs/path_lookups.c'),
  );
  // File I/O on mounts against the raw ceilings (node:fs, raw OPFS): each runs its own interleaved
  // suite (`suite`, on one host: `host`), see bench/io/suites.js.
  list.push(...ioExperiments({ quick }));
  list.push(...realExperiments({ quick })); // SQLite, zstd: bench/real/suites.js
  list.push(...rustExperiments({ quick })); // Rust: default build vs spindle cargo (bench/rust)
  list.push(...napiExperiments({ quick })); // a napi-rs addon under @napi-rs/wasm-runtime (bench/napi)
  list.push(...startupExperiments({ quick })); // start-up, whole process: bench/startup/suite.js
  // a page's first and second run (Chromium's cached code) against Node: bench/page-cache/suite.js
  list.push(...pageCacheExperiments({ quick }));
  return list.filter((e) => existsSync(join(root, e.source)));
}
