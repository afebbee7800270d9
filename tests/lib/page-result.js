// Loads a test page (a cross-origin isolated server over `files`) in headless Chromium and
// returns what the page left in window.spindleResult.
import { chromium } from 'playwright-core';
import { playwrightLaunch } from '../../cli/chromium.js';
import { serveIsolated } from '../../cli/isolated-server.js';

export async function pageResult(files, { timeout = 60000 } = {}) {
  const server = await serveIsolated(files);
  const browser = await chromium.launch(playwrightLaunch);
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => window.spindleResult, null, { timeout });
    return await page.evaluate(() => window.spindleResult);
  } finally {
    await browser.close();
    server.close();
  }
}
