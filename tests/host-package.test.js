// The documented way to make the spindle-host package (README.md, docs/HOST.md, "A web app with
// a bundler") works as written: `npm pack ./host` from the repository root packs the folder host/
// (a bare `npm pack host` would be the registry's package named "host", someone else's), the
// tarball is spindle-host-<host/package.json's version>.tgz, it installs by its path into a fresh
// project (no dependencies, so no registry) and Node imports it there by name. Needs only Node and
// npm (no toolchain, no node_modules); tests/webapp.test.js goes on to run a program from it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const { name, version } = JSON.parse(readFileSync(join(root, 'host', 'package.json'), 'utf8'));

let work; // a temporary folder: the tarball, and the project it is installed in

async function run(cmd, args, cwd) {
  const r = await exec(cmd, args, { cwd, timeoutMs: 60000 });
  assert.equal(r.code, 0, `${cmd} ${args.join(' ')} (in ${cwd}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

before(() => { work = mkdtempSync(join(tmpdir(), 'spindle-host-package-')); });
after(() => { if (work) rmSync(work, { recursive: true, force: true }); });

describe('the spindle-host package as the docs make it', () => {
  it('the docs say `npm pack ./host`, never `npm pack host`', () => {
    for (const doc of ['README.md', join('docs', 'HOST.md')]) {
      const text = readFileSync(join(root, doc), 'utf8');
      assert.ok(!text.includes('npm pack host'), `${doc} says \`npm pack host\` (the registry's "host"), not \`npm pack ./host\``);
      assert.ok(text.includes('npm pack ./host'), `${doc} no longer gives \`npm pack ./host\`: update this test with it`);
    }
  });

  it('`npm pack ./host` from the repository root gives spindle-host, which installs from its path and imports by name', async () => {
    assert.equal(name, 'spindle-host');
    const packed = join(work, 'packed');
    mkdirSync(packed);
    await run('npm', ['pack', './host', '--pack-destination', packed, '--loglevel=error'], root);
    const tarballName = `${name}-${version}.tgz`;
    assert.deepEqual(readdirSync(packed), [tarballName], 'npm pack ./host packed something other than host/');
    const tarball = join(packed, tarballName);

    const manifest = JSON.parse(readFileSync(join(root, 'host', 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}), [], 'spindle-host has dependencies: its install would need a registry');

    const project = join(work, 'app');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], project);
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
    assert.deepEqual([installed.name, installed.version], [name, version]);

    const probe = `const m = await import('${name}');
      console.log(JSON.stringify({ resolved: import.meta.resolve('${name}'),
        exports: Object.keys(m).filter((k) => typeof m[k] === 'function').sort() }));`;
    const out = JSON.parse(await run(process.execPath, ['--input-type=module', '-e', probe], project));
    assert.ok(out.resolved.startsWith(`file://${join(project, 'node_modules', name)}/`),
      `${name} resolved to ${out.resolved}, not the installed package`);
    for (const fn of ['run', 'compile', 'runProgram', 'createProgram']) {
      assert.ok(out.exports.includes(fn), `the installed ${name} exports no ${fn}: ${out.exports.join(', ')}`);
    }
  });
});
