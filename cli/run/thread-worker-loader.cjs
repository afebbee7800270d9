// What a thread worker of a bundled run starts from (cli/run/script-cache.js, workerScript): the
// thread worker's bundle as a script, with the V8 code workerData.script brings, then the script
// handed to the bundle (host/program/thread-worker.js, scriptLoaded), which keeps its code after
// the worker's first thread where none came or V8 refused it. A file, not eval'd code, so that
// what Node preloads into every worker (--import, --require) runs here too.
'use strict';
const { path, url, cachedData, keep } = require('node:worker_threads').workerData.script;
const script = new (require('node:vm').Script)(require('node:fs').readFileSync(path, 'latin1'), { filename: path, cachedData: cachedData ?? undefined });
const bundle = { exports: {} };
script.runInThisContext()(bundle.exports, require, bundle, url);
bundle.exports.scriptLoaded(script, !cachedData || script.cachedDataRejected ? keep : null);
