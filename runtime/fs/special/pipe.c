/* Pipes between the threads of the program, with Linux's rules: a ring of
 * 64 KiB (F_SETPIPE_SZ resizes it); read blocks until data arrives and returns 0 (EOF) once every write
 * end is closed; write blocks for room and fails with EPIPE when no read end
 * is left (there is no SIGPIPE: the program is not a process that signals
 * can reach); writes of at most PIPE_BUF bytes go in whole, never interleaved
 * with another writer's; O_NONBLOCK gives EAGAIN instead of waiting.
 * A blocked thread sleeps on the pipe's condition variable (a futex wait in
 * wasm), never spins. The pipe's mutex stands in for its inode lock (level 4
 * of the lock order); nothing else is held while waiting. */
#include "fs_special.h"

#include <string.h>

static bool nonblocking(const struct open_file *file)
{
    return atomic_load_explicit(&file->status, memory_order_relaxed) & SPINDLE_O_NONBLOCK;
}

/* Readiness changed: wake the threads blocked in this pipe (polls are woken
 * by fs_poll_notify once the mutex is released). */
static void announce(struct pipe_data *p) { pthread_cond_broadcast(&p->changed); }

void pipe_end_opened(struct inode *pipe, int access)
{
    struct pipe_data *p = &pipe->u.pipe;
    pthread_mutex_lock(&p->lock);
    if (access != SPINDLE_O_WRONLY)
        p->readers++;
    if (access != SPINDLE_O_RDONLY)
        p->writers++;
    announce(p);
    pthread_mutex_unlock(&p->lock);
    fs_poll_notify();
}

/* The last reference to a description of an end went away. */
static void release_end(struct open_file *file)
{
    struct pipe_data *p = &file->inode->u.pipe;
    pthread_mutex_lock(&p->lock);
    if (file->access != SPINDLE_O_WRONLY)
        p->readers--;
    if (file->access != SPINDLE_O_RDONLY)
        p->writers--;
    announce(p);
    pthread_mutex_unlock(&p->lock);
    fs_poll_notify();
}

static struct inode *free_pipe(struct inode *pipe)
{
    if (pipe->u.pipe.ring == NULL) /* never finished (pipe_inode_new) */
        return NULL;
    fs_free(pipe->u.pipe.ring);
    pthread_cond_destroy(&pipe->u.pipe.changed);
    pthread_mutex_destroy(&pipe->u.pipe.lock);
    return NULL;
}

/* Moves `len` (<= used) bytes out of the ring into the iovecs. Caller holds
 * the lock. */
static size_t ring_take(struct pipe_data *p, const struct spindle_iovec *iov, int iovcnt, size_t len)
{
    size_t done = 0;
    for (int i = 0; i < iovcnt && done < len; i++) {
        size_t want = iov[i].len < len - done ? iov[i].len : len - done;
        for (size_t got = 0; got < want;) {
            size_t run = p->capacity - p->head;
            if (run > want - got)
                run = want - got;
            memcpy((uint8_t *)iov[i].base + got, p->ring + p->head, run);
            p->head = (p->head + run) % p->capacity;
            p->used -= run;
            got += run;
        }
        done += want;
    }
    return done;
}

/* Copies `len` bytes of the iovecs, from byte `from` on, into the ring.
 * Caller holds the lock and checked the room. */
static void ring_put(struct pipe_data *p, const struct spindle_iovec *iov, int iovcnt, size_t from,
                     size_t len)
{
    size_t seen = 0;
    for (int i = 0; i < iovcnt && len > 0; i++) {
        if (from >= seen + iov[i].len) {
            seen += iov[i].len;
            continue;
        }
        size_t at = from - seen;
        size_t n = iov[i].len - at < len ? iov[i].len - at : len;
        for (size_t put = 0; put < n;) {
            size_t tail = (p->head + p->used) % p->capacity;
            size_t run = p->capacity - tail;
            if (run > n - put)
                run = n - put;
            memcpy(p->ring + tail, (const uint8_t *)iov[i].base + at + put, run);
            p->used += run;
            put += run;
        }
        from += n;
        len -= n;
        seen += iov[i].len;
    }
}

static int64_t pipe_read(struct open_file *file, const struct spindle_iovec *iov, int iovcnt, int64_t offset,
                         int64_t total)
{
    (void)offset; /* a pipe has no position */
    struct pipe_data *p = &file->inode->u.pipe;
    if (total == 0)
        return 0;
    pthread_mutex_lock(&p->lock);
    while (p->used == 0) {
        if (p->writers == 0 || nonblocking(file)) {
            pthread_mutex_unlock(&p->lock);
            return p->writers == 0 ? 0 : -SPINDLE_EAGAIN;
        }
        pthread_cond_wait(&p->changed, &p->lock);
    }
    size_t n = ring_take(p, iov, iovcnt, p->used < (size_t)total ? p->used : (size_t)total);
    announce(p);
    pthread_mutex_unlock(&p->lock);
    fs_poll_notify();
    return (int64_t)n;
}

static int64_t pipe_write(struct open_file *file, const struct spindle_iovec *iov, int iovcnt,
                          int64_t *offset, int64_t total)
{
    (void)offset;
    struct pipe_data *p = &file->inode->u.pipe;
    if (total == 0)
        return 0;
    /* A small write waits for room for all of it, so it is never split. */
    size_t whole = total <= SPINDLE_PIPE_BUF ? (size_t)total : 1;
    size_t done = 0;
    int64_t rc = 0;
    pthread_mutex_lock(&p->lock);
    while (done < (size_t)total) {
        if (p->readers == 0) {
            rc = -SPINDLE_EPIPE;
            break;
        }
        size_t room = p->capacity - p->used;
        if (room < whole || room == 0) {
            if (nonblocking(file)) {
                rc = -SPINDLE_EAGAIN;
                break;
            }
            pthread_cond_wait(&p->changed, &p->lock);
            continue;
        }
        size_t n = (size_t)total - done < room ? (size_t)total - done : room;
        ring_put(p, iov, iovcnt, done, n);
        done += n;
        announce(p);
    }
    pthread_mutex_unlock(&p->lock);
    if (done > 0)
        fs_poll_notify();
    return done > 0 ? (int64_t)done : rc; /* a partial write reports what went in */
}

short pipe_poll_state(struct open_file *file)
{
    struct pipe_data *p = &file->inode->u.pipe;
    short ready = 0;
    pthread_mutex_lock(&p->lock);
    if (open_file_readable(file)) {
        if (p->used > 0)
            ready |= SPINDLE_POLLIN | SPINDLE_POLLRDNORM;
        if (p->writers == 0)
            ready |= SPINDLE_POLLHUP;
    }
    if (open_file_writable(file)) { /* as Linux: room and no reader can both be reported */
        if (p->capacity - p->used >= SPINDLE_PIPE_BUF)
            ready |= SPINDLE_POLLOUT | SPINDLE_POLLWRNORM;
        if (p->readers == 0)
            ready |= SPINDLE_POLLERR;
    }
    pthread_mutex_unlock(&p->lock);
    return ready;
}

/* Linux's rounding for F_SETPIPE_SZ: one page (4 KiB, Linux's page and PIPE_BUF) at least, else
 * the next power of two; 0 for a request beyond 2 GiB. */
static size_t rounded_capacity(uint32_t request)
{
    if (request > (1u << 31))
        return 0;
    size_t size = SPINDLE_PIPE_BUF;
    while (size < request)
        size <<= 1;
    return size;
}

/* The description open as fd if it is a pipe's (a reference the caller drops), else NULL. */
static struct open_file *pipe_file(int fd)
{
    struct open_file *file = fd_get(fd);
    if (file != NULL && file->inode->type != INODE_PIPE) {
        open_file_unref(file);
        return NULL;
    }
    return file;
}

int spindle_fs_get_pipe_size(int fd)
{
    struct open_file *file = pipe_file(fd);
    if (file == NULL)
        return -SPINDLE_EBADF; /* as Linux, for an fd that is not a pipe too */
    struct pipe_data *p = &file->inode->u.pipe;
    pthread_mutex_lock(&p->lock);
    int size = (int)p->capacity;
    pthread_mutex_unlock(&p->lock);
    open_file_unref(file);
    return size;
}

int spindle_fs_set_pipe_size(int fd, uint32_t request)
{
    struct open_file *file = pipe_file(fd);
    if (file == NULL)
        return -SPINDLE_EBADF;
    size_t size = rounded_capacity(request);
    int rc = size == 0 ? -SPINDLE_EINVAL : size > SPINDLE_PIPE_MAX_SIZE ? -SPINDLE_EPERM : (int)size;
    /* the new ring is allocated before the pipe's lock is taken, and the unused one freed after */
    uint8_t *ring = rc > 0 ? fs_malloc(size) : NULL;
    if (rc > 0 && ring == NULL)
        rc = -SPINDLE_ENOMEM;
    struct pipe_data *p = &file->inode->u.pipe;
    if (ring != NULL) {
        pthread_mutex_lock(&p->lock);
        if (p->used > size) {
            rc = -SPINDLE_EBUSY; /* the bytes it holds would not fit */
        } else {
            struct spindle_iovec into = {ring, size};
            size_t held = ring_take(p, &into, 1, p->used); /* in order, from the start of the new ring */
            uint8_t *old = p->ring;
            p->ring = ring;
            p->capacity = size;
            p->head = 0;
            p->used = held;
            ring = old;
            announce(p); /* writers waiting for room may have it now */
        }
        pthread_mutex_unlock(&p->lock);
        fs_free(ring);
        if (rc > 0)
            fs_poll_notify();
    }
    open_file_unref(file);
    return rc;
}

static struct inode *pipe_inode_new(void)
{
    struct inode *inode = inode_new(INODE_PIPE, &pipe_ops, 0600);
    if (inode == NULL)
        return NULL;
    struct pipe_data *p = &inode->u.pipe;
    p->capacity = SPINDLE_PIPE_CAPACITY;
    p->ring = fs_malloc(p->capacity);
    if (p->ring == NULL || pthread_mutex_init(&p->lock, NULL) != 0) {
        fs_free(p->ring);
        p->ring = NULL; /* nothing of a pipe to free */
        inode_unref(inode);
        return NULL;
    }
    pthread_cond_init(&p->changed, NULL);
    inode->nlink = 1;
    return inode;
}

int spindle_fs_pipe(int fds[2], int flags)
{
    if (flags & ~SPINDLE_O_NONBLOCK)
        return -SPINDLE_EINVAL;
    int rfd = fd_reserve();
    if (rfd < 0)
        return rfd;
    int wfd = fd_reserve();
    if (wfd < 0) {
        fd_unreserve(rfd);
        return wfd;
    }
    struct inode *inode = pipe_inode_new();
    struct open_file *rd = inode ? open_file_new(NULL, SPINDLE_O_RDONLY | flags) : NULL;
    struct open_file *wr = rd ? open_file_new(NULL, SPINDLE_O_WRONLY | flags) : NULL;
    if (wr == NULL) {
        if (rd)
            open_file_unref(rd);
        if (inode)
            inode_unref(inode);
        fd_unreserve(rfd);
        fd_unreserve(wfd);
        return -SPINDLE_ENOMEM;
    }
    inode_ref(inode);
    rd->inode = inode; /* each description holds a reference */
    wr->inode = inode;
    pipe_end_opened(inode, SPINDLE_O_RDONLY);
    pipe_end_opened(inode, SPINDLE_O_WRONLY);
    fd_install(rfd, rd);
    fd_install(wfd, wr);
    fds[0] = rfd;
    fds[1] = wfd;
    return 0;
}

const struct inode_ops pipe_ops = {
    .format = SPINDLE_S_IFIFO,
    .read = pipe_read,
    .write = pipe_write,
    .release = release_end,
    .free = free_pipe,
};
