#!/usr/bin/env node
// Where creating small files on raw OPFS spends its time, in headless Chromium and Firefox
// (docs/OPFS.md, "Firefox"): `node bench/opfs/create-cost.js [--files=200] [--browsers=chromium,firefox]`
// prints one RESULT line per browser with each step's median and total (bench/opfs/create-cost-worker.js).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveIsolated } from '../../cli/isolated-server.js';
import { driverPost, driverRoutes } from '../../tests/lib/page-driver.js';
import { openProfile } from '../../tests/opfs/profile.js';

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const files = Number(arg('files', 200));
const browsers = arg('browsers', 'chromium,firefox').split(',');

const server = await serveIsolated(driverRoutes, { onPost: driverPost }); // Firefox's page is driven (tests/lib/page-driver.js)
try {
  for (const browser of browsers) {
    const profile = mkdtempSync(join(tmpdir(), 'spindle-create-cost-'));
    const b = await openProfile(profile, `${server.url}/`, { browser });
    try {
      const r = await b.page.evaluate((n) => new Promise((resolve) => {
        const w = new Worker('bench/opfs/create-cost-worker.js', { type: 'module' });
        w.onmessage = (e) => resolve(e.data);
        w.onerror = (e) => resolve({ error: e.message });
        w.postMessage({ files: n });
      }), files);
      const version = await b.page.evaluate(() => navigator.userAgent);
      console.log(`RESULT ${browser} ${JSON.stringify({ version, ...r })}`);
    } finally {
      await b.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }
} finally {
  server.close();
}
