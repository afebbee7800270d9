// isatty in a Node run: a terminal (a pty that script(1) makes) is one, /dev/null and a pipe are
// not, with the mount addon answering (its isatty) and without it (node:tty), as Linux answers.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'run');
const wasm = join(out, 'isatty_report.wasm');
const hasScript = (await exec('script', ['--version'])).code === 0;

before(async () => {
  mkdirSync(out, { recursive: true });
  const r = await exec(spindle, ['cc', '-O2', join(root, 'tests', 'run', 'isatty_report.c'), '-o', wasm]);
  assert.equal(r.code, 0, r.stderr);
});

// `shell`: how the run's stdio is set up, in sh; the program's line comes back on stdout
const report = async (shell, addon) => {
  const r = await exec('sh', ['-c', shell, 'sh', spindle, wasm], { env: { ...process.env, SPINDLE_MOUNT_ADDON: addon ? '1' : '0' } });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.match(/isatty \d \d \d/)?.[0] ?? r.stdout + r.stderr;
};

for (const addon of [true, false]) {
  describe(`isatty of a run's stdio, ${addon ? 'asked through the mount addon' : 'asked through node:tty'}`, () => {
    it('all three on a terminal: 1 1 1', { skip: !hasScript && 'no script(1)' }, async () => {
      // script(1) runs the command with stdin, stdout and stderr on a new pty, and copies its output
      assert.equal(await report('script -qec "$1 run $2" /dev/null </dev/null', addon), 'isatty 1 1 1');
    });
    it('/dev/null (a character device that is no terminal) and pipes: 0 0 0', async () => {
      assert.equal(await report('"$1" run "$2" </dev/null 2>&1 >/dev/null | cat', addon), 'isatty 0 0 0');
    });
  });
}
