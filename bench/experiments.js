// What `spindle bench` measures. An experiment is one program run at each thread count; its
// variants are builds of it (wasm with some `spindle cc` flags, or native), each run on some
// hosts. Every variant of an experiment runs in the same session, interleaved, so ratios compare
// like with like. Programs print one `RESULT {json}` line with at least "ms".
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const wasm = (id, ccFlags, label = id) => ({ id, label, kind: 'wasm', ccFlags });
const native = (id, libs = [], label = id) => ({ id, label, kind: 'native', libs });

export function experiments({ root, quick }) {
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
      id: 'math', title: 'Math scaling: primes below N, split across threads', chart: 'speedup',
      source: 'bench/math/primes.c', args: (t) => [t, size(6000000, 1500000)],
      variants: [wasm('wasm', [], 'wasm'), native('native', [], 'native')], baseline: 'native',
    },
    {
      id: 'malloc-reference', title: 'Reference malloc workload (MISSION.md): ring of 1024 blocks per thread',
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
  ];
  return list.filter((e) => existsSync(join(root, e.source)));
}
