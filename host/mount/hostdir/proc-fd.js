// Where Linux shows this process's open files: /proc/PID/fd/N is a link to what fd N names, its
// real path read back with readlink, and a path through it (/proc/PID/fd/N/name) starts from that
// directory. The hostdir backend checks confinement with it (docs/MOUNTS.md section 4).
// /proc/PID rather than /proc/self: the kernel then need not follow the `self` link on every
// call (~15% of a readlink's or lstat's time through it, measured natively in C, interleaved).
const { existsSync } = process.getBuiltinModule('node:fs');

const base = `/proc/${process.pid}/fd`;

/** Whether this host has /proc's fd links (Linux). */
export const hasProcFd = process.platform === 'linux' && existsSync(base);

/** The path of fd's link, or of `name` in the directory fd names. */
export const fdPath = (fd, name = null) => (name === null ? `${base}/${fd}` : `${base}/${fd}/${name}`);
