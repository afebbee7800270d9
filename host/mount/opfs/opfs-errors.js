// Errors of the OPFS backend: an Errno carries the Linux errno a request answers with;
// errnoOf() turns whatever OPFS threw (a DOMException, a TypeError) into one.
import { ERRNO as E } from '../../abi/linux.js';

export class Errno extends Error {
  constructor(code, why) { super(why ?? `errno ${code}`); this.code = code; }
}

/** DOMException (or TypeError) -> Linux errno, with a hint for the ambiguous ones. */
export function errnoOf(err, { typeMismatch = E.ENOTDIR, busy = E.EBUSY } = {}) {
  if (err instanceof Errno) return err.code;
  switch (err?.name) {
    case 'NotFoundError': return E.ENOENT;
    case 'TypeMismatchError': return typeMismatch;
    case 'NoModificationAllowedError': return busy;
    case 'InvalidModificationError': return E.ENOTEMPTY;
    case 'QuotaExceededError': return E.ENOSPC;
    case 'NotAllowedError': case 'SecurityError': return E.EACCES;
    case 'InvalidStateError': return E.EBADF;
    case 'TypeError': return E.EINVAL; // a name OPFS does not accept
    default: return E.EIO;
  }
}
