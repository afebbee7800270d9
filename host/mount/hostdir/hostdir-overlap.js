// Two host-directory mounts must not share host files: with /a on DIR and /b on DIR/sub, a
// program could rename sub away through /a and put a symlink in its place, so that /b's root
// would lead outside both. Refused before the program starts (docs/MOUNTS.md, section 5).

const within = (inner, outer) => inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);

/** Throws if one mount's real host directory is another's or inside it. mounts: [{ path, config: { root } }] */
export function checkHostDirsApart(mounts) {
  for (let i = 0; i < mounts.length; i++) {
    for (let j = 0; j < mounts.length; j++) {
      const [a, b] = [mounts[i], mounts[j]];
      if (i === j || !within(a.config.root, b.config.root)) continue;
      if (a.config.root === b.config.root && i > j) continue; // said once, for the first pair
      const how = a.config.root === b.config.root ? 'the same host directory as' : 'a host directory inside that of';
      throw new Error(`mount ${a.path}: ${a.config.root} is ${how} mount ${b.path} (${b.config.root}); mounts must not overlap`);
    }
  }
}
