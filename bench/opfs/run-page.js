// Loaded into a page by bench/opfs/spindle-opfs.js and tests/opfs.test.js: runs Spindle modules through the host API with
// OPFS mounts. window.spindleRun(url, options) resolves { exitCode, trap, stdout, stderr };
// window.spindleOut holds the stdout so far (a test can wait for a line while the program runs).
import { run } from '../../host/index.js';

window.spindleOut = '';
window.spindleRun = async (url, options) => {
  let stdout = '';
  let stderr = '';
  const dec = new TextDecoder();
  try {
    const r = await run(url, {
      ...options,
      onStdio: (fd, bytes) => {
        const text = dec.decode(bytes);
        if (fd === 2) stderr += text;
        else { stdout += text; window.spindleOut += text; }
      },
    });
    return { exitCode: r.exitCode, trap: r.trap, stdout, stderr };
  } catch (err) {
    return { error: String(err?.stack || err), stdout, stderr };
  }
};
window.spindleReady = true;
