// `spindle run` starts from its bundles (build/bundle, scripts/build-run-bundle.js) while every
// module they were made from is unchanged, and from the modules otherwise (cli/run/run-bundle.js).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUNDLE_DIR, freshBundle, INPUTS_FILE, RUN_BUNDLE, THREAD_WORKER_BUNDLE } from '../cli/run/run-bundle.js';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');

describe('the run bundle is used only while it is current', () => {
  let fake;
  before(() => {
    fake = mkdtempSync(join(tmpdir(), 'spindle-bundle-'));
    mkdirSync(join(fake, BUNDLE_DIR), { recursive: true });
    writeFileSync(join(fake, 'a.js'), 'export {};\n');
    for (const bundle of [RUN_BUNDLE, THREAD_WORKER_BUNDLE]) writeFileSync(join(fake, BUNDLE_DIR, bundle), '');
  });
  after(() => rmSync(fake, { recursive: true, force: true }));
  const list = (inputs) => writeFileSync(join(fake, BUNDLE_DIR, INPUTS_FILE), JSON.stringify({ inputs }));
  const at = (seconds) => utimesSync(join(fake, 'a.js'), seconds, seconds);

  it('fresh while every input has its mtime and size; stale after a change, a missing file or a missing list', () => {
    at(1000);
    list([{ path: 'a.js', mtimeMs: 1000000, size: 11 }]);
    assert.equal(freshBundle(fake), true);
    at(1001);
    assert.equal(freshBundle(fake), false);
    at(1000);
    writeFileSync(join(fake, 'a.js'), 'export {}; \n');
    at(1000);
    assert.equal(freshBundle(fake), false, 'size changed');
    list([{ path: 'gone.js', mtimeMs: 1, size: 1 }]);
    assert.equal(freshBundle(fake), false);
    list([]);
    assert.equal(freshBundle(fake), false);
    rmSync(join(fake, BUNDLE_DIR, INPUTS_FILE));
    assert.equal(freshBundle(fake), false);
  });

  it('a run says where its JavaScript came from: the bundle once built, the modules with SPINDLE_BUNDLE=0', async () => {
    const built = await exec(process.execPath, [join(root, 'scripts', 'build-run-bundle.js')]);
    assert.equal(built.code, 0, built.stderr);
    const out = mkdtempSync(join(tmpdir(), 'spindle-bundle-run-'));
    try {
      const wasm = join(out, 'hello_thread.wasm');
      const cc = await exec(spindle, ['cc', '-O2', join(root, 'bench', 'startup', 'hello_thread.c'), '-o', wasm]);
      assert.equal(cc.code, 0, cc.stderr);
      const { SPINDLE_BUNDLE: _, ...env } = process.env;
      for (const [more, from] of [[{}, /JavaScript: the bundle/], [{ SPINDLE_BUNDLE: '0' }, /JavaScript: the modules/]]) {
        const r = await exec(spindle, ['run', wasm], { env: { ...env, SPINDLE_DEBUG: '1', ...more } });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, 'hello, world (a thread wrote a file)\n');
        assert.match(r.stderr, from);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
