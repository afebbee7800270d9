// The bench's report and runner parts that need no benchmark run: verdicts and the machine's
// state first, min-max bars and paired styles in the charts, the progress line and its time
// left, and which experiments the default run, --quick and --full pick.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { experiments, mainJob } from '../bench/experiments.js';
import { charts, html, tableText } from '../bench/report/report.js';
import { machineState, verdicts } from '../bench/report/summary.js';
import { parseBenchArgs } from '../cli/bench/bench.js';
import { runModeWords } from '../cli/bench/bench-run-mode.js';
import { Progress } from '../cli/bench/bench-progress.js';

const root = join(import.meta.dirname, '..');
const runs = (...ms) => ms.map((v) => ({ ms: v, mops_per_s: 1000 / v }));
const allocators = ['spindle', 'dlmalloc', 'mimalloc'];

/** A results object as cli/bench/bench.js writes it: the reference malloc workload on two hosts. */
function results({ loadBefore = [0.1, 0.2, 0.3], cores = 2 } = {}) {
  const series = ['node', 'browser'].flatMap((host) => allocators.map((a) => ({
    id: `${a}@${host}`, variant: a, host, label: `${a} (${host})`,
    // dlmalloc 2x slower at 1 thread and 5x slower at 2; Spindle x1.8 at 2 threads
    runs: a === 'dlmalloc' ? { 1: runs(900, 1000, 800), 2: runs(5000, 4000, 6000) }
      : a === 'spindle' ? { 1: runs(450, 500, 400), 2: runs(250, 280, 240) } : { 1: runs(900, 910, 890), 2: runs(500, 490, 480) },
  })));
  series.push({ id: 'native-mimalloc@native', variant: 'native-mimalloc', host: 'native', label: 'native mimalloc',
    runs: { 1: runs(400, 410, 420), 2: runs(220, 230, 240) } });
  return {
    started: '2026-01-01T00:00:00.000Z', finished: '2026-01-01T00:05:00.000Z',
    machine: { host: 'test', cores, cpu: 'cpu', memoryGiB: 4, node: 'v20', chromium: null, loadBefore, loadAfter: [2, 1, 0.5] },
    options: { runs: 3, quick: false },
    experiments: [{ id: 'malloc-reference', title: 'Reference malloc workload', chart: 'throughput', baseline: 'dlmalloc',
      cores, threads: [1, 2], pointLabel: 'threads', series }],
  };
}

describe('bench report: verdicts first', () => {
  it('evaluates every target from the runs, with its value in each run', () => {
    const v = verdicts(results());
    assert.deepEqual(v.map((t) => [t.label, t.met]), [
      ['Node: Spindle speed / dlmalloc speed, 1 thread', true], ['Node: Spindle 2-thread speed-up', true],
      ['Chromium: Spindle speed / dlmalloc speed, 1 thread', true], ['Chromium: Spindle 2-thread speed-up', true]]);
    assert.equal(v[0].value, 2); // median 900 / median 450
    assert.deepEqual(v[0].perRun, [2, 2, 2]);
    assert.ok(Math.abs(v[1].value - 450 / 250) < 1e-9);
  });

  it('names the browser the browser series ran in (spindle bench --browser=firefox)', () => {
    const r = results();
    r.machine = { ...r.machine, browser: 'firefox', firefox: 'Mozilla Firefox 153.7.0esr' };
    assert.deepEqual(verdicts(r).slice(2).map((t) => t.label), ['Firefox: Spindle speed / dlmalloc speed, 1 thread', 'Firefox: Spindle 2-thread speed-up']);
    assert.match(tableText(r), /\nmet {6}malloc-reference {2}Firefox: Spindle 2-thread speed-up/);
    assert.match(html(r), /Node v20, Mozilla Firefox 153\.7\.0esr\./);
  });

  // Chromium's series again as another browser's (host `host`, labelled `label`), as a bench with
  // --browser=chromium,HOST gives them.
  const addBrowserSeries = (r, host, label) => r.experiments[0].series.push(...r.experiments[0].series.filter((s) => s.host === 'browser')
    .map((s) => ({ ...s, id: s.id.replace('@browser', `@${host}`), host, label: s.label.replace('browser', label) })));

  it('holds both browsers\' series to the targets and names both versions (--browser=chromium,firefox)', () => {
    const r = results();
    addBrowserSeries(r, 'firefox', 'Firefox 153');
    r.machine = { ...r.machine, browsers: ['chromium', 'firefox'], chromium: 'Chromium 156.0.8078.108 built on Debian', firefox: 'Mozilla Firefox 153.7.0esr' };
    assert.deepEqual(verdicts(r).map((t) => t.label.split(':')[0]), ['Node', 'Node', 'Chromium', 'Chromium', 'Firefox', 'Firefox']);
    assert.match(html(r), /Node v20, Chromium 156\.0\.8078\.108 built on Debian, Mozilla Firefox 153\.7\.0esr\./);
    // one chart per host past six lines, Firefox's dash-dotted
    const list = charts(r.experiments[0], r.machine);
    assert.deepEqual(list.map((c) => c.name).filter((n) => !n.endsWith('-log.svg')),
      ['malloc-reference.svg', 'malloc-reference-browser.svg', 'malloc-reference-firefox.svg']);
    assert.match(list[4].title, /Firefox and native/);
    assert.match(list[4].svg, /stroke-dasharray="9 4 2 4"/);
    r.options.runModes = runModeWords({ asUser: false });
    assert.match(tableText(r), /\nran as: firefox: Firefox, javascript\.options\.wasm_baselinejit=false \(Ion code from the start\)/);
  });

  it('holds WebKit\'s series to the targets and names its version (--browser=chromium,webkit)', () => {
    const r = results();
    addBrowserSeries(r, 'webkit', 'WebKit 2.50');
    r.machine = { ...r.machine, browsers: ['chromium', 'webkit'], chromium: 'Chromium 156.0.8078.108 built on Debian', webkit: 'WebKitGTK 2.50.6' };
    assert.deepEqual(verdicts(r).map((t) => t.label.split(':')[0]), ['Node', 'Node', 'Chromium', 'Chromium', 'WebKit', 'WebKit']);
    assert.match(html(r), /Node v20, Chromium 156\.0\.8078\.108 built on Debian, WebKitGTK 2\.50\.6\./);
    const list = charts(r.experiments[0], r.machine);
    assert.deepEqual(list.map((c) => c.name).filter((n) => !n.endsWith('-log.svg')),
      ['malloc-reference.svg', 'malloc-reference-browser.svg', 'malloc-reference-webkit.svg']);
    assert.match(list[4].svg, /stroke-dasharray="16 5"/);
    r.options.runModes = runModeWords({ asUser: false });
    assert.match(tableText(r), /\nran as: webkit: WebKit \(WebKitGTK\), JSC useWasmLLInt=false, OMG thresholds 0 \(BBQ at a first call, OMG at once/);
  });

  it('reads --browser as one browser or a comma-separated list', () => {
    assert.deepEqual(parseBenchArgs(['--browser']).browsers, ['chromium']);
    assert.deepEqual(parseBenchArgs(['--browser=firefox,chromium,firefox']).browsers, ['firefox', 'chromium']);
    assert.deepEqual([parseBenchArgs([]).browsers, parseBenchArgs([]).node], [[], true]);
    assert.deepEqual(parseBenchArgs(['--browser=chromium,firefox,webkit']).browsers, ['chromium', 'firefox', 'webkit']);
    assert.throws(() => parseBenchArgs(['--browser=chromium,safari']), /^Error: --browser=safari: expected chromium, firefox or webkit$/);
  });

  it('leaves out a target whose series did not run, and does not judge one that needs more cores', () => {
    const r = results({ cores: 1 });
    r.experiments[0].series = r.experiments[0].series.filter((s) => s.host !== 'browser');
    assert.deepEqual(verdicts(r).map((t) => [t.label, t.met, t.unjudged]), [
      ['Node: Spindle speed / dlmalloc speed, 1 thread', true, undefined],
      ['Node: Spindle 2-thread speed-up', null, 'needs 2 cores']]);
    const lines = tableText(r).split('\n');
    assert.equal(lines[0], '== Verdicts: 1 of 1 targets met; 1 not judged (need more cores) ==');
    assert.match(lines[2], /^needs 2 cores +malloc-reference +Node: Spindle 2-thread speed-up: 1\.80x \(target >= 1\.5x\)$/);
    assert.match(html(r), /<tr class="unjudged"><td>needs 2 cores<\/td>/);
  });

  it('judges the 16-core targets only on 16 cores, from the 1..16 thread sweep', () => {
    const sweep = [1, 2, 4, 8, 16];
    // Spindle's time falls 12x by 16 threads; native tmpfs's 6x, from 1.2x Spindle's time
    const curve = (one, x16) => Object.fromEntries(sweep.map((t) => [t, runs(one / (1 + ((x16 - 1) * (t - 1)) / 15))]));
    const own = (cores) => ({ ...results({ cores }), experiments: [{ id: 'fs-own-files', title: 'own files', chart: 'speedup',
      baseline: 'native-tmpfs', cores, threads: sweep, pointLabel: 'threads', series: [
        { id: 'spindle-fs@node', variant: 'spindle-fs', host: 'node', label: 'Spindle FS (node)', runs: curve(100, 12) },
        { id: 'native-tmpfs@native', variant: 'native-tmpfs', host: 'native', label: 'native, tmpfs', runs: curve(120, 6) }] }] });
    const on16 = verdicts(own(16));
    assert.deepEqual(on16.map((t) => [t.label, t.met]), [['Node: Spindle FS 16-thread speed-up', true],
      ['Node: Spindle FS speed / native tmpfs speed, 16 threads', true]]);
    assert.ok(Math.abs(on16[0].value - 12) < 1e-9 && Math.abs(on16[1].value - 2.4) < 1e-9);
    assert.deepEqual(verdicts(own(2)).map((t) => [t.met, t.unjudged]), [[null, 'needs 16 cores'], [null, 'needs 16 cores']]);
  });

  it('starts and ends the table with the verdicts and the machine, and warns when the load was high', () => {
    const quiet = tableText(results()).split('\n');
    assert.match(quiet[0], /^== Verdicts: 4 of 4 targets met ==$/);
    assert.match(quiet[1], /^met +malloc-reference +Node: Spindle speed \/ dlmalloc speed, 1 thread: 2\.00x \(target >= 1\.8x\)$/);
    assert.match(quiet[5], /^machine: test, 2 cores .*, Node v20; load average \(1, 5, 15 min\) before 0\.10 0\.20 0\.30, after 2\.00 1\.00 0\.50/);
    assert.ok(!quiet.some((l) => /WARNING/.test(l)));
    assert.deepEqual(quiet.slice(-6), quiet.slice(0, 6));

    const r = results({ loadBefore: [4.2, 3, 2] });
    r.experiments[0].series.find((s) => s.id === 'spindle@node').runs[2] = runs(500, 520, 480); // no scaling
    const busy = tableText(r).split('\n');
    assert.match(busy[0], /^== Verdicts: 3 of 4 targets met ==$/);
    assert.match(busy[2], /^NOT met +malloc-reference +Node: Spindle 2-thread speed-up: 0\.90x \(target >= 1\.5x\)$/);
    assert.match(busy[6], /^WARNING: the machine was busy before this run \(load average 4\.20 on 2 cores\)/);
    assert.equal(busy.at(-1), busy[6]);
    assert.equal(machineState(results({ loadBefore: [0.99, 0, 0] })).high, false);
    assert.equal(machineState(results({ loadBefore: [1, 0, 0] })).high, true);
  });

  it('puts the verdicts and the warning above the first experiment in the HTML', () => {
    const page = html(results({ loadBefore: [3, 3, 3] }));
    const at = (s) => page.indexOf(s);
    assert.ok(at('Verdicts: 4 of 4 targets met') > 0 && at('class="warning"') > at('Verdicts'));
    assert.ok(at('<section id="malloc-reference">') > at('class="warning"'));
    assert.equal(page.match(/<tr class="met">/g).length, 4);
  });
});

describe('bench report: what the user waits for', () => {
  it('shows each run\'s wall time beside its in-program time, and how each host ran', () => {
    const r = results();
    r.options.runModes = runModeWords({ asUser: false });
    for (const s of r.experiments[0].series) {
      for (const list of Object.values(s.runs)) for (const run of list) run.wall_ms = run.ms + 150;
    }
    const lines = tableText(r).split('\n');
    const head = lines.find((l) => l.startsWith('series '));
    assert.match(head, /median +min-max +wall, spawn to exit +speed-up/);
    // spindle (node) at 1 thread: runs 450, 500, 400 ms in the program, each 150 ms more in all
    assert.match(lines.find((l) => l.startsWith('spindle (node) ')), /^spindle \(node\) +1 +450\.0 ms +400-500 +600 ms +x1\.00/);
    const ranAs = lines.filter((l) => l.startsWith('ran as: '));
    assert.deepEqual(ranAs.map((l) => l.split(':')[1].trim()), ['node', 'browser', 'native']);
    assert.match(ranAs[0], /spindle run --wait-for-pool \(--compile=auto \(TurboFan code from the code cache\)\), V8 tiers: \w+; wall: spawn/);
    assert.match(ranAs[1], /Chromium, --no-liftoff/);
    assert.match(html(r), /<li>ran as: browser: Chromium, --no-liftoff/);
  });

  it('--as-user runs the wasm with default options, and says so', () => {
    assert.equal(parseBenchArgs(['--as-user']).asUser, true);
    assert.equal(parseBenchArgs([]).asUser, false);
    const words = runModeWords({ asUser: true });
    assert.match(words.node, /^spindle run with default options /);
    assert.match(words.browser, /^Chromium, default flags \(Liftoff first, dynamic tiering\)/);
  });

  it('has a fresh-file experiment from 4 KiB to 1 MiB whose largest point keeps 64 MiB live, 256 MiB with --full', () => {
    const byId = (l) => l.find((e) => e.id === 'fs-new-files');
    const e = byId(experiments({ root, quick: false }));
    assert.deepEqual(e.points.map((p) => e.args(p)), [[4, 200], [64, 200], [1024, 64]]);
    assert.ok(e.key && e.variants.some((v) => v.id === 'native-tmpfs'));
    assert.deepEqual(byId(experiments({ root, quick: false, full: true })).args('1MiB x 256'), [1024, 256]);
  });
});

describe('bench charts', () => {
  it('draw the min-max of the runs and give one allocator one colour, Node solid and Chromium dashed', () => {
    const r = results();
    r.experiments[0].series = r.experiments[0].series.filter((s) => s.variant !== 'mimalloc');
    const [linear] = charts(r.experiments[0]);
    const line = (label) => linear.svg.match(new RegExp(`<line [^>]*stroke="(#\\w+)"[^>]*/>\\n<text [^>]*>${label}<`))?.[0];
    const colour = (l) => l.match(/stroke="(#\w+)"/)[1];
    assert.equal(colour(line('spindle \\(node\\)')), colour(line('spindle \\(browser\\)')));
    assert.notEqual(colour(line('spindle \\(node\\)')), colour(line('dlmalloc \\(node\\)')));
    assert.doesNotMatch(line('spindle \\(node\\)'), /dasharray/);
    assert.match(line('spindle \\(browser\\)'), /dasharray="9 5"/);
    assert.match(line('native mimalloc'), /dasharray="2 4"/);
    // one min-max bar per series and point: 5 series x 2 points
    assert.equal(linear.svg.match(/<path d="M[\d.]+ [\d.]+h8M/g).length, 10);
    assert.match(linear.svg, /bars: min-max of the runs/);
  });

  it('split a chart of more than six lines into one per host, each with the native series', () => {
    const list = charts(results().experiments[0]); // 3 allocators x 2 hosts + 1 native = 7 series
    assert.deepEqual(list.map((c) => c.name), ['malloc-reference.svg', 'malloc-reference-log.svg',
      'malloc-reference-browser.svg', 'malloc-reference-browser-log.svg']);
    for (const c of list) assert.equal(c.svg.match(/<polyline/g).length, 4, c.name);
    assert.match(list[2].title, /Chromium and native/);
  });
});

describe('bench progress', () => {
  const sink = (tty) => ({ text: '', isTTY: tty, columns: 200, write(s) { this.text += s; } });

  it('prints plain lines with done/total and the time left, learnt per kind of unit', () => {
    let now = 0;
    const stream = sink(false);
    const p = new Progress({ units: [{ key: 'a', count: 2 }, { key: 'b', count: 1, guessS: 10 }], stream, now: () => now });
    p.begin('a', 'first a');
    now = 4000;
    p.begin('a', 'second a'); // ends the first: a takes 4 s
    now = 5000;
    p.begin('b', 'the b');
    const lines = stream.text.trimEnd().split('\n');
    assert.deepEqual(lines, [
      '[0/3 0%, time left: estimating] first a',
      '[1/3 33%, about 14s left] second a', // 4 s for the second a, as the first took, and the guess for b
      '[2/3 66%, about 10s left] the b',
    ]);
    p.finish();
    assert.equal(p.done, 3);
    assert.equal(p.secondsLeft(), 0);
  });

  it('estimates kinds not yet timed from timed kinds like them: jobs from jobs, not from builds', () => {
    let now = 0;
    const p = new Progress({ units: [{ key: 'build', count: 1, guessS: 3 }, { key: 'x', count: 1 }, { key: 'y', count: 2 }],
      stream: sink(false), now: () => now });
    p.begin('build', 'building');
    assert.equal(p.secondsLeft(), null); // no idea yet how long x and y take
    now = 1000;
    p.begin('x', 'x'); // the build took 1 s; nothing like x has run: the build's time stands in
    assert.equal(p.secondsLeft(), 3);
    now = 11000;
    p.end(); // x took 10 s: y, not timed, is taken to be like x
    assert.equal(p.secondsLeft(), 20);
  });

  it('counts skipped units and redraws one line with a bar on a terminal', () => {
    const stream = sink(true);
    const p = new Progress({ units: [{ key: 'a', count: 4 }], stream, now: () => 0 });
    p.skip('a');
    p.skip('a');
    p.say('building');
    assert.equal(stream.text, '\r\x1b[K[##########..........] 2/4 50% time left: estimating | building');
    p.finish();
    assert.ok(stream.text.endsWith('\r\x1b[K'));
  });
});

describe('bench selection', () => {
  const list = experiments({ root, quick: false });
  const ids = (o) => mainJob(list, o).map((e) => e.id);
  const family = (id) => id.split('-')[0];

  it('runs the key experiments by default, every family at least once, without the npm WASI host', () => {
    const picked = mainJob(list, {});
    assert.ok(picked.length < list.length);
    assert.deepEqual([...new Set(picked.map((e) => family(e.id)))], [...new Set(list.map((e) => family(e.id)))]);
    for (const id of ['math', 'malloc-reference', 'fs-stdio-files', 'fs-new-files', 'io-hostdir', 'io-mount-calls', 'io-opfs']) assert.ok(ids({}).includes(id), id);
    assert.ok(picked.every((e) => e.variants.every((v) => !/npm-wasi/.test(v.id))));
    const fs = picked.find((e) => e.id === 'fs-stdio-files');
    assert.deepEqual(fs.variants.map((v) => v.id), ['spindle-fs', 'js-fs', 'native-tmpfs']);
  });

  it('runs everything with --full, and what --only names', () => {
    assert.deepEqual(ids({ full: true }), list.map((e) => e.id));
    assert.ok(mainJob(list, { full: true }).some((e) => e.variants.some((v) => v.id === 'npm-wasi-worker')));
    assert.deepEqual(ids({ only: /^malloc-larson$/ }), ['malloc-larson']);
    // with the "Spindle portable" series under the npm host (docs/PORTABLE.md)
    const npmSeries = mainJob(list, { only: /^fs-call-cost$/, variants: /npm/ })[0].variants.map((v) => v.id);
    assert.equal(npmSeries.length, 7);
    assert.ok(npmSeries.includes('npm-wasi-portable-worker'), npmSeries.join(' '));
    assert.ok(list.find((e) => e.id === 'malloc-reference').variants.some((v) => v.id === 'npm-wasi-portable'));
  });

  it('gives the default run 3 runs, --full 5, --quick 1 at threads 1 and 2', () => {
    assert.equal(parseBenchArgs([]).runs, 3);
    assert.equal(parseBenchArgs(['--full']).runs, 5);
    assert.deepEqual([parseBenchArgs(['--quick']).runs, parseBenchArgs(['--quick']).threads], [1, [1, 2]]);
    assert.deepEqual(parseBenchArgs(['--quick', '--runs=2', '--threads=4,1']).threads, [1, 4]);
    assert.equal(parseBenchArgs(['--quick', '--runs=2']).runs, 2);
  });

  it('runs the thread-scaling experiments at 1..16 threads with --full, at --threads when given', () => {
    const sweepOf = (argv) => parseBenchArgs(argv).sweepThreads;
    assert.deepEqual(sweepOf(['--full']), [1, 2, 4, 8, 16]);
    assert.deepEqual(sweepOf(['--quick']), [1, 2]);
    assert.deepEqual(sweepOf(['--full', '--threads=16,1']), [1, 16]);
    assert.deepEqual(sweepOf([]), parseBenchArgs([]).threads);
    const swept = list.filter((e) => e.sweep).map((e) => e.id);
    assert.deepEqual(swept, ['malloc-reference', 'fs-own-files', 'fs-shared-pread', 'fs-path-lookups']);
    for (const id of swept.slice(1)) {
      assert.deepEqual(list.find((e) => e.id === id).variants.map((v) => v.id), ['spindle-fs', 'native-tmpfs']);
    }
  });
});
