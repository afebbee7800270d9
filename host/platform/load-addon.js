// Loads a native addon by its path: what require() does with a `.node` file, without Node's
// CommonJS loader, whose first use (createRequire, the path's resolution, a Module) cost a
// hello world ~0.8 ms per addon against ~0.2 for the dlopen itself (docs/HOST.md, "Start-up").
/** The addon's exports; throws as require() would where the file is missing or cannot load. */
export function loadAddon(file) {
  const module = { exports: {} };
  process.dlopen(module, file);
  return module.exports;
}
