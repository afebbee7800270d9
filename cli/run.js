// `spindle run [--browser] [options] app.wasm [args...]`: runs a module with real threads in
// Node (default) or in headless Chromium, and returns the program's exit code.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { compile, runProgram } from '../host/index.js';
import { packPreloadFiles } from './preload-files.js';

const usage = 'usage: spindle run [--browser] [--env] [--env=NAME=VALUE] [--pool=N] [--preload=HOSTPATH[@/PATH]] app.wasm [args...]';

export function parseRunArgs(argv) {
  const opts = { browser: false, env: {}, inheritEnv: false, poolSize: undefined, preload: [] };
  let i = 0;
  for (; i < argv.length && argv[i].startsWith('--'); i++) {
    const [flag, ...rest] = argv[i].split('=');
    const value = rest.join('=');
    if (flag === '--browser') opts.browser = true;
    else if (flag === '--env' && rest.length === 0) opts.inheritEnv = true;
    else if (flag === '--env') {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new Error(`--env=${value}: expected NAME=VALUE`);
      opts.env[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (flag === '--pool') {
      opts.poolSize = Number(value);
      if (!Number.isInteger(opts.poolSize) || opts.poolSize < 1) throw new Error(`--pool=${value}: expected a positive integer`);
    } else if (flag === '--preload') {
      // files and directory trees put into the in-memory tree before main (docs/FILES.md)
      const spec = rest.length ? value : argv[++i];
      if (!spec) throw new Error(`--preload: expected HOSTPATH[@/PATH]\n${usage}`);
      opts.preload.push(spec);
    } else if (flag === '--') { i++; break; } else throw new Error(`unknown option ${flag}\n${usage}`);
  }
  if (i >= argv.length) throw new Error(usage);
  opts.wasm = argv[i];
  opts.args = [basename(argv[i]), ...argv.slice(i + 1)];
  if (opts.inheritEnv) opts.env = { ...process.env, ...opts.env };
  return opts;
}

export async function run(argv) {
  const opts = parseRunArgs(argv);
  if (opts.preload.length) opts.preloadBytes = packPreloadFiles(opts.preload, '--preload');
  if (opts.browser) return (await import('./run-browser.js')).runInBrowser(opts);
  const compiled = await compile(readFileSync(opts.wasm));
  const result = await runProgram(compiled, { args: opts.args, env: opts.env, poolSize: opts.poolSize,
    preload: opts.preloadBytes });
  if (result.trap) process.stderr.write(`spindle: ${result.trap}\n`);
  return result.exitCode;
}
