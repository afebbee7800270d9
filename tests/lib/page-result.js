// Loads a test page (a cross-origin isolated server over `files`) in a headless browser,
// Chromium or Firefox, and returns what the page left in window.spindleResult. The browser is
// launched as spindle run --browser launches it (cli/browser/browser-process.js), with no driver: the
// page runs in a frame of tests/lib/report-page.html, which posts the result back.
import { join } from 'node:path';
import { launchBrowser } from '../../cli/browser/browser-process.js';
import { browserLaunch } from '../../cli/browser/browsers.js';
import { serveIsolated } from '../../cli/browser/isolated-server.js';

const reportPage = join(import.meta.dirname, 'report-page.html');

export async function pageResult(files, { browser = 'chromium', timeout = 60000 } = {}) {
  let report;
  const reported = new Promise((resolve) => { report = resolve; });
  const server = await serveIsolated({ ...files, '/': reportPage, '/test-page.html': files['/'] },
    { onPost: (path, bytes) => { if (path === '/result') report(JSON.parse(bytes)); } });
  const launched = launchBrowser(browserLaunch(browser), { url: `${server.url}/` });
  let timer;
  try {
    return await Promise.race([
      reported,
      launched.exited.then((why) => { throw new Error(`${browser} ended before the page reported: ${why}`); }),
      new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error(`no page result after ${timeout} ms`)), timeout); }),
    ]);
  } finally {
    clearTimeout(timer);
    await launched.stop();
    server.close();
  }
}
