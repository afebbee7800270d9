// Dispatches `spindle <command>` to the module that implements it.
import { earlyStart } from './run/run-early.js';
import { benchUsage, ccUsage } from './common/usage.js';
import { runUsage } from './run/run-options.js';

const commands = {
  cc: () => import('./build/cc.js').then((m) => (args) => m.compile(args, { cxx: false })),
  'c++': () => import('./build/cc.js').then((m) => (args) => m.compile(args, { cxx: true })),
  run: async (args) => {
    // the run's workers are made before run.js's modules start loading, and boot while they load
    const early = await earlyStart(args);
    const { run } = await import('./run/run.js');
    return (argv) => run(argv, early);
  },
  bench: () => import('./bench/bench.js').then((m) => m.bench),
  cargo: () => import('./cargo/cargo.js').then((m) => m.cargo),
};

/** What `spindle --help` prints: every command's usage. */
async function overview() {
  const { cargoUsage } = await import('./cargo/cargo-usage.js');
  return `usage: spindle <command> [args]     (spindle <command> --help: that command's usage)\n\n${ccUsage}\n${runUsage}\n${cargoUsage}\n${benchUsage}`;
}

export async function main(argv) {
  const [name, ...args] = argv;
  if (!name || name === '-h' || name === '--help') {
    process.stdout.write(await overview());
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) throw new Error(`unknown command '${name}'\n${await overview()}`);
  return (await load(args))(args);
}
