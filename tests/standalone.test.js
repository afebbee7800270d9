// The repository stands alone: no file points at documents that live outside it (the planning
// notes the project started from). What a user needs is in docs/ in the project's own words.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { it } from 'node:test';

const root = join(import.meta.dirname, '..');
// Spelled in pieces so that this file does not match itself.
const outside = [['MISSION', '.md'], ['FINDINGS', '.md'], ['..', '/shared'], ['/work', '/shared']].map((p) => p.join(''));
const generated = new Set(['.git', '.toolchain', 'node_modules', 'build', 'results']);

function trackedFiles() {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  } catch { // not a git checkout (an unpacked archive): every file but the generated ones
    const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (generated.has(d.name) ? []
      : d.isDirectory() ? walk(join(dir, d.name)) : [relative(root, join(dir, d.name))]));
    return walk(root);
  }
}

it('no file cites documents outside the repository', () => {
  const files = trackedFiles();
  assert.ok(files.length > 50 && files.includes('README.md'), `${files.length} files found`);
  const hits = [];
  for (const f of files) {
    let text;
    try { text = readFileSync(join(root, f), 'utf8'); } catch { continue; } // deleted in the work tree
    for (const word of outside) if (text.includes(word)) hits.push(`${f}: ${word}`);
  }
  assert.deepEqual(hits, []);
});
