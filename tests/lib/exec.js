// Runs a command to its end and gives back { code, stdout, stderr } (Buffers decoded as UTF-8).
import { spawn } from 'node:child_process';

export function exec(cmd, args, { input, env, cwd, timeoutMs = 120000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: env ?? process.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = []; const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    const timer = setTimeout(() => { child.kill('SIGKILL'); }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code: code ?? (signal ? 128 + ({ SIGKILL: 9, SIGABRT: 6, SIGILL: 4, SIGSEGV: 11, SIGTRAP: 5 }[signal] ?? 0) : -1),
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    child.stdin.on('error', () => {}); // the program may exit without reading its input
    child.stdin.end(input ?? '');
  });
}

/** Runs `fn` over `items`, at most `limit` at a time. */
export async function inParallel(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  }));
  return results;
}
