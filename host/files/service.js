// The "spindle" imports files_* of runtime/wasi/host_files.c, on the worker that runs the hidden
// service thread: wait for the coordinator's next request, copy a file's pieces out to a JS
// buffer (reads) or have the coordinator copy into them (writes), and post each result.
import { BOX, COPY_OUT, MAILBOX_BYTES, OP, PATHS_AT, PATH_MAX, RQ, STATE, TIMES_AT } from './mailbox.js';

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
      reply = { op, stat: null, entries: [], data: null, at: 0 };
      return op;
    },
    files_stat: (mode, size, ino, nlink, atimeNs, mtimeNs, ctimeNs) => {
      reply.stat = { mode, size: Number(size), ino: Number(ino), nlink: Number(nlink),
        atimeMs: Number(atimeNs) / 1e6, mtimeMs: Number(mtimeNs) / 1e6, ctimeMs: Number(ctimeNs) / 1e6 };
      if (reply.op === OP.READ) reply.data = new Uint8Array(Number(size));
    },
    files_entry: (name, len, type) => {
      // TextDecoder refuses views of shared memory: slice copies the name out first.
      reply.entries.push({ name: decoder.decode(new Uint8Array(memory.buffer).slice(name, name + len)), type });
    },
    files_pieces: (list, count, direction) => {
      const view = new DataView(memory.buffer);
      if (direction === COPY_OUT) {
        const mem = new Uint8Array(memory.buffer);
        for (let i = 0; i < count; i++) {
          const ptr = view.getUint32(list + i * 8, true);
          const len = view.getUint32(list + i * 8 + 4, true);
          if (ptr) reply.data.set(mem.subarray(ptr, ptr + len), reply.at); // else a hole: zeros
          reply.at += len;
        }
        return;
      }
      // A write: the bytes are on the coordinator, which copies them straight into these pieces.
      const pieces = new Uint32Array(count * 2);
      for (let i = 0; i < count * 2; i++) pieces[i] = view.getUint32(list + i * 4, true);
      Atomics.store(box, BOX.STATE, STATE.FILLING);
      post({ type: 'files-fill', pieces });
      waitWhile(STATE.FILLING);
      Atomics.store(box, BOX.STATE, STATE.BUSY);
    },
    files_done: (result) => {
      const { stat, entries, data } = reply;
      reply = null;
      Atomics.store(box, BOX.STATE, STATE.IDLE);
      post({ type: 'files-done', result: Number(result), stat, entries, data }, data ? [data.buffer] : []);
    },
  };
}
