// The soak run (bench/soak/soak.js): 4 threads churning malloc/free and files on a host mount and
// in the module's own /tmp. With SPINDLE_TEST_LONG=1 it runs 10 minutes and holds resident memory
// flat after the first minute; otherwise 10 seconds, which checks that no file is lost and the fd
// table does not grow, and keeps the soak itself from rotting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RSS_GROWTH, soak } from '../bench/soak/soak.js';

const long = process.env.SPINDLE_TEST_LONG === '1';

describe('soak: malloc/free and file churn on 4 threads', () => {
  it(long ? '10 minutes: nothing lost, fds flat, resident memory flat after the first minute' : '10 seconds: nothing lost, fds flat', async () => {
    const r = await soak({ seconds: long ? 600 : 10, threads: 4 });
    const v = r.verdict;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(v.files > 0, 'files were written');
    assert.equal(v.lost, 0);
    assert.ok(v.fdsFlat, `fds: ${r.result?.fds_start} before the threads, ${r.samples.map((s) => s.fds)} while they ran, ${r.result?.fds_end} after`);
    console.log(`    ${v.files} files, resident ${v.rssAtWarm?.toFixed(0)} -> at most ${v.rssMax?.toFixed(0)} MiB`);
    if (long) assert.ok(v.rssFlat, `resident memory grew ${(v.rssGrowth * 100).toFixed(1)}% after the first minute (limit ${RSS_GROWTH * 100}%)`);
  });
});
