// `spindle bench`: builds the experiments of bench/experiments.js that the run picks (mainJob),
// runs each variant at each thread count in Node (and/or headless Chromium, Firefox and WebKit, and natively),
// interleaving runs so machine noise spreads over all of them, and writes one results folder:
// table.txt, results.json (every run's raw numbers and the machine), SVG charts and a
// self-contained report.html.
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism, cpus, hostname, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { experiments as defineExperiments, mainJob } from '../../bench/experiments.js';
import { browserHosts, hostTitle, versionNumber } from '../../bench/hosts.js';
import { charts, html, tableText } from '../../bench/report/report.js';
import { Progress } from './bench-progress.js';
import { benchRunMode, runModeWords } from './bench-run-mode.js';
import { BrowserSession } from '../browser/browser-session.js';
import { parseBrowserNames, requireBrowser } from '../browser/browsers.js';
import { chromiumPath } from '../browser/chromium.js';
import { firefoxPath } from '../browser/firefox.js';
import { webkitVersion } from '../browser/webkit.js';
import { onInterrupt } from '../common/interrupt.js';
import { CLI_NODE_FLAGS } from '../common/v8-start.js';
import { codeMadeFor } from '../../bench/spindle-command.js';
import { isCurrentNode, rerunWithNode } from './node-binary.js';
import { bundleUsable } from '../common/bundles.js';
import { readOption } from '../common/options.js';
import { clang, root } from '../common/toolchain.js';
import { benchUsage } from '../common/usage.js';

const { existsSync, mkdirSync, readFileSync, writeFileSync } = process.getBuiltinModule('node:fs');

const options = {
  '--node': 'switch', '--browser': () => false, '--quick': 'switch', '--full': 'switch', '--open': 'switch', '--help': 'switch',
  '--build-only': 'switch', // e.g. to carry build/bench to a bigger machine
  '--prebuilt': 'switch', // run build/bench as it is: no toolchain needed
  '--threads': 'thread counts', '--runs': 'a number of runs', '--only': 'a regex', '--variants': 'a regex',
  '--out': 'a folder', '--from': 'a results.json',
  '--node-bin': 'a Node binary', // e.g. .toolchain/node-26.12.1/bin/node
  '--as-user': 'switch', // the wasm runs as a user runs them (cli/bench/bench-run-mode.js)
};

// The thread counts of a scaling curve, up to the 16 cores of the machine the targets are for.
const scalingSweep = [1, 2, 4, 8, 16];

export function parseBenchArgs(argv) {
  const cores = availableParallelism();
  const opts = { node: false, browsers: [], threads: null, runs: null, quick: false, full: false, only: null, variants: null, out: null, open: false, from: null,
    buildOnly: false, prebuilt: false, nodeBin: null, asUser: false, help: false };
  for (let i = 0; i < argv.length;) {
    const option = readOption(argv, i, options);
    if (!option) throw new Error(`unknown option ${argv[i]}\n${benchUsage}`);
    const { flag, value } = option;
    i = option.next;
    if (flag === '--help') opts.help = true;
    else if (flag === '--node') opts.node = true;
    else if (flag === '--browser') opts.browsers = parseBrowserNames(value); // alone: Chromium; or e.g. chromium,firefox
    else if (flag === '--quick') opts.quick = true;
    else if (flag === '--full') opts.full = true;
    else if (flag === '--open') opts.open = true;
    else if (flag === '--build-only') opts.buildOnly = true;
    else if (flag === '--prebuilt') opts.prebuilt = true;
    else if (flag === '--as-user') opts.asUser = true;
    else if (flag === '--threads') {
      opts.threads = value.split(',').map(Number);
      if (opts.threads.some((t) => !Number.isInteger(t) || t < 1 || t > 256)) throw new Error(`--threads=${value}: expected e.g. 1,2,4`);
    } else if (flag === '--runs') {
      opts.runs = Number(value);
      if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error(`--runs=${value}: expected a positive integer`);
    } else if (flag === '--only') opts.only = new RegExp(value);
    else if (flag === '--variants') opts.variants = new RegExp(value); // e.g. '^(spindle-fs|js-fs|native-tmpfs)$'
    else if (flag === '--out') opts.out = value;
    else if (flag === '--from') opts.from = value;
    else if (flag === '--node-bin') opts.nodeBin = value;
  }
  if (!opts.node && !opts.browsers.length) opts.node = true;
  if (opts.buildOnly && opts.prebuilt) throw new Error(`--build-only and --prebuilt exclude each other\n${benchUsage}`);
  const usual = opts.quick ? [1, 2] : [1, 2, 2 * cores];
  const sorted = (counts) => [...new Set(counts)].sort((a, b) => a - b);
  // The thread-scaling experiments (`sweep`) run at 1..16 threads with --full; --threads sets both.
  opts.sweepThreads = sorted(opts.threads ?? (opts.full ? scalingSweep : usual));
  opts.threads = sorted(opts.threads ?? usual);
  opts.runs ??= opts.quick ? 1 : opts.full ? 5 : 3;
  return opts;
}

function collect(cmd, args, { timeoutMs = 10 * 60 * 1000, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env });
    const out = []; const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    const forget = onInterrupt(() => child.kill('SIGKILL')); // no run outlives an interrupted bench
    child.on('close', (code) => {
      clearTimeout(timer);
      forget();
      const stdout = Buffer.concat(out).toString();
      // (how far a run that never ended got: whether its program printed its result, or not)
      const killed = timedOut ? `\nkilled after ${timeoutMs / 1000} s without ending; its stdout ended with: ${JSON.stringify(stdout.slice(-300))}` : '';
      resolve({ code, stdout, stderr: Buffer.concat(err).toString() + killed });
    });
  });
}

function parseResult(stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no RESULT line in output:\n${stdout.slice(-500)}`);
  const result = JSON.parse(line.slice('RESULT '.length));
  if (result.ms === undefined && typeof result.seconds === 'number') result.ms = result.seconds * 1000;
  return result;
}

async function build(experiment, variant, dir, prebuilt) {
  const src = join(root, experiment.source);
  const out = join(dir, `${variant.id}.${variant.kind === 'wasm' ? 'wasm' : 'native'}`);
  if (prebuilt) {
    if (!existsSync(out)) throw new Error(`--prebuilt: ${out} is missing (build it with spindle bench --build-only)`);
    return out;
  }
  if (variant.kind === 'wasm') {
    const r = await collect(process.execPath, [join(root, 'bin', 'spindle'), 'cc', '-O2', ...variant.ccFlags, src, '-o', out]);
    if (r.code !== 0) throw new Error(`spindle cc ${variant.ccFlags.join(' ')} ${experiment.source} failed:\n${r.stderr}`);
    return out;
  }
  for (const lib of variant.libs) {
    if (!existsSync(lib) && lib.includes('mimalloc')) await collect('bash', [join(root, 'tools', 'mimalloc', 'build.sh')]);
    if (!existsSync(lib)) throw new Error(`${lib} is missing`);
  }
  const r = await collect(clang, ['-O2', '-pthread', src, ...variant.libs, '-o', out]);
  if (r.code !== 0) throw new Error(`native build of ${experiment.source} failed:\n${r.stderr}`);
  return out;
}

/** A browser's `--version` line; null when it is not installed. */
function browserVersion(path) {
  try { return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim(); } catch { return null; }
}

/** The machine, the browsers the browser series run in and their versions. */
function machine(browsers) {
  return {
    host: hostname(), cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, chromium: browserVersion(chromiumPath),
    ...(browsers.includes('firefox') ? { firefox: browserVersion(firefoxPath) } : {}),
    ...(browsers.includes('webkit') ? { webkit: webkitVersion() } : {}), browsers, loadBefore: loadavg(),
  };
}

/** A wasm series' host in its label: "node", or the browser and its major version ("Firefox 153", "WebKit 2.50"). */
function hostLabel(host, m) {
  if (host === 'node') return host;
  const version = versionNumber(host === 'firefox' ? m.firefox : host === 'webkit' ? m.webkit : m.chromium);
  // WebKitGTK's releases are its minor versions (2.50)
  const major = version?.split('.').slice(0, host === 'webkit' ? 2 : 1).join('.');
  return `${hostTitle(host, m)}${major ? ` ${major}` : ''}`;
}

/** Writes table.txt, results.json, the SVG charts and report.html of `results` into `outDir`. */
function writeOutputs(results, outDir) {
  mkdirSync(outDir, { recursive: true });
  const table = tableText(results);
  writeFileSync(join(outDir, 'table.txt'), `${table}\n`);
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 1)}\n`);
  for (const e of results.experiments) for (const c of charts(e, results.machine)) writeFileSync(join(outDir, c.name), c.svg);
  writeFileSync(join(outDir, 'report.html'), html(results));
  return table;
}

// Runs are timed as a user's are, from the run bundle that setup makes (cli/run/run-bundle.js):
// one that an edit since has left stale would have every run load the modules instead, ~10 ms
// more per start, so it is made again first. SPINDLE_BUNDLE=0 times the modules on purpose.
function runBundleCurrent() {
  if (process.env.SPINDLE_BUNDLE === '0' || bundleUsable(root)) return;
  process.stderr.write('[bench] the run bundle is older than its modules: making it again (scripts/build-run-bundle.js)\n');
  execFileSync(process.execPath, [join(root, 'scripts', 'build-run-bundle.js')], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (!bundleUsable(root)) throw new Error('the run bundle is still not current after scripts/build-run-bundle.js');
}

export async function bench(argv) {
  const opts = parseBenchArgs(argv);
  if (opts.help) { process.stdout.write(benchUsage); return 0; }
  if (opts.from) {
    if (!opts.out) throw new Error('--from needs --out=DIR');
    writeOutputs(JSON.parse(readFileSync(opts.from, 'utf8')), opts.out);
    process.stdout.write(`report: ${join(opts.out, 'report.html')}\n`);
    return 0;
  }
  if (!opts.buildOnly) opts.browsers.forEach(requireBrowser); // before minutes of building
  if (!opts.buildOnly) runBundleCurrent();
  // The whole job runs again under that Node; the run there finds itself current and goes on.
  if (opts.nodeBin && !isCurrentNode(opts.nodeBin)) return rerunWithNode(opts.nodeBin, ['bench', ...argv]);
  // By default every Node run times TurboFan code, whatever this Node's default
  // (host/compile/wasm-tiers.js); --as-user runs as a user does.
  const runMode = benchRunMode(opts);
  const started = new Date();
  const m = machine(opts.browsers);
  const browserOf = Object.fromEntries(opts.browsers.map((b) => [browserHosts[b], b])); // host -> browser
  const hosts = [...(opts.node ? ['node'] : []), ...Object.keys(browserOf)];
  const list = mainJob(defineExperiments({ root, quick: opts.quick, full: opts.full }), opts);
  const stamp = started.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const outDir = opts.out ?? join(root, 'results', `${stamp}-${m.host}`);
  const buildDir = join(root, 'build', 'bench');
  // outDir is made by writeOutputs, once there are results: an interrupted run leaves none.

  // Build everything first; a variant that fails to build is reported, not fatal.
  const results = { started: started.toISOString(), machine: m, options: { ...opts, only: opts.only?.source ?? null, variants: opts.variants?.source ?? null, hosts, runModes: runModeWords(opts) }, experiments: [] };
  const jobs = [];
  const suites = [];
  const builds = []; // { e, v, dir, entry, threads }
  for (const e of list) {
    const dir = join(buildDir, e.id);
    if (e.suite) { // runs its own interleaved runs on one host, after the job loop (runSuite)
      if (!hosts.includes(e.host)) continue;
      mkdirSync(dir, { recursive: true });
      const entry = { id: e.id, title: e.title, chart: e.chart, baseline: e.baseline, source: e.source, note: e.note, cores: m.cores,
        threads: e.points, pointLabel: 'case', speedupOf: e.speedupOf, series: [] };
      for (const v of e.variants) entry.series.push({ id: `${v.id}@${e.host}`, variant: v.id, host: e.host, label: v.label, runs: {} });
      results.experiments.push(entry);
      suites.push({ e, entry, dir });
      continue;
    }
    mkdirSync(dir, { recursive: true });
    const threads = e.points ?? (e.sweep ? opts.sweepThreads : opts.threads).filter((t) => t >= (e.minThreads ?? 1));
    const entry = { id: e.id, title: e.title, chart: e.chart, baseline: e.baseline, source: e.source, note: e.note, cores: m.cores,
      threads, pointLabel: e.points ? 'where' : 'threads', speedupOf: e.speedupOf, series: [] };
    results.experiments.push(entry);
    for (const v of e.variants.filter((x) => !opts.variants || opts.variants.test(x.id))) builds.push({ e, v, dir, entry, threads });
  }
  const hostsOf = (v) => (v.kind === 'wasm' ? hosts : ['native']);
  const jobKey = (e, v, host, t) => `${e.id}/${v.id}@${host}/${t}`;
  const progress = new Progress({ units: [
    { key: 'build', count: builds.length, guessS: 3 },
    ...(opts.buildOnly ? [] : [
      ...builds.flatMap(({ e, v, threads }) => hostsOf(v).flatMap((host) => threads.map((t) => ({ key: jobKey(e, v, host, t), count: opts.runs })))),
      ...suites.map(({ e }) => ({ key: `suite:${e.id}`, count: 1, guessS: e.estimateS?.(opts) })),
    ]),
  ] });

  // Build everything first; a variant that fails to build is reported, not fatal.
  for (const { e, v, dir, entry, threads } of builds) {
    progress.begin('build', `building ${e.id} / ${v.id}`);
    let binary; let error;
    try { binary = await build(e, v, dir, opts.prebuilt); } catch (err) { error = err.message; }
    for (const host of hostsOf(v)) {
      const series = { id: `${v.id}@${host}`, variant: v.id, host, label: v.kind === 'wasm' ? `${v.label} (${hostLabel(host, m)})` : v.label, runs: {}, error };
      entry.series.push(series);
      for (const t of threads) {
        series.runs[t] = [];
        jobs.push({ key: jobKey(e, v, host, t), e, entry, series, host, binary, t, args: e.args(t).map(String), env: v.env, variant: v });
      }
    }
  }
  progress.end();
  // Spindle's Node runs load TurboFan code made for them from the first measured run on: made now
  // where `spindle cc` has not (prebuilt modules), and waited for, so that no run shares the CPU
  // with the compile (cli/common/turbofan-maker.js)
  const spindleModules = new Set(jobs.filter((j) => j.host === 'node' && j.variant.runner !== 'npm-wasi' && !j.series.error).map((j) => j.binary));
  await codeMadeFor(...spindleModules);

  if (opts.buildOnly) { // the io suites build as they run, so they are not part of this
    const failed = results.experiments.flatMap((e) => e.series.filter((s) => s.error).map((s) => `${e.id} / ${s.label}: ${s.error}`));
    progress.finish();
    process.stdout.write(failed.length ? `build failed:\n${failed.join('\n')}\n` : `built into ${buildDir}\n`);
    return failed.length ? 1 : 0;
  }
  const sessions = await openBrowserSessions(browserOf, runMode); // host -> its open browser
  try {
    for (let run = 1; run <= opts.runs; run++) {
      for (const job of jobs) {
        if (job.series.error || job.series.na?.[job.t]) { progress.skip(job.key); continue; }
        const point = typeof job.t === 'number' ? `${job.t} thread(s)` : job.t;
        progress.begin(job.key, `${job.entry.id}: ${job.series.label}, ${point}, run ${run}/${opts.runs}`);
        try {
          job.series.runs[job.t].push(await runOnce(job, sessions[job.host], runMode));
        } catch (err) {
          // A host that cannot run this point says why (n/a); the series' other points still run.
          if (err.notAvailable) (job.series.na ??= {})[job.t] = err.notAvailable;
          else job.series.error = err.message.split('\n').slice(0, 6).join('\n');
        }
        progress.end();
      }
    }
  } finally {
    for (const session of Object.values(sessions)) await session.close();
  }
  for (const suite of suites) await runSuite(suite, opts, progress);
  progress.finish();
  m.loadAfter = loadavg();
  results.finished = new Date().toISOString();

  const table = writeOutputs(results, outDir);
  process.stdout.write(`${table}\n\n`);
  for (const e of results.experiments) {
    for (const s of e.series) if (s.error) process.stdout.write(`note: ${e.id} / ${s.label} failed: ${s.error}\n`);
    for (const s of e.series) {
      for (const [t, why] of Object.entries(s.na ?? {})) process.stdout.write(`note: ${e.id} / ${s.label} / ${t}: n/a: ${why}\n`);
    }
  }
  process.stdout.write(`results: ${outDir}\nreport:  ${join(outDir, 'report.html')}\n`);
  if (opts.open) spawn('xdg-open', [join(outDir, 'report.html')], { stdio: 'ignore', detached: true }).on('error', () => {});
  return 0;
}

/**
 * One open browser per browser host (`browserOf`: host -> browser name), each with its npm WASI
 * host (bench/npm-wasi): pages that run in a browser of their own, opened when first needed.
 * close() ends both.
 */
async function openBrowserSessions(browserOf, runMode) {
  const sessions = {};
  for (const [host, browser] of Object.entries(browserOf)) {
    const session = await BrowserSession.open({ browser, optimizedFromStart: runMode.optimizedFromStart });
    let npmBrowser = null;
    sessions[host] = {
      run: (...args) => session.run(...args),
      npmWasi: () => (npmBrowser ??= import('../../bench/npm-wasi/run-browser.mjs').then((x) => x.NpmWasiBrowser.open({ browser }))),
      close: async () => {
        await session.close();
        if (npmBrowser) await (await npmBrowser).close();
      },
    };
  }
  return sessions;
}

/**
 * An experiment with `suite` (bench/io/suites.js): `suite({ runs, quick, buildDir, progress })`
 * builds what it needs, runs its variants interleaved itself and resolves { runs: { variantId:
 * { point: [{ ms, ... }] } }, targets: [{ label, value, op, limit, met, perRun, context }], info }.
 * A suite that throws marks every series failed.
 */
async function runSuite({ e, entry, dir }, opts, progress) {
  progress.begin(`suite:${e.id}`, `${e.id}: starting`);
  try {
    const r = await e.suite({ runs: opts.runs, quick: opts.quick, buildDir: dir, progress: (text) => progress.say(`${e.id}: ${text}`) });
    for (const s of entry.series) s.runs = r.runs[s.variant] ?? {};
    entry.targets = r.targets ?? [];
    entry.info = r.info;
  } catch (err) {
    for (const s of entry.series) s.error = err.message.split('\n').slice(0, 6).join('\n');
  }
}

/** The output of a run that a host could not do: its `NA reason` line becomes the point's n/a. */
function notAvailable(stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('NA '));
  if (!line) return null;
  return Object.assign(new Error(line), { notAvailable: line.slice('NA '.length) });
}

/** One run of a job: its RESULT object, with `wall_ms` added, the run's time from spawn to exit. */
async function runOnce(job, session, runMode) {
  const started = performance.now();
  const result = await runProgram(job, session, runMode);
  return { ...result, wall_ms: performance.now() - started };
}

async function runProgram(job, session, runMode) {
  if (job.variant.runner === 'npm-wasi' && job.host === 'node') {
    const r = await collect(process.execPath, [join(root, 'bench', 'npm-wasi', 'run-node.mjs'), `--c-main=${job.variant.cMain}`,
      job.binary, ...job.args]);
    const na = notAvailable(r.stdout);
    if (na) throw na;
    if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
    return parseResult(r.stdout);
  }
  if (job.variant.runner === 'npm-wasi') {
    const r = await (await session.npmWasi()).run(job.binary, { cMain: job.variant.cMain, args: job.args });
    if (r.na) throw Object.assign(new Error(r.na), { notAvailable: r.na });
    if (r.exitCode !== 0) throw new Error(`exit ${r.exitCode}${r.trap ? ` (${r.trap})` : ''}: ${r.stderr}`);
    return parseResult(r.stdout);
  }
  if (job.host === 'native') {
    const r = await collect(job.binary, job.args, { env: job.env });
    if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
    return parseResult(r.stdout);
  }
  if (job.host === 'node') {
    const r = await collect(process.execPath, [...CLI_NODE_FLAGS, join(root, 'bin', 'spindle'), 'run', ...runMode.runFlags, job.binary, ...job.args]);
    if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}`);
    return parseResult(r.stdout);
  }
  const out = []; const err = [];
  const { exitCode, trap } = await session.run(job.binary, {
    args: [job.binary.split('/').pop(), ...job.args],
    waitForPool: runMode.waitForPool,
    freshCompile: runMode.freshCompile,
    write: (fd, bytes) => (fd === 1 ? out : err).push(Buffer.from(bytes)),
  });
  if (exitCode !== 0) throw new Error(`exit ${exitCode}${trap ? ` (${trap})` : ''}: ${Buffer.concat(err)}`);
  return parseResult(Buffer.concat(out).toString());
}
