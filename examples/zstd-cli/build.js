// Builds zstd_cli.c with zstd 1.5.7 (fetched and compiled once, as for tests/real/) for Spindle
// and, with --native, natively too; prints the paths.
// usage: node examples/zstd-cli/build.js [--native]
import { join } from 'node:path';
import { buildProgram } from '../../tests/real/build.js';

const source = join(import.meta.dirname, 'zstd_cli.c');
process.stdout.write(`${await buildProgram('zstd', { source })}\n`);
if (process.argv.includes('--native')) process.stdout.write(`${await buildProgram('zstd', { source, target: 'native' })}\n`);
