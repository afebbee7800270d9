// What `spindle cc` and `spindle bench` print for --help, and the build options `spindle cargo`
// shares with cc; `spindle run`'s comes from its option table (cli/run/run-options.js), cargo's
// from both (cli/cargo/cargo-usage.js), and `spindle --help` prints them all (cli/main.js). Every
// option that takes a value accepts both `--name=VALUE` and `--name VALUE` (cli/common/options.js).

export const ccUsage = `usage: spindle cc [Spindle options] [clang args...]     (spindle c++: the same, as C++)
  Compiles and links C (C++ by file extension, or with c++) for wasm32-wasip1-threads, with
  threads, a shared memory and the Spindle runtime. Spindle options:
    --malloc=spindle|dlmalloc|mimalloc  the allocator linked in (default spindle)
    --fs=spindle|js|none       files in linear memory (default), in JS on the host, or none
    --max-memory=SIZE          the memory's maximum, e.g. 64M (default 1G); at least what the
                               program needs to start
    --initial-memory=SIZE      the memory at start (it grows in large steps past it)
    --stack-size=SIZE          the main thread's stack (default 1M)
    --thread-stack-size=SIZE   each pthread's default stack (default 256K)
    --preload-file=HOSTPATH[@/PATH]  put a file or directory into the module, there before main
    --no-stack-check           leave thread stacks unchecked (checked by default)
    --as-root                  run as root (uid 0): no permission checks (default: an ordinary user, uid 1000)
    --keep-names               keep function names (readable trap traces) without -g's DWARF
    --bare                     no Spindle runtime: a plain wasi-threads module for other hosts
    --host=spindle|wasi        wasi: a portable module, standard WASI imports only, Spindle's malloc and FS kept (docs/PORTABLE.md)
    --help                     this text;  --help-clang  clang's own options
  Every other argument goes to clang unchanged (-O2, -c, -o, -I, -D, -l...).
`;

export const benchUsage = `usage: spindle bench [options]
       spindle bench --from=results.json --out=DIR   (render an earlier run again)
  Builds and runs the scaling benchmarks with their baselines; prints a table and writes
  results.json, SVG charts and report.html into results/<date>-<host>/. Options:
    --node, --browser          where the wasm series run (default --node; --browser: Chromium)
    --browser=chromium,firefox,webkit
                               the browser series in each browser named (one or more),
                               interleaved; io-opfs and io-opfs-meta run in Chromium only
    (default: the key experiments with their baselines, threads 1, 2 and twice the cores,
     3 runs: minutes on 2 cores)
    --full                     every experiment and series (the npm WASI host too), 5 runs
    --quick                    small sizes, threads 1 and 2, 1 run: a smoke test
    --threads=1,2,4            thread counts
    --runs=N                   runs per point, interleaved
    --only=REGEX               experiments to run, by id
    --variants=REGEX           series to run, by id (e.g. '^(spindle-fs|js-fs|native-tmpfs)$')
    --out=DIR                  the results folder
    --open                     open report.html when done
    --build-only               build everything into build/bench and stop
    --prebuilt                 run build/bench as it is (no toolchain needed)
    --from=results.json        with --out: write the outputs of an earlier run again
    --as-user                  run the wasm series as a user runs them: spindle run with default
                               options (no --wait-for-pool, this Node's own V8 tiers), browsers
                               with their default flags, each run compiling the module anew as a
                               loaded page does (by default the bench times optimized code)
    --node-bin=PATH            run everything on this Node binary (e.g. setup's
                               .toolchain/node-26.12.1/bin/node); results.json names its version
    --help                     this text
`;

// the build options of `spindle cargo`, as spindle cc takes them
export const cargoBuildOptions = `--malloc=spindle|dlmalloc|mimalloc --fs=spindle|js|none --host=spindle|wasi
      --max-memory=SIZE --initial-memory=SIZE --stack-size=SIZE --thread-stack-size=SIZE --preload-file=HOSTPATH[@/PATH]
      --as-root --keep-names --no-stack-check --bare`;
