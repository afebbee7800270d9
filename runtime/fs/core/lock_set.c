/* Locking several directories at once (rename, rmdir) in the one global
 * order: increasing inode number. Because the order never depends on the
 * tree's shape, no interleaving of renames, rmdirs and walks can deadlock. */
#include "fs_core.h"

bool lock_set_has(const struct lock_set *set, const struct inode *inode)
{
    for (int i = 0; i < set->count; i++)
        if (set->items[i] == inode)
            return true;
    return false;
}

void lock_set_add(struct lock_set *set, struct inode *inode)
{
    if (inode == NULL || lock_set_has(set, inode))
        return;
    int i = set->count++;
    while (i > 0 && set->items[i - 1]->ino > inode->ino) {
        set->items[i] = set->items[i - 1];
        i--;
    }
    set->items[i] = inode;
    inode_ref(inode);
}

void lock_set_lock(struct lock_set *set)
{
    for (int i = 0; i < set->count; i++)
        inode_write_lock(set->items[i]);
}

void lock_set_unlock(struct lock_set *set)
{
    for (int i = set->count - 1; i >= 0; i--)
        inode_unlock(set->items[i]);
}

void lock_set_release(struct lock_set *set)
{
    for (int i = 0; i < set->count; i++)
        inode_unref(set->items[i]);
    set->count = 0;
}
