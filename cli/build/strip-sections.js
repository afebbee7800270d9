// Removes custom sections from a linked module in place: the function names, the producers and
// target-features records wasm-ld writes. They help a debugger or a linker, not a running program.
import { sections } from '../../host/compile/module-info.js';

const { readFileSync, writeFileSync } = process.getBuiltinModule('node:fs');

export const metadataSections = ['name', 'producers', 'target_features'];

export function dropCustomSections(wasmPath, names) {
  const bytes = readFileSync(wasmPath);
  const kept = [bytes.subarray(0, 8)];
  let dropped = false;
  for (const s of sections(bytes)) {
    if (s.id === 0 && names.includes(s.name)) dropped = true;
    else kept.push(bytes.subarray(s.start, s.end));
  }
  if (dropped) writeFileSync(wasmPath, Buffer.concat(kept));
}
