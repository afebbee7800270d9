// Preloaded files, on the C main's thread: runtime/wasi/files_api_service.c asks for the steps of
// preloadSteps (host/files/preload.js) one at a time (files_preload_next) and runs each with the
// files service's own code, before any of the program's code and with no service thread. A
// file's bytes are copied once, from the image straight into its chunks (files_pieces). A step
// that fails ends the run with a message that names it, as a corrupt image does.
import { ERRNO } from '../abi/linux.js';
import { ProgramFailure } from '../threads/program-failure.js';
import { COPY_IN, OP, splitNs } from './mailbox.js';
import { readPieces } from './pieces.js';
import { preloadSteps } from './preload.js';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const NAMES = Object.fromEntries(Object.entries(ERRNO).map(([name, n]) => [n, name]));
const VERBS = { [OP.WRITE]: 'write', [OP.STAT]: 'stat', [OP.MKDIR]: 'mkdir', [OP.UNLINK]: 'unlink',
  [OP.SYMLINK]: 'symlink', [OP.RESTORE_ATTRS]: 'restore the mode and times of' };

/**
 * The preload half of the files imports for `images` (Uint8Arrays in the preload format):
 * { next(writeRequest, rq), active(), pieces(memory, list, count, direction), stat(mode),
 * done(result) }. writeRequest(rq, request) fills runtime/wasi's struct request.
 */
export function preloadServer(images) {
  const steps = preloadSteps(images);
  const decoder = new TextDecoder();
  let index = 0;
  let step = null; // the step handed out and not yet done
  let at = 0; // a write's bytes copied so far
  let statMode = null;

  const failed = (why) => new ProgramFailure(`preloading files failed: ${step.isDir ? 'mkdir' : VERBS[step.op]} ${decoder.decode(step.path)}: ${why}`, { frames: false });
  return {
    next(writeRequest, rq) {
      if (step || index === steps.length) return 0; // (out of turn from a hostile module: no step)
      step = steps[index++];
      at = 0;
      statMode = null;
      writeRequest(rq, { op: step.op, mode: step.mode ?? 0, size: step.data?.length ?? 0, path: step.path,
        path2: step.path2, times: (step.times ?? [0n, 0n, 0n]).flatMap(splitNs) });
      return step.op;
    },
    active: () => step !== null,
    // a write's chunks, in order: filled from the image (a hostile module's bad list gets nothing)
    pieces(memory, list, count, direction) {
      const read = step.op === OP.WRITE && direction === COPY_IN ? readPieces(memory, list, count) : null;
      if (!read || at + read.total > step.data.length) return;
      const { pieces } = read;
      const mem = new Uint8Array(memory.buffer);
      for (let i = 0; i < pieces.length; i += 2) {
        if (pieces[i]) mem.set(step.data.subarray(at, at + pieces[i + 1]), pieces[i]);
        at += pieces[i + 1];
      }
    },
    stat(mode) { statMode = mode; },
    done(result) {
      if (!step) return;
      const errno = -Number(result);
      const ok = errno <= 0 || step.tolerate === 'any' || NAMES[errno] === step.tolerate;
      if (!ok) throw failed(NAMES[errno] ?? `error ${errno}`);
      if (step.isDir && errno <= 0 && (statMode & S_IFMT) !== S_IFDIR) throw failed('it is there and not a directory');
      step = null;
    },
  };
}
