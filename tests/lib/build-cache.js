// Builds shared by the lanes of one scripts/test.sh run (issue 38: CI's time). test.sh sets the
// toolchain up once, then runs the same suites on Node 26, 24 and 22; a program built from the
// same source with the same command is the same file in each lane, so the first lane's outputs
// are kept in SPINDLE_TEST_BUILD_CACHE (a folder test.sh makes and removes) and later lanes copy
// them. Without that variable (a suite run by hand, where a toolchain may have changed since)
// every build runs. For builds whose inputs are the named files and the repo's own headers,
// which do not change while test.sh runs.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { exec } from './exec.js';

/**
 * Runs `build()` (resolving to { code, ... }) unless the cache holds what an identical build
 * made: `command` (the argv, output paths included), `inputs` (files whose bytes the outputs
 * depend on) and `outputs` (files the build writes). A successful build's outputs are kept;
 * a hit copies them into place and resolves to { code: 0, stdout: '', stderr: '', cached: true }.
 */
export async function cachedBuild({ command, inputs, outputs }, build) {
  const dir = process.env.SPINDLE_TEST_BUILD_CACHE;
  if (!dir) return build();
  const hash = createHash('sha256').update(JSON.stringify(command));
  for (const input of inputs) hash.update('\0').update(readFileSync(input));
  const key = hash.digest('hex');
  const kept = outputs.map((_, i) => join(dir, `${key}.${i}`));
  if (kept.every((k) => existsSync(k))) {
    outputs.forEach((output, i) => copyFileSync(kept[i], output));
    return { code: 0, stdout: '', stderr: '', cached: true };
  }
  const result = await build();
  if (result.code !== 0) return result;
  mkdirSync(dir, { recursive: true });
  // (copied under a name of this process's, then renamed: a lane never reads half a file)
  outputs.forEach((output, i) => {
    const partial = `${kept[i]}.${process.pid}`;
    copyFileSync(output, partial);
    renameSync(partial, kept[i]);
  });
  return result;
}

/** `cmd args`, which builds `output` from the one file `source`, run through cachedBuild. */
export const buildFromSource = (cmd, args, source, output) =>
  cachedBuild({ command: [cmd, ...args], inputs: [source], outputs: [output] }, () => exec(cmd, args));
