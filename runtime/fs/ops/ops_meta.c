/* stat family and timestamps (utimensat / futimens). */
#include "fs_ops.h"
#include "../../include/spindle/identity.h"

static int stat_inode(struct inode *inode, struct spindle_stat *st)
{
    inode_read_lock(inode);
    inode_fill_stat(inode, st);
    inode_unlock(inode);
    return 0;
}

/* fstat of a regular file nobody is writing, without locks (reader_slots.c). */
static bool fstat_lock_free(int fd, struct spindle_stat *st)
{
    struct reader_slot *slot = reader_slot_mine();
    struct open_file *file = slot ? reader_slot_hold_fd(slot, fd) : NULL;
    if (file == NULL)
        return false;
    bool done = reader_slot_hold_inode(slot, file->inode);
    if (done)
        inode_fill_stat(file->inode, st);
    reader_slot_clear(slot);
    return done;
}

int spindle_fs_fstat(int fd, struct spindle_stat *st)
{
    if (fstat_lock_free(fd, st))
        return 0;
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    int rc = open_file_stat(file, st);
    open_file_unref(file);
    return rc;
}

/* Resolves dirfd+path to a referenced inode, following a final symlink
 * unless AT_SYMLINK_NOFOLLOW. A path inside a mount leaves *out NULL and
 * the walk in *mounted (release with walk_done). */
static int lookup_at(int dirfd, const char *path, int flags, struct inode **out, struct walk *mounted)
{
    if (flags & ~SPINDLE_AT_SYMLINK_NOFOLLOW)
        return -SPINDLE_EINVAL;
    struct walk w;
    int rc = path_walk_at(dirfd, path, (flags & SPINDLE_AT_SYMLINK_NOFOLLOW) ? 0 : WALK_FOLLOW, &w);
    if (rc < 0)
        return rc;
    *out = w.node;
    w.node = NULL;
    if (w.mount) {
        *mounted = w;
        return 0;
    }
    walk_done(&w);
    return 0;
}

/* A mount's backend answered SPINDLE_MOUNT_FOLLOW (a symlink leading out of it): lookup_at's
 * result for where the path continues in the program's tree. */
static int lookup_again(struct walk *mounted, int flags, struct inode **out)
{
    int rc = path_walk_follow(mounted, (flags & SPINDLE_AT_SYMLINK_NOFOLLOW) ? 0 : WALK_FOLLOW);
    if (rc < 0)
        return rc;
    *out = mounted->node;
    mounted->node = NULL;
    if (mounted->mount == NULL)
        walk_done(mounted);
    return 0;
}

/* lookup_at for a call that a mount can answer itself: a path that ends inside a mount goes to
 * on_mount(walk, arg), and where its backend answers SPINDLE_MOUNT_FOLLOW the lookup goes on in
 * the program's tree. Returns < 0; or 0 with *out NULL when the mount did the call; or 0 with
 * *out the referenced in-memory inode. */
static int lookup_or_mount(int dirfd, const char *path, int flags, struct inode **out,
                           int (*on_mount)(struct walk *mounted, const void *arg), const void *arg)
{
    struct walk mounted;
    int rc = lookup_at(dirfd, path, flags, out, &mounted);
    while (rc == 0 && *out == NULL) {
        rc = on_mount(&mounted, arg);
        if (rc != SPINDLE_MOUNT_FOLLOW) {
            walk_done(&mounted);
            return rc;
        }
        rc = lookup_again(&mounted, flags, out);
    }
    return rc;
}

static int stat_on_mount(struct walk *mounted, const void *st)
{
    return mount_stat(mounted, (struct spindle_stat *)st);
}

int spindle_fs_fstatat(int dirfd, const char *path, struct spindle_stat *st, int flags)
{
    struct inode *inode;
    int rc = lookup_or_mount(dirfd, path, flags, &inode, stat_on_mount, st);
    if (rc < 0 || inode == NULL)
        return rc;
    stat_inode(inode, st);
    inode_unref(inode);
    return 0;
}

int spindle_fs_faccessat(int dirfd, const char *path, int mode, int flags)
{
    if (mode & ~(FS_MAY_READ | FS_MAY_WRITE | FS_MAY_EXEC))
        return -SPINDLE_EINVAL;
    struct inode *inode;
    struct walk mounted;
    int rc = lookup_at(dirfd, path, flags, &inode, &mounted);
    if (rc < 0)
        return rc;
    if (inode == NULL) { /* a mount's file, which the program owns: by its owner bits */
        struct spindle_stat st;
        rc = mount_stat(&mounted, &st);
        walk_done(&mounted);
        return rc < 0 || mode == 0 ? rc : fs_owner_permission(st.mode, mode);
    }
    rc = mode == 0 ? 0 : fs_permission(inode, mode);
    inode_unref(inode);
    return rc;
}

static bool valid_time(const struct spindle_timespec *ts)
{
    return ts->nsec == SPINDLE_UTIME_NOW || ts->nsec == SPINDLE_UTIME_OMIT ||
           (ts->nsec >= 0 && ts->nsec < 1000000000);
}

/* NULL becomes {NOW, NOW}. Returns -EINVAL, 1 when there is nothing to change (both OMIT),
 * or 0 with the times in out. */
static int checked_times(const struct spindle_timespec *in, struct spindle_timespec out[2])
{
    struct spindle_timespec now_both[2] = {{0, SPINDLE_UTIME_NOW}, {0, SPINDLE_UTIME_NOW}};
    if (in == NULL)
        in = now_both;
    if (!valid_time(&in[0]) || !valid_time(&in[1]))
        return -SPINDLE_EINVAL;
    out[0] = in[0];
    out[1] = in[1];
    return in[0].nsec == SPINDLE_UTIME_OMIT && in[1].nsec == SPINDLE_UTIME_OMIT;
}

struct times_change {
    struct spindle_timespec t[2];
    int flags;
    bool nothing; /* both UTIME_OMIT */
};

static int utimens_on_mount(struct walk *mounted, const void *arg)
{
    const struct times_change *c = arg;
    return c->nothing ? 0 : mount_utimens(mounted, c->t, c->flags);
}

int spindle_fs_utimensat(int dirfd, const char *path, const struct spindle_timespec times[2], int flags)
{
    struct inode *inode;
    struct times_change c = {.flags = flags};
    int rc = checked_times(times, c.t);
    if (rc < 0)
        return rc;
    c.nothing = rc == 1;
    rc = lookup_or_mount(dirfd, path, flags, &inode, utimens_on_mount, &c);
    if (rc < 0 || inode == NULL)
        return rc;
    if (!c.nothing)
        inode_set_times(inode, c.t);
    inode_unref(inode);
    return 0;
}

int spindle_fs_futimens(int fd, const struct spindle_timespec times[2])
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    struct spindle_timespec t[2];
    int rc = checked_times(times, t);
    if (rc == 0 && file->inode->ops->set_times)
        rc = file->inode->ops->set_times(file, t);
    else if (rc == 0)
        inode_set_times(file->inode, t);
    open_file_unref(file);
    return rc < 0 ? rc : 0;
}

int spindle_fs_restore_attrs(const char *path, uint32_t mode, const struct spindle_timespec times[3])
{
    for (int i = 0; i < 3; i++)
        if (times[i].nsec < 0 || times[i].nsec >= 1000000000)
            return -SPINDLE_EINVAL;
    struct inode *inode;
    struct walk mounted;
    int rc = lookup_at(SPINDLE_AT_FDCWD, path, SPINDLE_AT_SYMLINK_NOFOLLOW, &inode, &mounted);
    if (rc < 0)
        return rc;
    if (inode == NULL) {
        rc = mount_utimens(&mounted, times, SPINDLE_AT_SYMLINK_NOFOLLOW);
        walk_done(&mounted);
        return rc;
    }
    if (!inode->ops->in_backend) /* a mount's root keeps the backend's attributes */
        inode_restore_attrs(inode, mode, times);
    inode_unref(inode);
    return 0;
}

/* chmod / chown: what the inode stores is what stat reports. */
struct attr_change {
    bool set_mode;
    uint32_t mode;
    uint32_t uid, gid; /* (uint32_t)-1: unchanged */
};

static bool only_mode(const struct attr_change *c)
{
    return c->set_mode && c->uid == (uint32_t)-1 && c->gid == (uint32_t)-1;
}

/* A chown to the ids the file already reports (every mounted file is the caller's): Linux lets
 * the owner do it, and nothing changes, so a backend that keeps no owners can answer it. */
static bool chown_to_own_ids(const struct attr_change *c)
{
    return !c->set_mode && (c->uid == (uint32_t)-1 || c->uid == spindle_user_id()) &&
           (c->gid == (uint32_t)-1 || c->gid == spindle_group_id());
}

static int change_attrs(struct inode *inode, const struct attr_change *c)
{
    if (inode->ops->in_backend)
        return chown_to_own_ids(c) ? 0 : -SPINDLE_EPERM;
    int rc = c->set_mode ? fs_owner_check(inode) : fs_chown_check(inode, c->uid, c->gid);
    if (rc < 0)
        return rc;
    int64_t now = fs_now_ns();
    inode_write_lock(inode);
    /* atomic stores: permission checks read these without the lock */
    if (c->set_mode)
        __atomic_store_n(&inode->perm, c->mode & 07777, __ATOMIC_RELAXED);
    if (c->uid != (uint32_t)-1)
        __atomic_store_n(&inode->uid, c->uid, __ATOMIC_RELAXED);
    if (c->gid != (uint32_t)-1)
        __atomic_store_n(&inode->gid, c->gid, __ATOMIC_RELAXED);
    inode->ctime_ns = now;
    inode_unlock(inode);
    return 0;
}

/* a mount's backend keeps only permission bits */
static int attrs_on_mount(struct walk *mounted, const void *arg)
{
    const struct attr_change *c = arg;
    if (only_mode(c))
        return mount_chmod(mounted, c->mode & 07777);
    if (!chown_to_own_ids(c))
        return -SPINDLE_EPERM;
    struct spindle_stat st; /* the file must be there, its path searchable */
    return mount_stat(mounted, &st);
}

static int change_attrs_at(int dirfd, const char *path, int flags, const struct attr_change *c)
{
    struct inode *inode;
    int rc = lookup_or_mount(dirfd, path, flags, &inode, attrs_on_mount, c);
    if (rc < 0 || inode == NULL)
        return rc;
    rc = change_attrs(inode, c);
    inode_unref(inode);
    return rc;
}

static int change_attrs_fd(int fd, const struct attr_change *c)
{
    struct open_file *file = fd_get(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    const struct inode_ops *ops = file->inode->ops;
    int rc =
        ops->set_mode && only_mode(c) ? ops->set_mode(file, c->mode & 07777) : change_attrs(file->inode, c);
    open_file_unref(file);
    return rc;
}

int spindle_fs_fchmodat(int dirfd, const char *path, uint32_t mode, int flags)
{
    struct attr_change c = {true, mode, (uint32_t)-1, (uint32_t)-1};
    return change_attrs_at(dirfd, path, flags, &c);
}

int spindle_fs_fchmod(int fd, uint32_t mode)
{
    struct attr_change c = {true, mode, (uint32_t)-1, (uint32_t)-1};
    return change_attrs_fd(fd, &c);
}

int spindle_fs_fchownat(int dirfd, const char *path, uint32_t uid, uint32_t gid, int flags)
{
    struct attr_change c = {false, 0, uid, gid};
    return change_attrs_at(dirfd, path, flags, &c);
}

int spindle_fs_fchown(int fd, uint32_t uid, uint32_t gid)
{
    struct attr_change c = {false, 0, uid, gid};
    return change_attrs_fd(fd, &c);
}

/* (libc's open asks this of its directory, the one WASI preopen, on every call) */
int spindle_fs_ftype(int fd)
{
    struct reader_slot *held_in;
    struct open_file *file = description_get(fd, &held_in);
    if (file == NULL)
        return -SPINDLE_EBADF;
    uint32_t format = file->inode->ops->format;
    int type = format == SPINDLE_S_IFDIR || format == SPINDLE_S_IFLNK || format == SPINDLE_S_IFIFO
                   ? (int)format
                   : SPINDLE_S_IFREG;
    description_put(file, held_in);
    return type;
}
