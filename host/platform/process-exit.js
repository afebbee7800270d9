// Ending the whole Node process from any thread. A worker's process.exit ends that worker only,
// and the main thread may be inside wasm (a wait, a loop) where no message reaches it, so the
// host uses the mount addon's `exit` (host/mount/hostdir/addon/mount_at.c: _exit(2)). Output
// is never lost by it: every stdio write is synchronous (host/platform/node.js).
import { addonFunction } from './mount-addon.js';

/** A function that ends the process with its code at once, or null where the addon has none. */
export const processExit = () => addonFunction('exit');
