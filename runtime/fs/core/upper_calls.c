/* The calls the layers above lend the core (core/fs_core.h, "what the layers above lend"): each
 * is stored once, before anything can need it, and read where the core would otherwise name a
 * layer above. */
#include "fs_core.h"

const struct lock_release_calls *_Atomic fs_lock_release;
const struct walk_mount_calls *_Atomic fs_mount_calls;
const struct tree_calls *_Atomic fs_tree_calls;

void fs_lend_lock_release(const struct lock_release_calls *calls)
{
    atomic_store_explicit(&fs_lock_release, calls, memory_order_release);
}

void fs_lend_mount_calls(const struct walk_mount_calls *calls)
{
    atomic_store_explicit(&fs_mount_calls, calls, memory_order_release);
}

void fs_lend_tree_calls(const struct tree_calls *calls)
{
    atomic_store_explicit(&fs_tree_calls, calls, memory_order_release);
}
