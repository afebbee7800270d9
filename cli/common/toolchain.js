// Where setup put the toolchain, and the versions it pinned (scripts/versions.env).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { existsSync, readFileSync } = process.getBuiltinModule('node:fs');

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const toolchainDir = join(root, '.toolchain');
export const sysroot = join(toolchainDir, 'sysroot');

function pinnedVersions() {
  const text = readFileSync(join(root, 'scripts', 'versions.env'), 'utf8');
  return Object.fromEntries(
    [...text.matchAll(/^([A-Z_]+)=("?)(.*)\2$/gm)].map(([, key, , value]) => [key, value]),
  );
}

const versions = pinnedVersions();
export const clang = `clang-${versions.CLANG_MAJOR}`;
export const clangxx = `clang++-${versions.CLANG_MAJOR}`;
export const llvmAr = `llvm-ar-${versions.CLANG_MAJOR}`;
export const wasmLd = `wasm-ld-${versions.CLANG_MAJOR}`;
export const llvmNm = `llvm-nm-${versions.CLANG_MAJOR}`;
export const target = 'wasm32-wasip1-threads';
export const rustToolchain = versions.RUST_TOOLCHAIN;

// One file from each build step that puts libraries in the sysroot, so a toolchain set up
// before a step existed asks for setup instead of failing in the linker.
const setupProducts = ['libc++.a', 'noeh/libc++.a', 'libsetjmp.a', 'libwasi-emulated-mman.a'];

export function requireSetup() {
  const missing = setupProducts.map((f) => join(sysroot, 'lib', target, f)).find((f) => !existsSync(f));
  if (missing) throw new Error(`toolchain not set up: run scripts/setup.sh (missing ${missing})`);
}
