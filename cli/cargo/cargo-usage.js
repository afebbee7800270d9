// What `spindle cargo --help` prints: its build options as spindle cc takes them
// (cli/common/usage.js) and its run options from spindle run's table (cli/run/run-options.js).
import { cargoBuildOptions } from '../common/usage.js';
import { RUN_OPTIONS } from '../run/run-options.js';

// the run options' short forms, in lines of at most ~110 columns under the heading
function runSynopsis() {
  const lines = [];
  for (const { synopsis } of RUN_OPTIONS.filter((option) => option.cargo)) {
    if (lines.length && lines.at(-1).length + synopsis.length < 110) lines[lines.length - 1] += ` ${synopsis}`;
    else lines.push(`      ${synopsis}`);
  }
  return lines.join('\n');
}

export const cargoUsage = `usage: spindle cargo [options] <cargo command> [cargo args] [-- program args]
  cargo build|run|test|bench for wasm32-wasip1-threads with Spindle's runtime (docs/RUST.md).
  build options (as spindle cc): ${cargoBuildOptions}
  run options (as spindle run, for cargo run/test/bench):
${runSynopsis()}
  --help: this text (cargo's own: cargo help <command>)
`;
