// Checks on what the files service's imports are handed (host/files/service.js, client.js): a
// module may call them itself with any addresses, so nothing is copied before it fits.

/** Whether `len` bytes at `ptr` lie inside `buffer` (a module's memory). */
export const fitsIn = (buffer, ptr, len) => ptr >= 0 && len >= 0 && ptr + len <= buffer.byteLength;

/**
 * pieces: [ptr, len, ptr, len, ...] in `buffer`. Their total length in bytes, or -1 if one does
 * not lie inside the buffer (ptr 0 is a hole: no bytes in memory).
 */
export function piecesFit(pieces, buffer) {
  let total = 0;
  for (let i = 0; i < pieces.length; i += 2) {
    if (pieces[i] !== 0 && !fitsIn(buffer, pieces[i], pieces[i + 1])) return -1;
    total += pieces[i + 1];
  }
  return total;
}

/**
 * The list of `count` pieces at `list` in a module's memory as [ptr, len, ...], or null when the
 * list or a piece does not lie inside it; total: their length in bytes.
 */
export function readPieces(memory, list, count) {
  if (!(count >= 0) || !fitsIn(memory.buffer, list, count * 8)) return null;
  const view = new DataView(memory.buffer);
  const pieces = new Uint32Array(count * 2);
  for (let i = 0; i < count * 2; i++) pieces[i] = view.getUint32(list + i * 4, true);
  const total = piecesFit(pieces, memory.buffer);
  return total < 0 ? null : { pieces, total };
}
