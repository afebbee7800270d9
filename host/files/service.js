// The "spindle" imports files_* of runtime/wasi/host_files.c, on the worker that runs the hidden
// service thread: wait for the coordinator's next request, copy a file's pieces out to a JS
// buffer (reads) or have the coordinator copy into them (writes), and post each result.
import { BOX, COPY_IN, COPY_OUT, MAILBOX_BYTES, OP, PATHS_AT, PATH_MAX, RQ, STATE, TIMES_AT } from './mailbox.js';
import { fitsIn, piecesFit } from './pieces.js';

const decoder = new TextDecoder();

export function filesImports(init, memory, post) {
  const stub = () => 0;
  if (!init.files) {
    return { files_wanted: stub, files_unavailable: stub, files_wait: stub, files_pieces: stub,
      files_stat: stub, files_entry: stub, files_done: stub };
  }
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
    files_wanted: () => 1,
    files_unavailable: (err) => post({ type: 'files-failed', message: `the file service thread could not start (error ${err})` }),
    files_wait: (rq) => {
      rq >>>= 0; // (wasm's i32 arrives signed)
      if (!fitsIn(memory.buffer, rq, RQ.TIMES + times64.byteLength)) return 0; // a bad address: no request taken
      if (!announced) { announced = true; Atomics.store(box, BOX.SERVICE_SLOT, init.slot + 1); }
      for (;;) {
        const state = Atomics.load(box, BOX.STATE);
        if (state === STATE.REQUEST) break;
        Atomics.wait(box, BOX.STATE, state);
      }
      Atomics.store(box, BOX.STATE, STATE.BUSY);
      const view = new DataView(memory.buffer);
      const mem = new Uint8Array(memory.buffer);
      const op = box[BOX.OP];
      view.setInt32(rq + RQ.OP, op, true);
      view.setUint32(rq + RQ.MODE, box[BOX.MODE], true);
      view.setBigInt64(rq + RQ.SIZE, size64[BOX.SIZE64], true);
      const pathLen = box[BOX.PATH_LEN];
      const path2Len = box[BOX.PATH2_LEN];
      mem.set(boxBytes.subarray(PATHS_AT, PATHS_AT + pathLen), rq + RQ.PATH);
      mem[rq + RQ.PATH + pathLen] = 0;
      mem.set(boxBytes.subarray(PATHS_AT + PATH_MAX, PATHS_AT + PATH_MAX + path2Len), rq + RQ.PATH2);
      mem[rq + RQ.PATH2 + path2Len] = 0;
      times64.forEach((value, i) => view.setBigInt64(rq + RQ.TIMES + i * 8, value, true));
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
      if (room === undefined || !(count >= 0) || !fitsIn(memory.buffer, list, count * 8)) return;
      const view = new DataView(memory.buffer);
      const pieces = new Uint32Array(count * 2);
      for (let i = 0; i < count * 2; i++) pieces[i] = view.getUint32(list + i * 4, true);
      const bytes = piecesFit(pieces, memory.buffer);
      if (bytes < 0 || reply.at + bytes > room) return;
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
