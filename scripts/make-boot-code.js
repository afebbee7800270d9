#!/usr/bin/env node
// Keeps V8's code of bin/spindle's boot script (build/bundle/boot.cjs, cli/boot.js) for the Node
// that runs this: `node scripts/make-boot-code.js BUNDLE_DIR`, which scripts/build-run-bundle.js
// runs with each Node it finds. bin/spindle runs the boot before any cache folder is known, so
// its code lives beside the bundle, named by this Node's version and architecture and the
// bundle's mtime and size (bin/spindle reads that name): a bundle built again finds no code
// until it is made again, and another Node finds none of its own. Every function is compiled
// (V8 compiles lazily, and the boot's ~40 functions were compiled from source on each start);
// V8 takes code made under other flags for none, so lazy compilation is back on before the code
// is written.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { BOOT_BUNDLE, bootCodeName } from '../cli/common/bundle-record.js';

const dir = process.argv[2];
const path = join(dir, BOOT_BUNDLE);
const source = readFileSync(path, 'latin1'); // (as bin/spindle reads it: the bundle is ASCII)
setFlagsFromString('--no-lazy');
const script = new Script(source, { filename: path });
setFlagsFromString('--lazy');
const file = join(dir, bootCodeName(statSync(path)));
writeFileSync(`${file}.${process.pid}`, script.createCachedData());
renameSync(`${file}.${process.pid}`, file);
