// The Node versions `spindle` runs on: 22 and later (26 is the active LTS, 24 and 22 are
// maintained), and Node 20, past its end of life, as long as it costs nothing (a legacy lane of
// tests, docs/HOST.md "Node versions"). bin/spindle asks before anything else.
export const OLDEST_NODE_MAJOR = 20;

/** Why `version` (process.versions.node) cannot run spindle, or null where it can. */
export function nodeTooOld(version = process.versions.node) {
  if (Number(version.split('.')[0]) >= OLDEST_NODE_MAJOR) return null;
  return `Node ${version} is too old for Spindle: it runs on Node 22 or later (26.x is the active LTS); ` +
    'put a newer node first on PATH';
}
