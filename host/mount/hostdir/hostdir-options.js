// The options of a host-directory mount beyond { path, hostDir } (docs/MOUNTS.md, section 5):
//   symlinks: 'inside' (default) | 'any'  which symlinks the program may create
//   quota: bytes                          how much the program may add to the mount's files
import { createQuota } from './quota.js';

const SYMLINKS = ['inside', 'any'];

/** Checks a spec's options; returns the part of the mount's config they make. */
export function checkMountOptions(spec) {
  const symlinks = spec.symlinks ?? 'inside';
  if (!SYMLINKS.includes(symlinks)) {
    throw new Error(`mount ${spec.path}: symlinks must be ${SYMLINKS.map((s) => `'${s}'`).join(' or ')} (got ${JSON.stringify(spec.symlinks)})`);
  }
  if (spec.quota === undefined) return { symlinks };
  if (!Number.isSafeInteger(spec.quota) || spec.quota < 0) {
    throw new Error(`mount ${spec.path}: quota must be a number of bytes (got ${JSON.stringify(spec.quota)})`);
  }
  return { symlinks, quota: createQuota(spec.quota) };
}

/**
 * Whether a symlink with this target, made in the mount's directory `dir` (its components from
 * the mount's root), would point outside the mount, read lexically: an absolute target, or more
 * leading `..` than `dir` is deep. A `..` after a name also counts as leaving, since that name
 * may itself be a symlink (`a/..` is then not `.`).
 */
export function symlinkLeaves(target, dir) {
  if (target.startsWith('/')) return true;
  let depth = dir.length;
  let named = false;
  for (const c of target.split('/')) {
    if (c === '' || c === '.') continue;
    if (c !== '..') named = true;
    else if (named || --depth < 0) return true;
  }
  return false;
}
