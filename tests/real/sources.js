// Third-party sources of the real-program tests, fetched at test time through cargo (crates.io's
// client) or, for a package only Debian's archive carries, downloaded from its pool; pinned by exact
// version and checked against the sha256 written here before anything is unpacked. Nothing
// fetched is committed: archives and unpacked trees live under build/real/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const realDir = join(root, 'build', 'real');

export const pinned = {
  // SQLite 3.54.1's amalgamation, bundled by rusqlite's sys crate (sqlite3/sqlite3.c).
  sqlite: { name: 'libsqlite3-sys', version: '0.40.0',
    sha256: 'b06e69070b7e12262b0cd90832f0a7396f142a2b330181255562decf9f0c6215' },
  // zstd 1.5.7's library sources (zstd/lib).
  zstd: { name: 'zstd-sys', version: '2.1.3+zstd.1.5.7',
    sha256: 'f729a06d0257428fd9d997ac8db7e1407bd0262ab016b085b36bc52957c0052d' },
  // Lua 5.4.9's sources (lua-5.4.9/). Not lupa's PyPI sdist, which ships the same Lua: pip
  // cannot download an sdist without asking it for metadata, and lupa's setup builds LuaJIT
  // to answer (minutes on 2 cores).
  lua: { name: 'lua-src', version: '551.1.0',
    sha256: '41d22b201501a536c0f5a96c7589b268b559172b20fb029064434e38ddcecb1f' },
  // zlib 1.3.1's sources (src/zlib), bundled by the Rust binding's sys crate; 1.1.22 is the last
  // release with 1.3.1 (later ones bundle 1.3.2).
  zlib: { name: 'libz-sys', version: '1.1.22',
    sha256: '8b70e7a7df205e92a1a4cd9aaae7898dac0aa555503cc0a649494d0d60e7651d' },
  // pigz 2.8, the upstream tarball as Debian 13 (trixie) ships it; the sha256 is the one in
  // trixie's signed source index (dists/trixie/main/source/Sources).
  pigz: { name: 'pigz', version: '2.8',
    url: 'http://deb.debian.org/debian/pool/main/p/pigz/pigz_2.8.orig.tar.xz',
    sha256: 'bec34f9d61e28b9b069da9efd53e73d22cd207a4798ed664832dc9b17aa486aa' },
  // ripgrep 15.1.0, its binary crate (with the Cargo.lock its release was built with).
  ripgrep: { name: 'ripgrep', version: '15.1.0',
    sha256: 'f388c4955f85477c28a8667355819844a06614b083c23517f0e86bd1d6d82b73' },
};

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

// cargo fetch into a throwaway project with an exact requirement; cargo itself checks the crate
// against the index's checksum, we check it again against ours.
function fetchCrate({ name, version }, work) {
  const project = join(work, `fetch-${name}`);
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'Cargo.toml'),
    `[package]\nname = "fetch-${name}"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n${name} = "=${version}"\n`);
  writeFileSync(join(project, 'src', 'main.rs'), 'fn main() {}\n');
  execFileSync('cargo', ['fetch', '--quiet'], { cwd: project, stdio: ['ignore', 'inherit', 'inherit'] });
  const cache = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'cache');
  for (const index of readdirSync(cache)) {
    const file = join(cache, index, `${name}-${version}.crate`);
    if (existsSync(file)) return file;
  }
  throw new Error(`cargo fetched ${name} ${version} but its .crate is not in ${cache}`);
}

// A pool file of Debian's archive, downloaded over plain HTTP as apt does: the pinned sha256 (from
// the signed index) is what makes it trustworthy, and it is checked before unpacking.
function download({ url }, work) {
  const file = join(work, 'downloads', url.split('/').pop());
  if (existsSync(file)) return file;
  mkdirSync(join(work, 'downloads'), { recursive: true });
  execFileSync('curl', ['--fail', '--silent', '--show-error', '--location', '--output', `${file}.${process.pid}`, url],
    { stdio: ['ignore', 'inherit', 'inherit'] });
  renameSync(`${file}.${process.pid}`, file);
  return file;
}

/**
 * The unpacked tree of a pinned package (a key of `pinned`), fetched and verified the
 * first time: build/real/src/<name>-<version>/.
 */
export function sourceTree(key) {
  const pkg = pinned[key];
  const tree = join(realDir, 'src', `${pkg.name}-${pkg.version}`);
  if (existsSync(join(tree, '.verified'))) return tree;
  mkdirSync(realDir, { recursive: true });
  const archive = pkg.url ? download(pkg, realDir) : fetchCrate(pkg, realDir);
  const actual = sha256(archive);
  if (actual !== pkg.sha256) {
    throw new Error(`${pkg.name} ${pkg.version}: sha256 ${actual} of ${archive} is not the pinned ${pkg.sha256}`);
  }
  // Unpacked beside and renamed into place, so two test processes fetching at once (the bench
  // smoke test and this suite) never see a half-unpacked tree.
  const staging = join(realDir, 'src', `.unpack-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  execFileSync('tar', ['-xf', archive, '-C', staging]); // gzip (crates) or xz (Debian), told apart by tar
  const unpacked = join(staging, `${pkg.name}-${pkg.version}`);
  if (!existsSync(unpacked)) throw new Error(`${archive} did not unpack into ${pkg.name}-${pkg.version}/`);
  writeFileSync(join(unpacked, '.verified'), `${actual}\n`);
  if (existsSync(tree) && !existsSync(join(tree, '.verified'))) rmSync(tree, { recursive: true, force: true }); // an older, unverified unpack
  try {
    renameSync(unpacked, tree);
  } catch (err) {
    if (!existsSync(join(tree, '.verified'))) throw err; // else another process put the same tree there first
  }
  rmSync(staging, { recursive: true, force: true });
  return tree;
}
