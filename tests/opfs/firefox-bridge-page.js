// The page half of tests/opfs/firefox.js: fetches the test's next function from the server,
// calls it with its argument, awaits it and posts back its value (or its error). Playwright's
// page.evaluate, for a stock Firefox, which Playwright cannot drive.
async function serveCalls() {
  for (;;) {
    const r = await fetch('__bridge/next', { cache: 'no-store' });
    if (!r.ok) return;
    const { id, src, arg } = await r.json();
    let answer;
    try {
      const fn = (0, eval)(`(${src})`); // the test's own function source
      answer = { value: await fn(arg) };
    } catch (err) {
      answer = { error: String(err?.stack || err) };
    }
    await fetch('__bridge/done', { method: 'POST', body: JSON.stringify({ id, ...answer }) });
  }
}
serveCalls();
