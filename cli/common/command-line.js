// What a start reads of its command line before any command's module loads: the command's
// words, where Spindle's JavaScript caches are, whether it is a browser run. bin/spindle's first
// module (cli/boot.js) uses it as well as every command's start (cli/launch.js).
import { codeCacheArgument, jsCacheDir } from './js-compile-cache.js';

const { basename } = process.getBuiltinModule('node:path');

/**
 * The command's words: process.argv's after the script, where bin/spindle-cc and bin/spindle-c++
 * (links to bin/spindle) are `spindle cc` / `spindle c++` as one program, for tools that take a
 * compiler without arguments (the cc crate's CC_<target>).
 */
export function commandWords(argv = process.argv) {
  const asCommand = /^spindle-(cc|c\+\+)$/.exec(basename(argv[1]));
  return asCommand ? [asCommand[1], ...argv.slice(2)] : argv.slice(2);
}

/**
 * The checked folder of Spindle's JavaScript caches for a command's words, or null:
 * --code-cache=off keeps nothing at all, --code-cache=DIR keeps them in DIR/js.
 */
export function jsCacheFor(words) {
  const codeCache = codeCacheArgument(words);
  return codeCache === 'off' ? null : jsCacheDir(process.env, codeCache);
}

/** Whether a command's words ask for a browser run (which starts from the modules). */
export const inBrowser = (words) => words.some((a) => a === '--browser' || a.startsWith('--browser='));
