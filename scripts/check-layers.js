#!/usr/bin/env node
// Checks that runtime/fs and host/mount keep their layers (docs/DESIGN.md, "Layers"): a file may
// include or import files of its own layer and of the layers below it, never one above it or a
// sibling beside it (two backends, two middle layers). And that the runtime declares each host's
// imports in that host's one seam header only. Prints each offending line and exits 1.
// `node scripts/check-layers.js [ROOT]`; tests/layers.test.js runs it.
import { readdirSync, readFileSync } from 'node:fs';
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

/** Every reference of the areas under `root` that goes to a layer above or beside its own. */
export function layerViolations(root) {
  const found = [];
  for (const area of areas) {
    const areaDir = join(root, area.dir);
    for (const file of filesUnder(areaDir, area.extensions)) {
      const from = layerOf(area, file);
      if (from === undefined) {
        found.push(`${area.dir}/${file}: in no layer (add its folder to scripts/check-layers.js)`);
        continue;
      }
      readFileSync(join(areaDir, file), 'utf8').split('\n').forEach((line, i) => {
        for (const pattern of references) {
          const named = pattern.exec(line)?.[1];
          if (named === undefined) continue;
          const target = relative(areaDir, resolve(areaDir, dirname(file), named));
          if (target.startsWith('..')) continue; // outside the area: not a layer of it
          const to = layerOf(area, target);
          if (to && to !== from && to.rank >= from.rank) {
            const where = to.rank > from.rank ? 'above' : 'beside';
            found.push(`${area.dir}/${file}:${i + 1}: the ${from.name} layer uses ${named}, of the ${to.name} layer ${where} it`);
          }
        }
      });
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
