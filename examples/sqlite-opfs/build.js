// Builds catalog.c with SQLite 3.54.1 (fetched and compiled once, as for tests/real/) into
// build/real/bin/catalog-wasm.wasm and prints the path.
// usage: node examples/sqlite-opfs/build.js
import { join } from 'node:path';
import { buildProgram } from '../../tests/real/build.js';

process.stdout.write(`${await buildProgram('sqlite', { source: join(import.meta.dirname, 'catalog.c') })}\n`);
