// What each command prints for --help, and `spindle --help` prints them all. Kept in one place
// so that the overview and each command's own usage cannot disagree. Every option that takes a
// value accepts both `--name=VALUE` and `--name VALUE` (cli/common/options.js).

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

export const runUsage = `usage: spindle run [options] app.wasm [args...]
  Runs a module built by spindle cc in Node (default) or a headless browser, with the terminal's
  stdin, stdout and stderr; the exit status is the program's. Options (before app.wasm):
    --browser                  run in headless Chromium instead of Node
    --browser=chromium|firefox|webkit
                               run in that headless browser (Firefox: firefox-esr; WebKit:
                               WebKitGTK's MiniBrowser under a private Xvfb, no OPFS mounts)
    --env                      pass the whole environment (none by default)
    --env=NAME=VALUE           set one variable (repeatable)
    --pool=N                   workers for threads (default max(4, cores)): started before main
                               with --wait-for-pool, else on demand as threads are created
    --wait-for-pool            start the pool's workers before main (for benchmarks that time
                               their first pthread_create)
    --max-threads=N            most threads alive at once, main excluded (default 1024); the
                               next pthread_create fails with EAGAIN
    --compile=auto|eager|lazy  V8 compiles every function before main (eager) or each at its first
                               call (lazy); auto (default) is eager; lazy runs in a Node started
                               again with that V8 flag (docs/HOST.md); V8 only (Node, Chromium)
    --code-cache=on|off|DIR    keep V8's optimized code between runs (on, the default: in
                               ~/.cache/spindle/code or $SPINDLE_CODE_CACHE_DIR), so a later run
                               of the same module starts without compiling; with --browser
                               (Chromium), the code Chromium cached for the page, kept in
                               .../chromium-profile (docs/HOST.md, "Cached code in pages")
    --preload=HOSTPATH[@/PATH] put a host file or directory into the tree before main (repeatable)
    --mount=/PATH=HOSTDIR[,symlinks=any][,quota=SIZE]
                               a host directory as /PATH, read and written in place (Node);
                               symlinks=any lets the program make symlinks that point outside
                               it (refused by default), quota=SIZE (e.g. 1G) caps the bytes it
                               may add to the directory's files (then ENOSPC); docs/MOUNTS.md
    --mount=/PATH=opfs[:SUBDIR]  the browser's origin-private file system as /PATH (--browser)
    --help                     this text
    --                         ends the options (for a module whose name starts with --)
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

export const cargoUsage = `usage: spindle cargo [options] <cargo command> [cargo args] [-- program args]
  cargo build|run|test|bench for wasm32-wasip1-threads with Spindle's runtime (docs/RUST.md).
  build options (as spindle cc): --malloc=spindle|dlmalloc|mimalloc --fs=spindle|js|none --host=spindle|wasi
      --max-memory=SIZE --initial-memory=SIZE --stack-size=SIZE --thread-stack-size=SIZE --preload-file=HOSTPATH[@/PATH]
      --as-root --keep-names --no-stack-check --bare
  run options (as spindle run, for cargo run/test/bench): --browser[=chromium|firefox|webkit] --env[=NAME=VALUE]
      --mount=/PATH=HOSTDIR[,symlinks=any][,quota=SIZE]|opfs[:SUBDIR] --preload=HOSTPATH[@/PATH]
      --pool=N --wait-for-pool --max-threads=N --compile=auto|eager|lazy
  --help: this text (cargo's own: cargo help <command>)
`;

export const overview = `usage: spindle <command> [args]     (spindle <command> --help: that command's usage)

${ccUsage}
${runUsage}
${cargoUsage}
${benchUsage}`;
