// The tree keeps the layout of .clang-format and eslint.config.js (scripts/format.sh; docs/TOOLCHAIN.md,
// "Formatting"), and the check itself notices a file that breaks it without changing the file.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const format = join(root, 'scripts', 'format.sh');
const scratch = join(root, 'build', 'tests', 'format');

describe('formatting', () => {
  before(() => mkdirSync(scratch, { recursive: true }));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('the C, C++ and JavaScript of the tree are formatted (scripts/format.sh applies it)', async () => {
    const r = await exec(format, ['--check']);
    assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
  });

  it('--check names a badly laid out file and leaves it as it was; applying fixes it', async () => {
    const files = {
      'crooked.c': 'int  main(void){return 0;}\n',
      'crooked.js': 'const greeting = "hello"\nexport { greeting };\n',
    };
    const paths = Object.keys(files).map((name) => join(scratch, name));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(scratch, name), text);

    const check = await exec(format, ['--check', ...paths]);
    assert.equal(check.code, 1, `${check.stdout}${check.stderr}`);
    assert.match(check.stdout, /crooked\.c/);
    assert.match(check.stdout, /crooked\.js[\s\S]*Strings must use singlequote/);
    for (const [name, text] of Object.entries(files)) assert.equal(readFileSync(join(scratch, name), 'utf8'), text);

    const apply = await exec(format, paths);
    assert.equal(apply.code, 0, `${apply.stdout}${apply.stderr}`);
    assert.equal(readFileSync(paths[0], 'utf8'), 'int main(void) { return 0; }\n');
    assert.equal(readFileSync(paths[1], 'utf8'), "const greeting = 'hello';\nexport { greeting };\n");
    assert.equal((await exec(format, ['--check', ...paths])).code, 0);
  });

  it('ESLint reports a name used but never defined, which --fix cannot repair', async () => {
    const path = join(scratch, 'undefined-name.js');
    writeFileSync(path, 'export const total = count + 1;\n');
    const r = await exec(format, [path]);
    assert.equal(r.code, 1, `${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /'count' is not defined/);
  });
});
