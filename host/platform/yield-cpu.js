// WASI's sched_yield in Node: the mount addon's `yield` (host/mount/hostdir/addon/mount_at.c:
// sched_yield(2)) gives the calling thread's CPU to another runnable thread, such as the holder
// of the spin lock the caller waits for, when threads outnumber cores. Without the addon a
// thread sleeps at one yield in many instead, as in browsers (sleepy-yield.js; docs/HOST.md,
// "Limits and what threads cost").
import { addonFunction } from './mount-addon.js';
import { sleepyYield } from './sleepy-yield.js';

/** The calling thread's yield function. */
export const yieldCpu = () => addonFunction('yield') ?? sleepyYield();
