// Test helper worker: writes or reads an OPFS file with a sync access handle, no Spindle.
self.onmessage = async (e) => {
  const { op, path, text, flush } = e.data;
  try {
    let dir = await navigator.storage.getDirectory();
    const parts = path.split('/').filter(Boolean);
    for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: op === 'write' });
    const fh = await dir.getFileHandle(parts.at(-1), { create: op === 'write' });
    const h = await fh.createSyncAccessHandle();
    if (op === 'write') {
      h.truncate(0);
      h.write(new TextEncoder().encode(text), { at: 0 });
      if (flush) h.flush();
      // the handle is left open on purpose: the page is killed with it open
      self.postMessage({ done: true });
    } else {
      const buf = new Uint8Array(h.getSize());
      h.read(buf, { at: 0 });
      h.close();
      self.postMessage({ done: true, text: new TextDecoder().decode(buf) });
    }
  } catch (err) {
    self.postMessage({ error: `${err.name}: ${err.message}` });
  }
};
