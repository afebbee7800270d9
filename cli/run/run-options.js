// `spindle run`'s options, and the one scan of its arguments that both the early start
// (cli/run/run-early.js, before the CLI's modules load) and cli/run/run.js's parse read.
import { resolve } from 'node:path';
import { readOption } from '../common/options.js';
import { runUsage } from '../common/usage.js';

export const RUN_OPTIONS = {
  // `--browser` alone is Chromium; `--browser=firefox` (only with =: a module may be named firefox)
  '--browser': () => false,
  '--help': 'switch',
  // `--env` alone passes the whole environment; `--env NAME=VALUE` sets one variable
  '--env': (next) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(next),
  '--pool': 'a number of workers',
  '--wait-for-pool': 'switch',
  '--compile': 'auto, eager or lazy',
  '--code-cache': 'on, off or a directory',
  '--preload': 'a file or directory, HOSTPATH[@/PATH]',
  '--mount': 'a mount, /PATH=HOSTDIR or /PATH=opfs[:SUBDIR]',
  '--max-threads': 'a number of threads',
};

/** `--code-cache`'s value as the host takes it: true (on), false (off) or a directory. */
export const codeCacheOption = (value) => (value === 'on' ? true : value === 'off' ? false : resolve(value));

/**
 * The options before app.wasm, in order, as [{ flag, value }], and the module's index in `argv`
 * (argv.length where none is given); { help: true } at -h or --help. Throws at an option it does
 * not know or one that lacks its value.
 */
export function scanRunArgs(argv) {
  const options = [];
  let i = 0;
  while (i < argv.length && argv[i].startsWith('-')) {
    if (argv[i] === '--') { i++; break; }
    if (argv[i] === '-h') return { help: true, options, index: i };
    const option = readOption(argv, i, RUN_OPTIONS);
    if (!option) throw new Error(`unknown option ${argv[i].split('=')[0]}\n${runUsage}`);
    if (option.flag === '--help') return { help: true, options, index: i };
    options.push({ flag: option.flag, value: option.value });
    i = option.next;
  }
  return { help: false, options, index: i };
}
