// A thread whose view of the shared memory is behind (host/platform/memory-view.js): V8 left a
// worker that took the memory in while main grew it with the old size for good, so the host's
// bounds checks refused that thread's pointers into the newer pages (tests/programs/timed_locks.c
// failed about once in 100 first runs: its thread's clock_gettime got EFAULT). The host now brings
// the view up to date (memory.grow(0)) before it refuses a pointer. Here a memory whose buffer
// stays short until grow(0) stands for that worker's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ERRNO } from '../host/abi/wasi.js';
import { bufferCovering, catchUpMemory } from '../host/platform/memory-view.js';
import { guestMemory } from '../host/wasi/guest-memory.js';
import { wasiImports } from '../host/wasi/imports.js';

const PAGE = 65536;

/** A shared memory of `pages` whose buffer reads as its first page only until grow(0). */
function memoryBehind(pages = 4) {
  const real = new WebAssembly.Memory({ initial: pages, maximum: 16, shared: true });
  const short = new WebAssembly.Memory({ initial: 1, maximum: 16, shared: true }).buffer;
  let behind = true;
  let grows = 0;
  return {
    get buffer() { return behind ? short : real.buffer; },
    grow(delta) { grows++; behind = false; return real.grow(delta); },
    get grows() { return grows; },
    real,
  };
}

const platform = { realtimeNs: () => 1_700_000_000_123_456_789n, monotonicNs: () => 42n };

describe('a thread whose view of the memory is behind', () => {
  it('clock_time_get into the newer pages answers, after one grow(0), instead of EFAULT', () => {
    const memory = memoryBehind();
    const wasi = wasiImports({ memory, args: ['clock'], env: {}, platform, exit: () => {} });
    const at = 3 * PAGE + 8;
    assert.equal(wasi.clock_time_get(0, 1000n, at), ERRNO.SUCCESS);
    assert.equal(new DataView(memory.real.buffer).getBigUint64(at, true), 1_700_000_000_123_456_789n);
    assert.equal(memory.grows, 1);
    // a pointer past the real end is still refused
    assert.equal(wasi.clock_time_get(0, 1000n, 4 * PAGE - 4), ERRNO.FAULT);
  });

  it('args_get writes its strings there too (views made after the check)', () => {
    const memory = memoryBehind();
    const wasi = wasiImports({ memory, args: ['prog', 'x'], env: {}, platform, exit: () => {} });
    assert.equal(wasi.args_get(2 * PAGE, 3 * PAGE), ERRNO.SUCCESS);
    const bytes = new Uint8Array(memory.real.buffer, 3 * PAGE, 7);
    assert.equal(new TextDecoder().decode(bytes), 'prog\0x\0');
  });

  it('the file calls\' guest memory checks against the memory as it is', () => {
    const memory = memoryBehind();
    const guest = guestMemory(memory);
    guest.putU64(2 * PAGE, 7n);
    assert.equal(new DataView(memory.real.buffer).getBigUint64(2 * PAGE, true), 7n);
    assert.throws(() => guest.putU64(4 * PAGE, 7n), (err) => err.errno === ERRNO.FAULT);
  });

  it('bufferCovering grows by nothing, and only where the view ends too soon', () => {
    const memory = memoryBehind();
    assert.equal(bufferCovering(memory, 100).byteLength, PAGE);
    assert.equal(memory.grows, 0);
    assert.equal(bufferCovering(memory, PAGE + 1).byteLength, 4 * PAGE);
    assert.equal(memory.real.buffer.byteLength, 4 * PAGE, 'grow(0) added no page');
    const behind = memoryBehind();
    catchUpMemory(behind);
    assert.equal(behind.buffer.byteLength, 4 * PAGE);
    // an unshared memory is never behind: nothing to catch up
    const unshared = new WebAssembly.Memory({ initial: 1 });
    catchUpMemory(unshared);
    assert.equal(bufferCovering(unshared, 2 * PAGE).byteLength, PAGE);
  });
});
