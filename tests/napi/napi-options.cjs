// The options of emnapi's instantiateNapiModule(Sync) that every loader of the napi-rs addon
// gives alike, as napi-rs's generated loaders do: Node's (loader.cjs, loader-worker.mjs) and the
// browser's (browser/addon-worker.mjs, browser/thread-worker.mjs).

/** overwriteImports: Node-API and emnapi's imports under `env`, with the one shared `memory`. */
function importsWithMemory(memory) {
  return (importObject) => {
    importObject.env = { ...importObject.env, ...importObject.napi, ...importObject.emnapi, memory };
    return importObject;
  };
}

/** beforeInit: napi-derive registers each exported function through its own export. */
function registerFunctions({ instance }) {
  for (const name of Object.keys(instance.exports)) {
    if (name.startsWith('__napi_register__')) instance.exports[name]();
  }
}

module.exports = { importsWithMemory, registerFunctions };
