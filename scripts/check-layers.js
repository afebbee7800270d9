#!/usr/bin/env node
// Checks that runtime/fs, host/mount, host/ and cli/ keep their layers (docs/DESIGN.md, "Layers"
// and "Module map"): a file may include or import files of its own layer and of the layers below
// it, never one above it or a sibling beside it (two backends, two middle layers), and the folders
// that reach into another keep to the rooms it offers them (`borders`). And that the runtime
// declares each host's imports in that host's one seam header only. Prints each offending line
// and exits 1.
// `node scripts/check-layers.js [ROOT]`; tests/layers.test.js runs it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Each area lists its layers, lowest first; `rank` orders them, and layers of equal rank are
// siblings that may not use each other.
export const areas = [
  {
    dir: 'runtime/fs',
    extensions: ['.c', '.h'],
    layers: [
      { name: 'core', rank: 0, holds: (path) => path.startsWith('core/') },
      { name: 'special', rank: 1, holds: (path) => path.startsWith('special/') },
      { name: 'mount', rank: 1, holds: (path) => path.startsWith('mount/') },
      { name: 'ops', rank: 2, holds: (path) => path.startsWith('ops/') },
    ],
  },
  {
    dir: 'host/mount',
    extensions: ['.js'],
    layers: [
      { name: 'shared protocol', rank: 0, holds: (path) => !path.includes('/') && path !== 'index.js' },
      { name: 'hostdir', rank: 1, holds: (path) => path.startsWith('hostdir/') },
      { name: 'opfs', rank: 1, holds: (path) => path.startsWith('opfs/') },
      { name: 'registry', rank: 2, holds: (path) => path === 'index.js' },
    ],
  },
  {
    // the host's rooms; host/mount's own layers are above
    dir: 'host',
    extensions: ['.js'],
    layers: [
      { name: 'abi', rank: 0, holds: (path) => path.startsWith('abi/') },
      { name: 'platform', rank: 1, holds: (path) => path.startsWith('platform/') },
      { name: 'threads', rank: 2, holds: (path) => path.startsWith('threads/') },
      // the code cache is compilation's: each calls the other
      { name: 'compile', rank: 3, holds: (path) => path.startsWith('compile/') || path.startsWith('code-cache/') },
      { name: 'mount', rank: 4, holds: (path) => path.startsWith('mount/') },
      { name: 'files', rank: 4, holds: (path) => path.startsWith('files/') },
      { name: 'wasi', rank: 5, holds: (path) => path.startsWith('wasi/') },
      { name: 'jsfs', rank: 6, holds: (path) => path.startsWith('jsfs/') },
      { name: 'program', rank: 7, holds: (path) => path.startsWith('program/') },
      { name: 'API', rank: 8, holds: (path) => !path.includes('/') },
      { name: 'browser page', rank: 9, holds: (path) => path.startsWith('browser/') },
    ],
  },
  {
    dir: 'cli',
    extensions: ['.js'],
    layers: [
      { name: 'common', rank: 0, holds: (path) => path.startsWith('common/') },
      { name: 'browser', rank: 1, holds: (path) => path.startsWith('browser/') },
      { name: 'build', rank: 1, holds: (path) => path.startsWith('build/') },
      { name: 'run', rank: 2, holds: (path) => path.startsWith('run/') },
      { name: 'cargo', rank: 3, holds: (path) => path.startsWith('cargo/') },
      { name: 'bench', rank: 3, holds: (path) => path.startsWith('bench/') },
      { name: 'dispatch', rank: 4, holds: (path) => path === 'main.js' },
      // bin/spindle's start: the run bundle (boot.js) or the dispatch (launch.js)
      { name: 'start', rank: 5, holds: (path) => path === 'launch.js' || path === 'boot.js' },
    ],
  },
];

// Folders that reach into another, and what of it they may use (`allows(from, to)`, paths relative
// to each folder): the benches use only the CLI's shared rooms, only `spindle bench` runs the
// benches, and the host never uses the CLI (it ships without it).
export const borders = [
  { from: 'bench', to: 'cli', rule: 'may use cli/ only through cli/common/ and cli/browser/', allows: (from, to) => /^(common|browser)\//.test(to) },
  { from: 'cli', to: 'bench', rule: 'may use bench/ only from cli/bench/', allows: (from) => from.startsWith('bench/') },
  { from: 'host', to: 'cli', rule: 'may not use cli/', allows: () => false },
];

// The relative paths a file names: C's #include "...", JavaScript's imports and worker URLs.
const references = [
  /^\s*#\s*include\s+"([^"]+)"/,
  /\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/,
  /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/,
  /\bnew URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/,
];

function filesUnder(dir, extensions) {
  return readdirSync(dir, { recursive: true }).filter((f) => extensions.some((e) => f.endsWith(e))).sort();
}

function layerOf(area, path) {
  return area.layers.find((layer) => layer.holds(path));
}

/** The relative paths each line of `path` names: [{ named, line }]. */
function referencesOf(path) {
  const named = [];
  readFileSync(path, 'utf8').split('\n').forEach((text, i) => {
    for (const pattern of references) {
      const found = pattern.exec(text)?.[1];
      if (found !== undefined) named.push({ named: found, line: i + 1 });
    }
  });
  return named;
}

/** Every reference under `root` that goes to a layer above or beside its own, or across a border
 * to what the border does not allow. */
export function layerViolations(root) {
  const found = [];
  for (const area of areas) {
    const areaDir = join(root, area.dir);
    if (!existsSync(areaDir)) continue;
    for (const file of filesUnder(areaDir, area.extensions)) {
      const from = layerOf(area, file);
      if (from === undefined) {
        found.push(`${area.dir}/${file}: in no layer (add its folder to scripts/check-layers.js)`);
        continue;
      }
      for (const { named, line } of referencesOf(join(areaDir, file))) {
        const target = relative(areaDir, resolve(areaDir, dirname(file), named));
        if (target.startsWith('..')) continue; // outside the area: not a layer of it
        const to = layerOf(area, target);
        if (to && to !== from && to.rank >= from.rank) {
          const where = to.rank > from.rank ? 'above' : 'beside';
          found.push(`${area.dir}/${file}:${line}: the ${from.name} layer uses ${named}, of the ${to.name} layer ${where} it`);
        }
      }
    }
  }
  for (const border of borders) {
    const fromDir = join(root, border.from);
    const toDir = join(root, border.to);
    if (!existsSync(fromDir)) continue;
    for (const file of filesUnder(fromDir, ['.js', '.mjs'])) {
      for (const { named, line } of referencesOf(join(fromDir, file))) {
        const target = relative(toDir, resolve(fromDir, dirname(file), named));
        if (target.startsWith('..') || border.allows(file, target)) continue;
        found.push(`${border.from}/${file}:${line}: uses ${named}, but ${border.from}/ ${border.rule}`);
      }
    }
  }
  return found;
}

// The runtime's hosts' import modules, each declared in one header: what the runtime asks of a
// host, and so what runtime/portable must stand in for, is in one place.
export const seams = [
  { module: 'spindle', header: 'runtime/include/spindle/host_imports.h' },
  { module: 'wasi_snapshot_preview1', header: 'runtime/wasi/wasi_host.h' },
];

/** Every line under runtime/ of `root` that declares an import of a seam's module outside its header. */
export function seamViolations(root) {
  const found = [];
  for (const file of filesUnder(join(root, 'runtime'), ['.c', '.h', '.cpp'])) {
    const path = `runtime/${file}`;
    readFileSync(join(root, path), 'utf8').split('\n').forEach((line, i) => {
      for (const { module, header } of seams) {
        if (path !== header && line.includes(`import_module("${module}")`)) {
          found.push(`${path}:${i + 1}: declares a ${module}.* import outside ${header}`);
        }
      }
    });
  }
  return found;
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const root = process.argv[2] ?? join(import.meta.dirname, '..');
  const found = [...layerViolations(root), ...seamViolations(root)];
  for (const line of found) console.log(line);
  process.exitCode = found.length === 0 ? 0 : 1;
}
