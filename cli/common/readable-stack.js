// Node's bundles are minified (scripts/build-run-bundle.js), so a stack's frames in them say only
// `run.cjs:1:48213`. Where a stack reaches the user (an internal error, SPINDLE_DEBUG's stack,
// a host error that ended a thread), each such frame names the module, line and column it was
// made from, through the source map beside the bundle (BUNDLE.map). Nothing is read where a text
// names no bundle, which is every run that ends well.
import { BUNDLE_DIR, BOOT_BUNDLE, RUN_BUNDLE, THREAD_WORKER_BUNDLE } from './bundle-record.js';

const { readFileSync } = process.getBuiltinModule('node:fs');
const { dirname, isAbsolute, resolve, sep } = process.getBuiltinModule('node:path');

const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
// `PATH:LINE:COLUMN` of a bundle, the path plain or a file: URL (made at first use: a run's
// start builds nothing here)
const frames = () => new RegExp(`((?:file://)?[^\\s()]*${escaped(`${sep}${BUNDLE_DIR}${sep}`)}(?:${
  [RUN_BUNDLE, THREAD_WORKER_BUNDLE, BOOT_BUNDLE].map(escaped).join('|')})):(\\d+):(\\d+)`, 'g');

function sourceMapOf(bundle, maps) {
  if (!maps.has(bundle)) {
    let map = null;
    try {
      const { SourceMap } = process.getBuiltinModule('node:module');
      map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));
    } catch { /* no map (a bundle made before maps, or removed): the frame stays as it is */ }
    maps.set(bundle, map);
  }
  return maps.get(bundle);
}

/** `text` with each frame in a minified bundle named by its module's path, line and column. */
export function readableStack(text) {
  if (typeof text !== 'string' || !text.includes(`${sep}${BUNDLE_DIR}${sep}`)) return text;
  const maps = new Map();
  return text.replace(frames(), (frame, where, line, column) => {
    const bundle = where.startsWith('file://') ? process.getBuiltinModule('node:url').fileURLToPath(where) : where;
    const found = sourceMapOf(bundle, maps)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!found?.originalSource) return frame;
    const source = found.originalSource.startsWith('file://') ? process.getBuiltinModule('node:url').fileURLToPath(found.originalSource)
      : isAbsolute(found.originalSource) ? found.originalSource : resolve(dirname(bundle), found.originalSource);
    return `${source}:${found.originalLine + 1}:${found.originalColumn + 1}`;
  });
}
