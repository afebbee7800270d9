// What bin/spindle does once it knows its Node can load Spindle's modules: the version's check,
// Spindle's JavaScript caches, then
// the command, `spindle run` in Node from its bundle where that is current (cli/run/run-bundle.js).
// bin/spindle loads this from a bundle of its own (build/bundle/launch.mjs) while that is current:
// one file instead of eight modules, loaded before any cache is on (~1.7 ms of a hello world).
import { nodeTooOld } from './common/node-version.js';
import { codeCacheArgument, enableJsCompileCache, jsCacheDir } from './run/js-compile-cache.js';
import { usableBundle } from './common/bundles.js';
import { runFromBundle } from './run/run-bundle.js';

export { usableBundle };

const { basename } = process.getBuiltinModule('node:path');

/**
 * Runs the command of this process's arguments and exits with its status. `root`: the
 * repository; `bundle`: the bundles' record where they are current (usableBundle), else null.
 */
export function launch(root, bundle) {
  const tooOld = nodeTooOld();
  if (tooOld) {
    process.stderr.write(`spindle: ${tooOld}\n`);
    process.exit(1);
  }
  // (--code-cache=off: nothing kept at all; --code-cache=DIR: kept in DIR/js)
  const codeCache = codeCacheArgument(process.argv.slice(2));
  const jsCache = codeCache === 'off' ? null : jsCacheDir(process.env, codeCache);

  // Node exits 0 once nothing is left to wait on, even while a command's promise is pending
  // (Node 24 did so during a compile, docs/HOST.md). A command that never finished must not pass
  // for one that succeeded.
  process.on('beforeExit', () => {
    process.stderr.write('spindle: internal error: Node had nothing left to wait on before the command finished\n');
    process.exit(1);
  });

  // bin/spindle-cc and bin/spindle-c++ (links to bin/spindle) are `spindle cc` / `spindle c++`
  // as one program, for tools that take a compiler without arguments (the cc crate's CC_<target>).
  const asCommand = /^spindle-(cc|c\+\+)$/.exec(basename(process.argv[1]));
  const argv = asCommand ? [asCommand[1], ...process.argv.slice(2)] : process.argv.slice(2);
  // A browser run starts from the modules: the run bundle is a script, which cannot import the
  // browser's driver (a module of its own), and a page takes seconds anyway.
  const inBrowser = argv.some((a) => a === '--browser' || a.startsWith('--browser='));
  const fromBundle = bundle && argv[0] === 'run' && !inBrowser;
  // Node's module cache before the CLI's modules load (they are what it keeps); a run from the
  // bundle loads none on this thread and only hands the cache to its workers
  enableJsCompileCache(process.env, jsCache, { thisThread: !fromBundle });
  const command = fromBundle ? runFromBundle(root, bundle, argv.slice(1), jsCache)
    // (by URL: the CLI's modules stay out of this file's bundle)
    : import(new URL('./main.js', import.meta.url).href).then(({ main }) => main(argv));
  command.then(
    (code) => process.exit(code ?? 0),
    (err) => {
      process.stderr.write(`spindle: ${err && err.message ? err.message : err}\n`);
      if (process.env.SPINDLE_DEBUG) process.stderr.write(`${err.stack}\n`);
      process.exit(1);
    },
  );
}
