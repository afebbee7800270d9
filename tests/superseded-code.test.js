// The copies of a module's code that a saved Chromium wasm code cache keeps after its URL has moved
// on to a newer one (cli/browser/superseded-code.js), on entry files laid out as Chromium's
// simple disk cache writes them; tests/page-code-cache.test.js checks the same on a real run.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { dropSupersededCode, entryKey, supersededCodeEntries } from '../cli/browser/superseded-code.js';

const scratch = mkdtempSync(join(tmpdir(), 'spindle-superseded-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;

/** An entry file's bytes: the simple cache's header, `key`, then `data`. */
function entryFile(key, data = Buffer.alloc(16)) {
  const header = Buffer.alloc(24);
  Buffer.from('305c72a71b6dfbfc', 'hex').copy(header, 0);
  header.writeUInt32LE(5, 8);
  header.writeUInt32LE(key.length, 12);
  return Buffer.concat([header, Buffer.from(key, 'latin1'), data]);
}
const hash = (c) => c.repeat(64);
const urlEntry = (url, ...named) => entryFile(`_key${url} \nhttp://127.0.0.1/`, Buffer.concat([Buffer.alloc(8), ...named.map((h) => Buffer.from(h))]));

/** A cache folder with `files` ({ name: bytes }). */
function folder(files) {
  const dir = join(scratch, `cache-${++dirs}`);
  mkdirSync(dir);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  return dir;
}

describe('superseded code in a saved wasm code cache', () => {
  it('reads an entry\'s key after the header, and refuses what is not an entry', () => {
    assert.equal(entryKey(entryFile(hash('A'))).key, hash('A'));
    assert.equal(entryKey(Buffer.from('not an entry at all, no magic here')), null);
    const cut = entryFile(hash('B')).subarray(0, 40);
    assert.equal(entryKey(cut), null);
  });

  it('drops the code no URL names, with all its files, and keeps the named code, the URL entries and the index', () => {
    const dir = folder({
      '0000000000000001_0': urlEntry('http://127.0.0.1:20480/wasm/one.wasm', hash('A')),
      '0000000000000002_0': urlEntry('http://127.0.0.1:20480/wasm/two.wasm', hash('C')),
      '00000000000000aa_0': entryFile(hash('A')),
      '00000000000000bb_0': entryFile(hash('B')),
      '00000000000000bb_1': Buffer.alloc(4),
      '00000000000000cc_0': entryFile(hash('C')),
      '00000000000000dd_0': entryFile(hash('D')),
      index: Buffer.alloc(8),
    });
    assert.deepEqual(supersededCodeEntries(dir).sort(), ['00000000000000bb', '00000000000000dd']);
    assert.equal(dropSupersededCode(dir), 2);
    assert.deepEqual(readdirSync(dir).sort(), ['0000000000000001_0', '0000000000000002_0', '00000000000000aa_0', '00000000000000cc_0', 'index']);
    assert.equal(dropSupersededCode(dir), 0);
  });

  it('drops nothing where an entry file cannot be read as one, or no URL entry is there', () => {
    const odd = folder({
      '0000000000000001_0': urlEntry('http://127.0.0.1:20480/wasm/one.wasm', hash('A')),
      '00000000000000bb_0': entryFile(hash('B')),
      '00000000000000ee_0': Buffer.from('something else'),
    });
    assert.deepEqual(supersededCodeEntries(odd), []);
    const noUrl = folder({ '00000000000000aa_0': entryFile(hash('A')), '00000000000000bb_0': entryFile(hash('B')) });
    assert.equal(dropSupersededCode(noUrl), 0);
    assert.equal(readdirSync(noUrl).length, 2);
    assert.equal(dropSupersededCode(join(scratch, 'no such folder')), 0);
  });
});
