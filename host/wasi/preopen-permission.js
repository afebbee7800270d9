// Permission checks on the WASI preopens of host/wasi/preopens.js, for a host that lets everything
// through (Node runs as root: the mount's checkModes). They are the rules that
// runtime/fs/mount/mount_permission.c applies to Spindle's own mounts, for the ordinary user who
// owns every file (docs/POSIX.md, "Permissions"), read from the modes the backend's stats
// report: a module without Spindle's filesystem, or a portable one (spindle cc --host=wasi),
// reaches host directories only through these preopens, and its filesystem cannot check them
// itself (WASI's filestat has no mode).
import { O } from '../abi/linux.js';
import { ERRNO } from '../abi/wasi.js';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const MAY = { READ: 4, WRITE: 2, EXEC: 1 }; // the owner's bits, shifted down

// A mode the backend could not give (-1) leaves the answer to the operation, as in C.
const ownerMay = (mode, want) => mode < 0 || ((mode >> 6) & want) === want;
const isDir = (mode) => mode >= 0 && (mode & S_IFMT) === S_IFDIR;

function openWants(flags) {
  const access = flags & O.ACCMODE;
  const want = access === O.WRONLY ? MAY.WRITE : access === O.RDWR ? MAY.READ | MAY.WRITE : MAY.READ;
  return flags & O.TRUNC ? want | MAY.WRITE : want;
}

/**
 * The checks for one mount. `modeAt(rel, follow)`: the st_mode of rel inside the mount (''
 * is its root), or -1 where it cannot be stat'ed. Each check throws `fail(errno)`'s error.
 */
export function preopenChecks(modeAt, fail) {
  const refuse = (allowed) => { if (!allowed) fail(ERRNO.ACCES); };

  // Search (x) on the root and on every directory above rel's last name; a missing name or a
  // file met as a directory ends the checks (the operation answers ENOENT or ENOTDIR). Returns
  // the mode of the directory holding the last name (-1: unknown).
  function search(rel) {
    let mode = modeAt('', true);
    refuse(ownerMay(mode, MAY.EXEC));
    const parts = rel.split('/');
    for (let i = 1; i < parts.length && isDir(mode); i++) {
      mode = modeAt(parts.slice(0, i).join('/'), true);
      if (isDir(mode)) refuse(ownerMay(mode, MAY.EXEC));
    }
    return isDir(mode) ? mode : -1;
  }

  // A name is added, removed or replaced: write and search on its directory, after the name's
  // existence as Linux checks it (EEXIST for an added name, ENOENT for a removed one).
  function nameChanges(rel, change) {
    if (ownerMay(search(rel), MAY.WRITE | MAY.EXEC)) return;
    const exists = modeAt(rel, false) >= 0;
    if (change === 'added' && exists) fail(ERRNO.EXIST);
    if (change === 'removed' && !exists) fail(ERRNO.NOENT);
    fail(ERRNO.ACCES);
  }

  return {
    search,
    nameChanges,
    // Before an open with Linux's `flags`: the search, and with O_CREAT or O_TRUNC the file's
    // own mode (a refused O_TRUNC truncates nothing) or, for a file O_CREAT makes, its
    // directory's. Other opens are checked after, by `opened`, with the mode the open reports.
    beforeOpen(rel, flags) {
      const parent = search(rel);
      if (!(flags & (O.CREAT | O.TRUNC))) return;
      const mode = modeAt(rel, true);
      if (mode < 0) refuse(!(flags & O.CREAT) || ownerMay(parent, MAY.WRITE | MAY.EXEC));
      else if ((flags & (O.CREAT | O.EXCL)) !== (O.CREAT | O.EXCL)) refuse(ownerMay(mode, openWants(flags)));
    },
    opened(flags, mode) {
      if (!(flags & (O.CREAT | O.TRUNC))) refuse(ownerMay(mode, openWants(flags)));
    },
    // A directory that rename moves to another parent needs write permission itself (its ".."
    // changes).
    movedDir(from, to) {
      const parentOf = (rel) => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
      const mode = parentOf(from) === parentOf(to) ? -1 : modeAt(from, false);
      if (isDir(mode)) refuse(ownerMay(mode, MAY.WRITE));
    },
  };
}
