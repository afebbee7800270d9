// Dispatches `spindle <command>` to the module that implements it.
const commands = {
  cc: () => import('./cc.js').then((m) => (args) => m.compile(args, { cxx: false })),
  'c++': () => import('./cc.js').then((m) => (args) => m.compile(args, { cxx: true })),
  run: () => import('./run.js').then((m) => m.run),
  bench: () => import('./bench.js').then((m) => m.bench),
  cargo: () => import('./cargo.js').then((m) => m.cargo),
};

const usage = `usage: spindle <command> [args]
  cc  [clang args] [--malloc=spindle|dlmalloc|mimalloc] [--fs=spindle|js|none] [--bare]
      [--max-memory=SIZE] [--stack-size=SIZE] [--thread-stack-size=SIZE]
      [--preload-file=HOSTPATH[@/PATH]]...
                      compile and link C (C++ by file extension) for wasm32-wasip1-threads
  c++ [same]          the same, as C++
  run [--browser] [--env[=NAME=VALUE]] [--pool=N] [--preload=HOSTPATH[@/PATH]]...
      [--mount=/PATH=HOSTDIR|opfs[:SUBDIR]]... app.wasm [args...]
                      run a module in Node (default) or headless Chromium
  cargo [spindle cc/run options] build|run|test|bench [cargo args]
                      cargo for wasm32-wasip1-threads with Spindle's runtime (docs/RUST.md)
  bench [--node] [--browser] [--threads=1,2,4] [--runs=N] [--quick] [--only=regex] [--open]
                      the scaling benchmarks with their baselines: table, JSON, charts, HTML report
`;

export async function main(argv) {
  const [name, ...args] = argv;
  if (!name || name === '-h' || name === '--help') {
    process.stdout.write(usage);
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) throw new Error(`unknown command '${name}'\n${usage}`);
  return (await load())(args);
}
