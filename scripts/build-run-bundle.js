#!/usr/bin/env node
// Builds the start-up bundles of `spindle run` (docs/HOST.md, "Start-up"), each one file made by
// esbuild (npm, pinned in package.json) from the ES modules of cli/ and host/, into build/bundle/:
// the CLI's run path as a classic script whose V8 code is kept after a run (run.cjs,
// cli/run/script-cache.js), a thread's worker (thread-worker.cjs, kept the same way), bin/spindle's first module
// (boot.cjs, cli/boot.js, a script too, whose V8 code is kept beside it for each Node found:
// scripts/make-boot-code.js), and a browser run's page and thread workers (page.mjs,
// page-thread-worker.mjs).
// Node resolves, reads and links each ES module of a run one by one (~90 of them, 30-40 ms of a
// hello world on the 2-core VM), and a page fetches each from the CLI's server; one file is one
// read and one compile.
// cli/common/bundles.js says they are current while inputs.json still lists every input and bundle as
// it was built (mtime and size; each bundle's SHA-256 too), else the modules.
// Idempotent: it builds again only when an input changed. `--force` builds anyway.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { SCRIPT_WRAPPER } from '../cli/run/script-cache.js';
import { BOOT_BUNDLE, BUNDLE_DIR, BUNDLES, freshBundle, INPUTS_FILE, PAGE_BUNDLES, RUN_BUNDLE, THREAD_WORKER_BUNDLE } from '../cli/common/bundles.js';

const root = join(import.meta.dirname, '..');
const outDir = join(root, BUNDLE_DIR);

// A module's paths from import.meta (a worker's script, an addon, a helper process) are its own
// file's: rewritten relative to where the bundle is loaded from (`from`: its folder, or, for a
// page's bundle, the folder of the module whose path the server sends it at), so they name the
// same files from there.
const metaPaths = (from) => ({
  name: 'import-meta-paths',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      if (text.includes('import.meta')) {
        const file = JSON.stringify(relative(from, args.path));
        text = text.replaceAll('import.meta.url', `new URL(${file}, import.meta.url).href`)
          .replaceAll('import.meta.dirname', `new URL('.', new URL(${file}, import.meta.url)).pathname.replace(/\\/$/, '')`);
      }
      return { contents: text, loader: 'js' };
    });
  },
});

// A page's bundle gets Node's built-ins as empty modules: they are named only on Node's paths
// (host/platform/current.js chooses), and a browser cannot resolve `node:` imports, which the
// bundle would otherwise keep at its top.
const noNodeBuiltins = {
  name: 'no-node-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

async function build() {
  const esbuild = await import('esbuild');
  mkdirSync(outDir, { recursive: true });
  const inputs = new Set();
  // The run's bundle and the thread worker's are classic scripts (CommonJS in a function,
  // cli/run/script-cache.js) whose import.meta.url is the bundle file's URL, handed in;
  // bin/spindle's first module is a module.
  // Node's three are minified, each with its source map beside it (BUNDLE.map, which
  // cli/common/readable-stack.js reads to name a stack's frames): a start reads, decodes and
  // deserializes their code and names on every run, and minified a hello world ran ~1.9 ms
  // sooner (docs/HOST.md, "Eighteenth pass").
  // And ASCII (esbuild's default, said here since the start depends on it): a start reads each as
  // latin1, a copy of its bytes, where UTF-8 would be decoded (~0.3 ms of a hello world for the
  // run bundle's 155 KB; cli/run/script-cache.js). The build checks it below.
  const minified = { minify: true, sourcemap: 'external', sourcesContent: false, charset: 'ascii' };
  const entries = [
    ['cli/run/run-entry.js', RUN_BUNDLE, { format: 'cjs', define: { 'import.meta.url': '__bundleUrl' },
      banner: { js: SCRIPT_WRAPPER.before }, footer: { js: SCRIPT_WRAPPER.after }, ...minified }],
    ['host/program/thread-worker.js', THREAD_WORKER_BUNDLE, { format: 'cjs', define: { 'import.meta.url': '__bundleUrl' },
      banner: { js: SCRIPT_WRAPPER.before }, footer: { js: SCRIPT_WRAPPER.after }, ...minified }],
    ['cli/boot.js', BOOT_BUNDLE, { format: 'cjs', define: { 'import.meta.url': '__bundleUrl' },
      banner: { js: SCRIPT_WRAPPER.before }, footer: { js: SCRIPT_WRAPPER.after }, ...minified }],
    // a browser run's page and thread workers (cli/common/bundles.js, PAGE_BUNDLES): modules for
    // the browsers the CLI runs
    ...Object.entries(PAGE_BUNDLES).map(([path, out]) => [path.slice(1), out,
      { format: 'esm', platform: 'browser', target: 'es2022' }]),
  ];
  const outputs = [];
  for (const [entry, out, how] of entries) {
    const temp = join(outDir, `.${out}.${process.pid}`);
    const plugins = how.platform === 'browser' ? [metaPaths(dirname(join(root, entry))), noNodeBuiltins] : [metaPaths(outDir)];
    const result = await esbuild.build({
      entryPoints: [join(root, entry)], outfile: temp, bundle: true, platform: 'node', target: 'node20',
      absWorkingDir: root, plugins,
      metafile: true, logLevel: 'warning', legalComments: 'none',
      // (addons are files of their own)
      external: ['*.node'], ...how,
    });
    for (const input of Object.keys(result.metafile.inputs)) inputs.add(input);
    const bytes = readFileSync(temp);
    if (how.charset === 'ascii' && bytes.some((byte) => byte > 0x7f)) throw new Error(`${out}: a byte over 0x7f in a bundle read as ASCII`);
    if (how.sourcemap) renameSync(`${temp}.map`, join(outDir, `${out}.map`));
    renameSync(temp, join(outDir, out));
    const st = statSync(join(outDir, out));
    outputs.push({ path: out, mtimeMs: st.mtimeMs, size: st.size, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  // (this script is an input too: a bundle made another way is made again; and the wrapper it puts
  // around the run's)
  inputs.add(relative(root, import.meta.filename));
  inputs.add('cli/run/script-cache.js');
  inputs.add('scripts/make-boot-code.js');
  // (files only: not Node's built-ins, their empty stand-ins in a page's bundle, nor what
  // host/package.json's `browser` field leaves out of one, each named `namespace:path`)
  const list = [...inputs].filter((p) => !p.includes(':')).sort().map((path) => {
    const st = statSync(join(root, path));
    return { path, mtimeMs: st.mtimeMs, size: st.size };
  });
  const temp = join(outDir, `.${INPUTS_FILE}.${process.pid}`);
  writeFileSync(temp, `${JSON.stringify({ inputs: list, outputs }, null, 1)}\n`);
  renameSync(temp, join(outDir, INPUTS_FILE));
  keepBootCode();
  return list.length;
}

// The boot bundle's V8 code for each Node found (scripts/make-boot-code.js): this one, the
// toolchain's and the one first on PATH. The code of a boot built before is removed first.
function keepBootCode() {
  for (const name of readdirSync(outDir)) if (name.startsWith(`${BOOT_BUNDLE}.`) && name.endsWith('.code')) rmSync(join(outDir, name));
  const toolchain = join(root, '.toolchain');
  const nodes = new Set([process.execPath,
    ...(existsSync(toolchain) ? readdirSync(toolchain).filter((n) => n.startsWith('node-')).map((n) => join(toolchain, n, 'bin', 'node')) : []),
    ...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'node'))]);
  const versions = new Set();
  for (const node of nodes) {
    const version = existsSync(node) && spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (!version || versions.has(version)) continue;
    versions.add(version);
    // (a Node too old for the boot, or one that cannot keep code, starts by compiling it as before)
    spawnSync(node, [join(root, 'scripts', 'make-boot-code.js'), outDir], { stdio: 'ignore' });
  }
}

if (!process.argv.includes('--force') && freshBundle(root)) {
  console.log(`[bundle] ${relative(process.cwd(), outDir) || '.'}: up to date`);
} else {
  const count = await build();
  console.log(`[bundle] ${relative(process.cwd(), outDir) || '.'}: ${BUNDLES.join(', ')} from ${count} modules`);
}
