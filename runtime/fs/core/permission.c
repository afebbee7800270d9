/* Permission checks as Linux makes them for an unprivileged process (docs/FILESYSTEM.md,
 * "Permissions"): the owner's, group's or others' bits of the mode, by who the caller is
 * (runtime/include/spindle/identity.h). A program linked --as-root is never checked, as
 * before checks existed, nor is the thread that acts for the host (the files API's). The mode and owner are read with relaxed atomic loads, so a check
 * needs no lock and fits the lock-free walks and reads; chmod/chown store them atomically. */
#include "fs_core.h"

#include "../../include/spindle/identity.h"

static _Thread_local bool acts_for_host;

void spindle_fs_thread_acts_for_host(bool acting) { acts_for_host = acting; }

static int allowed(uint32_t bits, int want)
{
    if (spindle_runs_as_root() || acts_for_host)
        return 0;
    return ((int)bits & want) == want ? 0 : -SPINDLE_EACCES;
}

int fs_permission(const struct inode *inode, int want)
{
    uint32_t perm = __atomic_load_n(&inode->perm, __ATOMIC_RELAXED);
    uint32_t bits = perm; /* others' */
    if (__atomic_load_n(&inode->uid, __ATOMIC_RELAXED) == SPINDLE_USER_ID)
        bits = perm >> 6;
    else if (__atomic_load_n(&inode->gid, __ATOMIC_RELAXED) == SPINDLE_GROUP_ID)
        bits = perm >> 3;
    return allowed(bits, want);
}

int fs_owner_permission(uint32_t mode, int want) { return allowed(mode >> 6, want); }

int fs_owner_check(const struct inode *inode)
{
    if (spindle_runs_as_root() || __atomic_load_n(&inode->uid, __ATOMIC_RELAXED) == SPINDLE_USER_ID)
        return 0;
    return -SPINDLE_EPERM;
}

int fs_chown_check(const struct inode *inode, uint32_t uid, uint32_t gid)
{
    if (spindle_runs_as_root())
        return 0;
    /* An ordinary owner may only "change" to its own uid and to a group it belongs to. */
    bool same_uid = uid == (uint32_t)-1 || uid == __atomic_load_n(&inode->uid, __ATOMIC_RELAXED);
    bool own_gid = gid == (uint32_t)-1 || gid == SPINDLE_GROUP_ID;
    return fs_owner_check(inode) == 0 && same_uid && own_gid ? 0 : -SPINDLE_EPERM;
}

void fs_set_owner_to_caller(struct inode *inode)
{
    inode->uid = spindle_user_id();
    inode->gid = spindle_group_id();
}
