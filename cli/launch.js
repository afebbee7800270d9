// bin/spindle's start where the run bundle does not run the command (cli/boot.js): every command
// but `spindle run` in Node, and that one too while the bundles are missing, off or older than a
// module. The command runs from the modules (cli/main.js).
import { commandWords, jsCacheFor } from './common/command-line.js';
import { launch } from './common/launch.js';

/** Runs this process's command from the modules and exits with its status. */
export function launchFromModules() {
  const words = commandWords();
  // (by URL: the CLI's modules stay out of this file's bundle)
  launch(() => import(new URL('./main.js', import.meta.url).href).then(({ main }) => main(words)), jsCacheFor(words));
}
