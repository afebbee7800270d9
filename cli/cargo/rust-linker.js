#!/usr/bin/env node
// The linker `spindle cargo` gives rustc (-C linker=this -C linker-flavor=wasm-ld): rustc's own
// wasm-ld command plus Spindle's runtime, as `spindle cc` links it. The runtime archives go
// before rustc's `-l c`: wasm-ld takes a symbol from the first archive that offers it, so after
// libc, std's malloc would silently stay wasi-libc's dlmalloc. The link is checked for that,
// then linked again with definitions for Rust's direct WASI imports (cli/cargo/wasi-import-bindings.js).
// The stack check's post-link pass (cli/build/stack-check.js) runs on the result, as in spindle cc.
// Settings (--malloc, --fs, sizes, preloads, --as-root, ...) come from cli/cargo/cargo.js as one argument,
// --spindle-settings=BASE64URL(JSON), passed through RUSTFLAGS: so cargo relinks when they change.
import { spawnSync } from 'node:child_process';

import { fileURLToPath } from 'node:url';
import { moduleLinkerFlags, runtimeLinkArgs } from '../build/cc.js';
import { prefillCodeCache } from '../common/turbofan-maker.js';
import { appendPreloadSection, collectPreload } from '../common/preload-files.js';
import { componentArchive } from '../build/runtime-lib.js';
import { addStackCheck, stackCheckWanted } from '../build/stack-check.js';
import { requireSetup, wasmLd } from '../common/toolchain.js';
import { buildBindings, directWasiImports, undefinedSymbols } from './wasi-import-bindings.js';

const { mkdirSync, renameSync, rmSync } = process.getBuiltinModule('node:fs');

const SETTINGS_FLAG = '--spindle-settings=';

export function settingsArg(settings) {
  return `${SETTINGS_FLAG}${Buffer.from(JSON.stringify(settings)).toString('base64url')}`;
}

// rustc's memory and stack flags for the target, replaced by Spindle's (moduleLinkerFlags).
const replacedFlags = new Set(['--import-memory', '--export-memory', '--shared-memory']);
const stripFlags = new Set(['--strip-all', '--strip-debug', '-s', '-S']);
const stripNameFlags = new Set(['--strip-all', '-s']);

// --keep-names: a profile's `strip = "symbols"` (wasm-ld --strip-all) drops only the DWARF.
function keepingNames(args) {
  return args.map((a) => (stripNameFlags.has(a) ? '--strip-debug' : a));
}

/** clang-driver link arguments (`-Wl,a,b`, files) as wasm-ld arguments. */
function asLinkerArgs(clangArgs) {
  return clangArgs.flatMap((a) => (a.startsWith('-Wl,') ? a.slice(4).split(',') : [a]));
}

/** rustc's arguments with its memory/stack flags removed; `at` is where libc is linked. */
export function rustcArgs(args) {
  const kept = [];
  let libcAt = -1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (replacedFlags.has(a) || a.startsWith('--max-memory=')) continue;
    if (a === '-z' && args[i + 1]?.startsWith('stack-size=')) { i++; continue; }
    if (libcAt < 0 && ((a === '-l' && args[i + 1] === 'c') || a === '-lc')) libcAt = kept.length;
    kept.push(a);
  }
  return { kept, libcAt: libcAt < 0 ? kept.length : libcAt };
}

function outputOf(args) {
  const i = args.indexOf('-o');
  if (i < 0 || i + 1 >= args.length) throw new Error('spindle rust linker: rustc gave no -o OUTPUT');
  return args[i + 1];
}

function withOutput(args, out) {
  const i = args.indexOf('-o');
  return [...args.slice(0, i + 1), out, ...args.slice(i + 2)];
}

/** Runs wasm-ld; returns the files that defined malloc (from --trace-symbol). */
function wasmLdLink(args) {
  const r = spawnSync(wasmLd, [...args, '--trace-symbol=malloc'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`cannot run ${wasmLd}: ${r.error.message}`);
  const trace = /^(.*): definition of malloc$/;
  const definers = [];
  for (const line of `${r.stdout}`.split('\n')) {
    const m = trace.exec(line);
    if (m) definers.push(m[1]);
    else if (line.trim() && !/: reference to malloc$/.test(line)) process.stdout.write(`${line}\n`);
  }
  process.stderr.write(r.stderr);
  if (r.status !== 0) throw new Error(`${wasmLd} failed (exit ${r.status})`);
  return definers;
}

// The allocator actually linked must be the one asked for: a wrong archive order links
// wasi-libc's dlmalloc without any error.
export function checkAllocator(definers, malloc) {
  if (malloc === 'dlmalloc' || definers.length === 0) return;
  const fromLibc = definers.find((file) => /\blibc\.a\(/.test(file));
  if (fromLibc) {
    throw new Error(`spindle rust linker: malloc came from ${fromLibc}, not --malloc=${malloc}: ` +
      'the runtime archives were not linked before libc');
  }
}

export async function linkRust(args, settings) {
  requireSetup();
  const { kept, libcAt } = rustcArgs(settings.keepNames ? keepingNames(args) : args);
  const runtime = settings.bare ? [] : [
    ...asLinkerArgs(await runtimeLinkArgs(settings)),
    // runtime/rust: RAYON_NUM_THREADS from the real core count, set before main (a constructor,
    // kept by --whole-archive because nothing references it), and abort() as exit(134).
    '--wrap=abort', '--whole-archive', await componentArchive('rust'), '--no-whole-archive',
  ];
  const linkArgs = [...kept.slice(0, libcAt), ...runtime, ...kept.slice(libcAt), ...moduleLinkerFlags(settings)];
  const out = outputOf(linkArgs);
  const work = `${out}.spindle`;
  mkdirSync(work, { recursive: true });
  // First link unstripped: its name section names the symbols of the direct WASI imports.
  const first = `${work}/first.wasm`;
  const unstripped = withOutput(linkArgs.filter((a) => !stripFlags.has(a)), first);
  checkAllocator(wasmLdLink(unstripped), settings.malloc);
  const direct = settings.bare ? [] : directWasiImports(first, undefinedSymbols(runtime.filter((a) => a.endsWith('.a'))));
  const stripped = linkArgs.some((a) => stripFlags.has(a));
  if (direct.length || stripped) {
    const bindings = direct.length ? [buildBindings(direct, work)] : [];
    // Without DWARF, operands shrink from their padded 5-byte form, as in spindle cc (cli/build/cc.js).
    checkAllocator(wasmLdLink([...linkArgs, ...bindings, ...(stripped ? ['--compress-relocations'] : [])]), settings.malloc);
  } else {
    renameSync(first, out);
  }
  rmSync(work, { recursive: true, force: true });
  // Also in a build that keeps DWARF (cargo's dev profile): unlike spindle cc's explicit -g, that
  // is only the default, and an unoptimised build is the one most likely to overflow. The pass
  // drops the DWARF, whose code offsets no longer hold; --no-stack-check keeps it.
  if (stackCheckWanted(settings)) addStackCheck(out);
  if (settings.preload?.length) appendPreloadSection(out, collectPreload(settings.preload, '--preload-file'));
  if (!settings.bare) await prefillCodeCache(out);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const text = args.find((a) => a.startsWith(SETTINGS_FLAG));
  try {
    if (!text) throw new Error(`${process.argv[1]} is the linker of \`spindle cargo\`; build through it (no ${SETTINGS_FLAG})`);
    const settings = JSON.parse(Buffer.from(text.slice(SETTINGS_FLAG.length), 'base64url').toString());
    await linkRust(args.filter((a) => a !== text), settings);
  } catch (err) {
    process.stderr.write(`spindle: ${err.message}\n`);
    process.exit(1);
  }
}
