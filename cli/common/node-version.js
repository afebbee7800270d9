// The Node versions `spindle` runs on: 22 and later (26 is the active LTS, 24 and 22 are
// maintained), and Node 20, past its end of life, as long as it costs nothing (a legacy lane of
// tests, docs/HOST.md "Node versions"). bin/spindle asks before anything else.
export const OLDEST_NODE_MAJOR = 20;
// The first minor of each such major with process.getBuiltinModule, which the host and the CLI
// load Node's built-ins with (docs/HOST.md, "Seventh pass").
const FIRST_MINOR = { 20: 16, 22: 3 };

/** Why `version` (process.versions.node) cannot run spindle, or null where it can. */
export function nodeTooOld(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  if (major >= OLDEST_NODE_MAJOR && minor >= (FIRST_MINOR[major] ?? 0)) return null;
  return `Node ${version} is too old for Spindle: it runs on Node 22 or later (26.x is the active LTS); ` +
    'put a newer node first on PATH';
}
