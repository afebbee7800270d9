// Runs tests/hostile/hostile.c's module in this Node process through the host API, with canary
// files outside the mounts held open on fds of this process, then checks that every canary
// (content, size, still open on the same file) and every fd this process had are intact.
// Writes WORKDIR/result.json (a new file: the module may have closed this process's stdout):
// { exitCode, trap, stdout, stderr, damage: [what changed] }.
//   node node-driver.js MODULE WORKDIR ARGS...   (WORKDIR: empty; mounts and canaries go there)
import { fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProgram, compile } from '../../host/index.js';

const [wasm, work, ...args] = process.argv.slice(2);
const ioWorkers = Number(process.env.HOSTILE_IO_WORKERS || 0);
for (const d of ['m0', 'm1', 'outside']) mkdirSync(join(work, d), { recursive: true });
writeFileSync(join(work, 'm0', 'in.txt'), 'inside');
const canaryText = 'canary: nobody may touch this file\n'.repeat(4);
const canaries = ['r', 'r+', 'a+'].map((flags, i) => {
  const path = join(work, 'outside', `canary${i}`);
  writeFileSync(path, canaryText);
  const fd = openSync(path, flags);
  return { path, fd, ino: fstatSync(fd).ino };
});
const fdsBefore = () => new Map(readdirSync('/proc/self/fd').map((fd) => {
  try { return [fd, readlinkSync(`/proc/self/fd/${fd}`)]; } catch { return [fd, null]; }
}));
const before = fdsBefore();

// the program's stdout and stderr go to files (fds of this process, so canaries too)
const stdio = ['stdout', 'stderr'].map((name) => openSync(join(work, `${name}.txt`), 'w'));
const program = await createProgram(await compile(readFileSync(wasm)), {
  args: ['hostile', ...args],
  mounts: [{ path: '/m0', hostDir: join(work, 'm0'), ioWorkers }, { path: '/m1', hostDir: join(work, 'm1'), ioWorkers }],
  stdout: stdio[0],
  stderr: stdio[1],
});
program.start();
const result = await program.exited;
program.dispose();

const damage = [];
for (const c of canaries) {
  try {
    const st = fstatSync(c.fd);
    if (st.ino !== c.ino) damage.push(`${c.path}: fd ${c.fd} now names another file`);
    const buf = Buffer.alloc(canaryText.length + 16);
    const n = readSync(c.fd, buf, 0, buf.length, 0);
    if (buf.subarray(0, n).toString() !== canaryText) damage.push(`${c.path}: fd ${c.fd} reads other bytes`);
  } catch (err) {
    damage.push(`${c.path}: fd ${c.fd}: ${err.code}`);
  }
  if (readFileSync(c.path, 'utf8') !== canaryText) damage.push(`${c.path}: content or size changed`);
}
const after = fdsBefore();
for (const [fd, target] of before) {
  // (the fd that listed /proc/self/fd itself is gone by design)
  if (target === null || target.startsWith('/proc/')) continue;
  if (after.get(fd) !== target) damage.push(`fd ${fd} (${target}) ${after.has(fd) ? `now ${after.get(fd)}` : 'closed'}`);
}
writeFileSync(join(work, 'result.json'), JSON.stringify({ exitCode: result.exitCode, trap: result.trap, stdout: readFileSync(join(work, 'stdout.txt'), 'utf8'), stderr: readFileSync(join(work, 'stderr.txt'), 'utf8'), damage }));
