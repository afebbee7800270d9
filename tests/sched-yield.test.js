// WASI's sched_yield (host/wasi/imports.js): it returns 0 whatever the module passes, and calls the
// host's way to give up the CPU once (Node: the mount addon's sched_yield(2); browsers and Node
// without the addon: host/platform/sleepy-yield.js). tests/programs/yield_spinlock.c runs a
// spin-then-yield lock in Node and Chromium (tests/programs.test.js); docs/HOST.md has timings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wasiImports } from '../host/wasi/imports.js';
import { sleepyYield } from '../host/platform/sleepy-yield.js';

const imports = (platform) => wasiImports({
  memory: new WebAssembly.Memory({ initial: 1 }), args: ['yield'], env: {}, platform, exit: () => {},
});

describe('sched_yield', () => {
  it('returns 0 and yields once a call, whatever the module passes', () => {
    let yields = 0;
    const wasi = imports({ yieldCpu: () => { yields += 1; } });
    assert.deepEqual([wasi.sched_yield(), wasi.sched_yield(1, -1, 2 ** 31)], [0, 0]);
    assert.equal(yields, 2);
  });

  it('returns 0 where the host has no way to yield', () => {
    assert.equal(imports({ yieldCpu: null }).sched_yield(), 0);
    assert.equal(imports({}).sched_yield(), 0);
  });

  it('without a way to yield, sleeps at one call in many: the rest return at once', () => {
    const waits = [];
    const realWait = Atomics.wait;
    Atomics.wait = (...args) => waits.push(args[3]);
    try {
      const yieldCpu = sleepyYield(4);
      for (let i = 0; i < 12; i++) yieldCpu();
    } finally {
      Atomics.wait = realWait;
    }
    assert.equal(waits.length, 3);
    assert.ok(waits.every((ms) => ms > 0 && ms < 1), 'a wait shorter than a millisecond');
  });
});
