// Stress run for the teardown of host-directory mounts (docs/HOST.md, "Who closes a thread's
// fds"): in one process, over and over, what tests/mount.test.js does in a row: a program on a
// mount, the same through I/O workers, then one whose I/O worker is killed mid-read. A mount's
// fds closed twice once crashed (SIGABRT in uv_async_send) or hung the next program, but only
// under load. Not part of the default suite:
//   node tests/stress/mount-teardown.js [ITERATIONS=100] [BUSY_LOOPS=3]
// BUSY_LOOPS child processes spin on the cores meanwhile, as the rest of the suite did in CI.
// Exit code 0: every iteration passed; a crash or hang shows as the process's own end.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exec } from '../lib/exec.js';
import { compile, runProgram } from '../../host/index.js';

const root = join(import.meta.dirname, '..', '..');
const iterations = Number(process.argv[2] ?? 100);
const busyLoops = Number(process.argv[3] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'spindle-mount-teardown-'));
const host = join(work, 'host');
mkdirSync(host);
writeFileSync(join(host, 'in.txt'), 'from the host\n');
writeFileSync(join(host, 'big'), Buffer.alloc(8 << 20, 7));
writeFileSync(join(work, 'copy.c'), `#include <stdio.h>
int main(void) {
  char line[64] = "";
  FILE *in = fopen("/m/in.txt", "r");
  if (!in || !fgets(line, sizeof line, in)) return 1;
  fclose(in);
  FILE *o = fopen("/m/out.txt", "w");
  return !o || fprintf(o, "got: %s", line) < 0 || fclose(o) != 0;
}
`);

async function build(source, name) {
  const wasm = join(work, `${name}.wasm`);
  const r = await exec(join(root, 'bin', 'spindle'), ['cc', '-O2', source, '-o', wasm]);
  if (r.code !== 0) throw new Error(`building ${name}: ${r.stderr}`);
  return readFileSync(wasm);
}

function check(result, what) {
  if (result.exitCode !== 0) throw new Error(`${what}: exit ${result.exitCode} ${result.trap ?? ''}`);
}

// tests/mount/programs/ioworker_dies.c, its I/O worker 0 terminated once it is reading
async function runWithDyingWorker(compiled) {
  const outFile = join(work, 'stdout');
  const outFd = openSync(outFile, 'w');
  let workers = null;
  const poll = setInterval(() => {
    if (!workers || !readFileSync(outFile, 'utf8').includes('reading')) return;
    clearInterval(poll);
    setTimeout(() => workers[0].terminate(), 50);
  }, 20);
  const consoleError = console.error;
  console.error = () => {}; // the host's message about the dead worker
  try {
    return await runProgram(compiled, { args: ['ioworker_dies', '/m/big'], stdout: outFd,
      mounts: [{ path: '/m', hostDir: host, ioWorkers: 1, onIoWorkers: (ws) => { workers = ws; } }] });
  } finally {
    console.error = consoleError;
    clearInterval(poll);
    closeSync(outFd);
  }
}

const copyBytes = await build(join(work, 'copy.c'), 'copy');
const diesBytes = await build(join(root, 'tests', 'mount', 'programs', 'ioworker_dies.c'), 'ioworker_dies');
// (each spinner ends by itself once this process is gone, crashed included)
const spin = 'const parent = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent) process.exit(); }';
const spinners = Array.from({ length: busyLoops }, () => spawn(process.execPath, ['-e', spin], { stdio: 'ignore' }));
try {
  for (let i = 1; i <= iterations; i++) {
    const copy = await compile(copyBytes);
    check(await runProgram(copy, { mounts: [{ path: '/m', hostDir: host }] }), 'on a mount');
    check(await runProgram(copy, { mounts: [{ path: '/m', hostDir: host, ioWorkers: 2 }] }), 'through I/O workers');
    check(await runWithDyingWorker(await compile(diesBytes)), 'with an I/O worker killed');
    if (i % 10 === 0) console.log(`${i} iterations passed`);
  }
  console.log(`all ${iterations} iterations passed`);
} finally {
  spinners.forEach((child) => child.kill());
  rmSync(work, { recursive: true, force: true });
}
