// A short name for a text (FNV-1a, 32 bits, 8 hex digits): for file names that only need to
// tell a few texts apart (Node's options, a command line), where a collision costs a cache miss.
export function shortHash(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
