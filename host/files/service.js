// The "spindle" imports files_* of runtime/wasi/files_api_service.c, on the worker that runs the hidden
// service thread: wait for the coordinator's next request, copy a file's pieces out to a JS
// buffer (reads) or have the coordinator copy into them (writes), and post each result. On the
// C main's thread they also hand out the steps of the preloaded files (preload-serve.js).
import { BOX, COPY_IN, COPY_OUT, MAILBOX_BYTES, OP, PATHS_AT, PATH_MAX, RQ, RQ_BYTES, STATE, TIMES_AT } from './mailbox.js';
import { fitsIn, readPieces } from './pieces.js';
import { preloadServer } from './preload-serve.js';
import { ProgramFailure } from '../threads/program-failure.js';

const decoder = new TextDecoder();
const stub = () => 0;

/** Writes a request into runtime/wasi's struct request at rq (paths as bytes, no NUL). */
function requestWriter(memory) {
  return (rq, { op, mode, size, path, path2, times }) => {
    const view = new DataView(memory.buffer);
    const mem = new Uint8Array(memory.buffer);
    view.setInt32(rq + RQ.OP, op, true);
    view.setUint32(rq + RQ.MODE, mode, true);
    view.setBigInt64(rq + RQ.SIZE, BigInt(size), true);
    mem.set(path, rq + RQ.PATH);
    mem[rq + RQ.PATH + path.length] = 0;
    mem.set(path2 ?? [], rq + RQ.PATH2);
    mem[rq + RQ.PATH2 + (path2?.length ?? 0)] = 0;
    times.forEach((value, i) => view.setBigInt64(rq + RQ.TIMES + i * 8, value, true));
  };
}

export function filesImports(init, memory, post) {
  // the C main's thread only; requests of the files API come after them (files_api_service.c)
  const preload = init.preload?.length ? preloadServer(init.preload) : null;
  const writeRequest = requestWriter(memory);
  const service = init.files ? serviceImports(init, memory, post, writeRequest) : null;
  return {
    files_wanted: () => (service ? 1 : 0),
    files_unavailable: (err) => {
      if (preload?.active()) throw new ProgramFailure(`preloading files failed: the filesystem could not start (WASI error ${err})`, { frames: false });
      service?.files_unavailable(err);
    },
    files_wait: service?.files_wait ?? stub,
    files_preload_next: (rq) => {
      rq >>>= 0; // (wasm's i32 arrives signed)
      if (!preload || !fitsIn(memory.buffer, rq, RQ_BYTES)) return 0; // a bad address: no step taken
      return preload.next(writeRequest, rq);
    },
    files_stat: (mode, ...rest) => (preload?.active() ? preload.stat(mode) : service?.files_stat(mode, ...rest)),
    files_entry: service?.files_entry ?? stub,
    files_pieces: (list, count, direction) => (preload?.active()
      ? preload.pieces(memory, list >>> 0, count, direction) : service?.files_pieces(list, count, direction)),
    files_done: (result) => (preload?.active() ? preload.done(result) : service?.files_done(result)),
  };
}

/** The service thread's imports (init.files: the program offers the files API). */
function serviceImports(init, memory, post, writeRequest) {
  const box = new Int32Array(init.files.mailbox);
  const size64 = new BigInt64Array(init.files.mailbox, 0, 4);
  const boxBytes = new Uint8Array(init.files.mailbox, 0, MAILBOX_BYTES);
  const times64 = new BigInt64Array(init.files.mailbox, TIMES_AT, 6);
  let announced = false;
  let reply = null;

  function waitWhile(state) {
    while (Atomics.load(box, BOX.STATE) === state) Atomics.wait(box, BOX.STATE, state);
  }

  return {
    files_unavailable: (err) => post({ type: 'files-failed', message: `the file service thread could not start (error ${err})` }),
    files_wait: (rq) => {
      rq >>>= 0; // (wasm's i32 arrives signed)
      if (!fitsIn(memory.buffer, rq, RQ_BYTES)) return 0; // a bad address: no request taken
      if (!announced) { announced = true; Atomics.store(box, BOX.SERVICE_SLOT, init.slot + 1); }
      for (;;) {
        const state = Atomics.load(box, BOX.STATE);
        if (state === STATE.REQUEST) break;
        Atomics.wait(box, BOX.STATE, state);
      }
      Atomics.store(box, BOX.STATE, STATE.BUSY);
      const op = box[BOX.OP];
      writeRequest(rq, { op, mode: box[BOX.MODE], size: size64[BOX.SIZE64], times: times64,
        path: boxBytes.subarray(PATHS_AT, PATHS_AT + box[BOX.PATH_LEN]),
        path2: boxBytes.subarray(PATHS_AT + PATH_MAX, PATHS_AT + PATH_MAX + box[BOX.PATH2_LEN]) });
      // size: a write's bytes (they stay on the coordinator); at: how many were copied so far
      reply = { op, stat: null, entries: [], data: null, at: 0, size: Number(size64[BOX.SIZE64]) };
      return op;
    },
    // (the calls below are the service's answer to the request files_wait took: out of turn, or
    // with sizes and addresses that do not fit, a hostile module's call is ignored)
    files_stat: (mode, size, ino, nlink, atimeNs, mtimeNs, ctimeNs) => {
      if (!reply || size < 0n || size > BigInt(memory.buffer.byteLength)) return;
      reply.stat = { mode, size: Number(size), ino: Number(ino), nlink: Number(nlink),
        atimeMs: Number(atimeNs) / 1e6, mtimeMs: Number(mtimeNs) / 1e6, ctimeMs: Number(ctimeNs) / 1e6 };
      if (reply.op === OP.READ && !reply.data) reply.data = new Uint8Array(Number(size));
    },
    files_entry: (name, len, type) => {
      name >>>= 0;
      if (!reply || !fitsIn(memory.buffer, name, len)) return;
      // TextDecoder refuses views of shared memory: slice copies the name out first.
      reply.entries.push({ name: decoder.decode(new Uint8Array(memory.buffer).slice(name, name + len)), type });
    },
    files_pieces: (list, count, direction) => {
      list >>>= 0;
      // a read copies out into the bytes its stat sized, a write in from the coordinator's
      const room = direction === COPY_OUT && reply?.op === OP.READ ? reply.data?.length
        : direction === COPY_IN && reply?.op === OP.WRITE ? reply.size : undefined;
      const read = room === undefined ? null : readPieces(memory, list, count);
      if (!read || reply.at + read.total > room) return;
      const { pieces, total: bytes } = read;
      if (direction === COPY_OUT) {
        const mem = new Uint8Array(memory.buffer);
        for (let i = 0; i < pieces.length; i += 2) {
          const [ptr, len] = [pieces[i], pieces[i + 1]];
          if (ptr) reply.data.set(mem.subarray(ptr, ptr + len), reply.at); // else a hole: zeros
          reply.at += len;
        }
        return;
      }
      reply.at += bytes;
      // A write: the bytes are on the coordinator, which copies them straight into these pieces.
      Atomics.store(box, BOX.STATE, STATE.FILLING);
      post({ type: 'files-fill', pieces });
      waitWhile(STATE.FILLING);
      Atomics.store(box, BOX.STATE, STATE.BUSY);
    },
    files_done: (result) => {
      if (!reply) return;
      const { stat, entries, data } = reply;
      reply = null;
      Atomics.store(box, BOX.STATE, STATE.IDLE);
      post({ type: 'files-done', result: Number(result), stat, entries, data }, data ? [data.buffer] : []);
    },
  };
}
