/* sync: nothing to do. The tree lives in memory, like a tmpfs. Files on a mount may hold small
 * writes in memory until their fsync or close (docs/MOUNTS.md); flushing them here would take
 * a failed write's error from the fsync or close that must report it, so they wait for those. */
#include <unistd.h>

void sync(void) {}
