// Reads Spindle's own command-line options the way clang reads its long options: a value is
// given either as `--name=value` or as the next argument, `--name value`. Every command (cc, run,
// bench) describes its options in a table and reads them with `readOption`.

/**
 * Kinds of option in a table `{ '--name': kind }`:
 *   'switch'  takes no value (`--browser`);
 *   any other string: needs a value, which the string describes for the error when it is
 *             missing (`'a size'`: `--max-memory=64M`, `--max-memory 64M`);
 *   a function (next argument) => boolean: an optional value, taken from `--name=value`, or from
 *             the next argument when the function accepts it (`--env NAME=VALUE`; `--env` alone).
 */

/**
 * Reads the option at `args[i]` if the table knows it. Returns { flag, value, next } (value is
 * null for a switch or an optional value not given; next is the index after the option) or null
 * when `args[i]` is not one of the table's options.
 */
export function readOption(args, i, table) {
  const arg = args[i];
  if (typeof arg !== 'string' || !arg.startsWith('--')) return null;
  const eq = arg.indexOf('=');
  const flag = eq < 0 ? arg : arg.slice(0, eq);
  const kind = table[flag];
  if (!kind) return null;
  if (eq >= 0) {
    if (kind === 'switch') throw new Error(`${flag} takes no value (got ${arg})`);
    return { flag, value: arg.slice(eq + 1), next: i + 1 };
  }
  if (kind === 'switch') return { flag, value: null, next: i + 1 };
  const following = args[i + 1];
  if (typeof kind === 'function') {
    return following !== undefined && kind(following) ? { flag, value: following, next: i + 2 } : { flag, value: null, next: i + 1 };
  }
  if (following === undefined) throw new Error(`${flag}: give ${kind} (${flag}=VALUE or ${flag} VALUE)`);
  return { flag, value: following, next: i + 2 };
}

/** A size option's value in bytes: 65536, 512K, 64M, 1G (KiB, MiB, GiB). */
export function parseSize(text, what) {
  const m = /^(\d+)([kKmMgG]i?[bB]?)?$/.exec(text);
  if (!m) throw new Error(`${what}: '${text}' is not a size (e.g. 65536, 512K, 64M, 1G)`);
  const unit = { k: 1 << 10, m: 1 << 20, g: 1 << 30 }[(m[2] || '').charAt(0).toLowerCase()] || 1;
  return Number(m[1]) * unit;
}
