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
