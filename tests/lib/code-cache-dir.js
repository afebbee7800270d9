// Removing a code-cache directory a test's runs used: a run that found no TurboFan code leaves a
// maker behind (cli/common/turbofan-maker.js) that writes into the directory once it has
// compiled, so the test waits for every maker under it first (makersDone).
import { rmSync } from 'node:fs';
import { makersDone } from '../../cli/common/turbofan-maker.js';

/** Waits (at most a minute) for the makers under `dir`, then removes it. */
export async function removeCodeCache(dir) {
  await makersDone(dir, 60000);
  rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
}
