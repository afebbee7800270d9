// Removing a code-cache directory a test's runs used: a run that found no TurboFan code leaves a
// maker behind (cli/common/turbofan-maker.js) that writes into the directory once it has
// compiled, so the test waits for every maker under it (a KEY.making file each) first.
import { readdirSync, rmSync } from 'node:fs';

const making = (dir) => {
  try {
    return readdirSync(dir, { recursive: true }).some((name) => String(name).endsWith('.making'));
  } catch {
    return false;
  }
};

/** Waits (at most a minute) for the makers under `dir`, then removes it. */
export async function removeCodeCache(dir) {
  for (let waited = 0; making(dir) && waited < 60000; waited += 100) await new Promise((done) => setTimeout(done, 100));
  rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
}
