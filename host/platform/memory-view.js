// A thread's view of the program's shared memory. V8 keeps each thread's size of a shared
// WebAssembly.Memory and updates it when another thread grows the memory; but a worker that took
// the memory in while main was growing it kept the size it had then for good (measured: a worker
// whose memory.buffer held 2,359,296 bytes for its whole run, its thread's stack at 2,735,912),
// so the host's bounds checks refused that thread's pointers (EFAULT: its clock_gettime failed
// and pthread_mutex_timedlock answered EINVAL). memory.grow(0) brings the calling thread's size
// up to date, as runtime/alloc does for wasm's own memory.fill and memory.copy.

/** Brings this thread's view of `memory` up to date (a shared memory; an unshared one is never behind). */
export function catchUpMemory(memory) {
  if (memory.buffer instanceof SharedArrayBuffer) memory.grow(0);
}

/** memory.buffer, brought up to date first where it ends before byte `end`. */
export function bufferCovering(memory, end) {
  const buffer = memory.buffer;
  if (end <= buffer.byteLength || !(buffer instanceof SharedArrayBuffer)) return buffer;
  memory.grow(0);
  return memory.buffer;
}
