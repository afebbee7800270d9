// The mount handle table's keys (host/mount/handle-table.js): the hostdir backend reads a handle
// from a request as two 32-bit words and uses it by its key, with no BigInt. A handle written
// that way reads back as add()'s BigInt, and every word pair the table did not hand out is EBADF
// (tests/hostile.test.js sends such handles through real requests).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERRNO as E } from '../host/abi/linux.js';
import { createHandleTable, HandleError, HandleTable } from '../host/mount/handle-table.js';

const ebadf = (fn) => assert.throws(fn, (err) => err instanceof HandleError && err.errno === E.EBADF);
// the two words of a BigInt handle, as the backend reads them from a request
const wordsOf = (handle) => [Number(handle & 0xffffffffn), Number(handle >> 32n)];

describe('handle table keys', () => {
  it('a key written as two words reads back as add()\'s handle, and names the same value', () => {
    const table = new HandleTable(createHandleTable(), 3);
    const view = new DataView(new ArrayBuffer(16));
    for (let i = 0; i < 100; i++) {
      const key = table.addKey(1000 + i);
      table.writeHandle(view, 8, key);
      const handle = view.getBigUint64(8, true);
      assert.equal(handle, table.handleOf(key));
      assert.equal(handle >> 48n, 4n); // the tag: 1 + the mount's id
      assert.equal(table.keyOf(handle), key);
      assert.equal(table.keyOfWords(view.getUint32(8, true), view.getUint32(12, true)), key);
      assert.equal(table.use(handle, (value) => value), 1000 + i);
      assert.equal(table.useKey(key, (value) => value), 1000 + i);
    }
    const old = table.add(7); // the BigInt API is the same table
    assert.equal(table.useKey(table.keyOf(old), (value) => value), 7);
  });

  it('another mount\'s handle, a closed one and forged words are EBADF', () => {
    const buffer = createHandleTable();
    const table = new HandleTable(buffer, 0);
    const other = new HandleTable(buffer, 1); // (the same slots: only the tag differs)
    const handle = table.add(5);
    const [lo, hi] = wordsOf(handle);
    assert.equal(other.keyOfWords(lo, hi), -1);
    ebadf(() => other.use(handle, () => 0));
    ebadf(() => other.useKey(other.keyOfWords(lo, hi), () => 0));
    for (const [l, h] of [[lo ^ 0x10000, hi], [lo, hi ^ 1], [lo ^ 1, hi], [0, hi & 0xffff0000], [0xffffffff, hi | 0xffff], [lo, 0], [lo, 0xffffffff]]) {
      ebadf(() => table.useKey(table.keyOfWords(l, h), () => 0));
    }
    for (const key of [-1, NaN, 2 ** 48, 2 ** 53, 0.5, Infinity]) ebadf(() => table.useKey(key, () => 0));
    const key = table.keyOfWords(lo, hi);
    assert.equal(table.removeKey(key, (value) => value * 2), 10);
    ebadf(() => table.useKey(key, () => 0));
    ebadf(() => table.removeKey(key, () => 0));
    ebadf(() => table.use(handle, () => 0));
  });

  it('a slot taken again by a new open does not answer to the old key', () => {
    const table = new HandleTable(createHandleTable(), 0);
    const first = table.addKey(1);
    table.removeKey(first, () => 0);
    const keys = Array.from({ length: 65536 }, (_, i) => table.addKey(i)); // every slot taken
    const again = keys.find((k) => k % 65536 === first % 65536);
    assert.notEqual(again, first);
    ebadf(() => table.useKey(first, () => 0));
    assert.equal(typeof table.useKey(again, (value) => value), 'number');
  });
});
