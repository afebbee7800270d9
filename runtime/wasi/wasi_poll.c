/* WASI poll_oneoff for Spindle's fds (what Rust's mio and wasi-libc code
 * use): fd_read/fd_write subscriptions on Spindle fds are answered by
 * spindle_fs_poll (files ready at once, pipes when they are), clock
 * subscriptions are the timeout. A call that names no Spindle fd (a sleep,
 * or only stdio) goes to the host unchanged. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wasi_host.h"
#include "wasi_support.h"

enum { SUB_SIZE = 48, EVENT_SIZE = 32, TAG_CLOCK = 0, TAG_FD_READ = 1, TAG_FD_WRITE = 2 };
enum { ABSTIME = 1, HANGUP = 1 };
enum { STACK_SUBS = 64 };

static const uint8_t *sub_at(int32_t in, uint32_t i) { return (const uint8_t *)WASI_PTR(in) + i * SUB_SIZE; }

static void put_event(uint8_t *ev, uint64_t userdata, uint16_t error, uint8_t type, uint16_t flags)
{
    memset(ev, 0, EVENT_SIZE);
    memcpy(ev, &userdata, 8);
    memcpy(ev + 8, &error, 2);
    ev[10] = type;
    memcpy(ev + 24, &flags, 2);
}

/* A ready read of a regular file has size - position bytes (WASI's nbytes; mio reads it);
 * other fds report 0, which WASI allows when the count is unknown. */
static uint64_t readable_bytes(int fd, uint8_t tag)
{
    struct spindle_stat st;
    if (tag != TAG_FD_READ || wasi_host_fd(fd) || spindle_fs_fstat(fd, &st) < 0 ||
        (st.mode & SPINDLE_S_IFMT) != SPINDLE_S_IFREG)
        return 0;
    int64_t pos = spindle_fs_lseek(fd, 0, SPINDLE_SEEK_CUR);
    return pos >= 0 && st.size > pos ? (uint64_t)(st.size - pos) : 0;
}

/* ns until the clock subscription fires; -1 for an unknown clock */
static int64_t clock_wait_ns(const uint8_t *sub)
{
    uint32_t id;
    uint64_t timeout;
    uint16_t flags;
    memcpy(&id, sub + 16, 4);
    memcpy(&timeout, sub + 24, 8);
    memcpy(&flags, sub + 40, 2);
    if (id > 1) /* realtime 0, monotonic 1; CPU-time clocks cannot fire while waiting */
        return -1;
    if (timeout > (uint64_t)INT64_MAX)
        timeout = (uint64_t)INT64_MAX;
    if (!(flags & ABSTIME))
        return (int64_t)timeout;
    struct timespec now;
    clock_gettime(id == 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC, &now);
    int64_t now_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    return (int64_t)timeout > now_ns ? (int64_t)timeout - now_ns : 0;
}

int32_t __imported_wasi_snapshot_preview1_poll_oneoff(int32_t in, int32_t out, int32_t nsubs,
                                                      int32_t nevents_ptr)
{
    uint32_t n = (uint32_t)nsubs;
    if (n == 0 || n > SPINDLE_FS_MAX_FDS)
        return WASI_EINVAL;
    if (!wasi_in_memory((uint32_t)in, (uint64_t)n * SUB_SIZE) ||
        !wasi_in_memory((uint32_t)out, (uint64_t)n * EVENT_SIZE) || !wasi_in_memory((uint32_t)nevents_ptr, 4))
        return WASI_EFAULT;
    bool ours = false, sleeps = false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t fd;
        memcpy(&fd, sub_at(in, i) + 16, 4);
        sleeps |= sub_at(in, i)[8] == TAG_CLOCK;
        ours |= sub_at(in, i)[8] != TAG_CLOCK && !wasi_host_fd((int32_t)fd);
    }
    if (!ours) {
        int32_t err = host_poll_oneoff(in, out, nsubs, nevents_ptr);
        if (sleeps)
            wasi_clock_seen_now(); /* the program saw time pass: later file stamps must too */
        return err;
    }
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    struct spindle_pollfd stack[STACK_SUBS];
    struct spindle_pollfd *fds = n <= STACK_SUBS ? stack : malloc(n * sizeof *fds);
    if (fds == NULL)
        return WASI_ENOMEM;
    int64_t timeout = -1;
    uint32_t first_clock = n;
    bool stdio_ready = false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *sub = sub_at(in, i);
        fds[i].fd = -1; /* clocks: skipped by the core */
        fds[i].events = 0;
        if (sub[8] == TAG_CLOCK) {
            int64_t wait = clock_wait_ns(sub);
            if (wait >= 0 && (timeout < 0 || wait < timeout)) {
                timeout = wait;
                first_clock = i;
            }
            continue;
        }
        memcpy(&fds[i].fd, sub + 16, 4);
        fds[i].events = sub[8] == TAG_FD_READ ? SPINDLE_POLLIN : SPINDLE_POLLOUT;
        if (wasi_host_fd(fds[i].fd))
            stdio_ready = true; /* the host reports stdio always ready */
    }
    int rc = spindle_fs_poll(fds, (int)n, stdio_ready ? 0 : timeout);
    if (rc < 0) {
        if (fds != stack)
            free(fds);
        return wasi_result(rc);
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *sub = sub_at(in, i);
        if (sub[8] == TAG_CLOCK)
            continue;
        short r = fds[i].revents;
        if (!wasi_host_fd(fds[i].fd) && r == 0)
            continue;
        uint64_t userdata;
        memcpy(&userdata, sub, 8);
        uint16_t error = (r & SPINDLE_POLLNVAL) ? WASI_EBADF : WASI_ESUCCESS;
        uint16_t flags = (r & (SPINDLE_POLLHUP | SPINDLE_POLLERR)) ? HANGUP : 0;
        uint8_t *ev = (uint8_t *)WASI_PTR(out) + count++ * EVENT_SIZE;
        put_event(ev, userdata, error, sub[8], flags);
        uint64_t nbytes = error ? 0 : readable_bytes(fds[i].fd, sub[8]);
        memcpy(ev + 16, &nbytes, 8);
    }
    if (count == 0 && first_clock < n) { /* nothing became ready: the timeout fired */
        wasi_clock_seen_now();
        uint64_t userdata;
        memcpy(&userdata, sub_at(in, first_clock), 8);
        put_event((uint8_t *)WASI_PTR(out), userdata, WASI_ESUCCESS, TAG_CLOCK, 0);
        count = 1;
    }
    if (fds != stack)
        free(fds);
    *(uint32_t *)WASI_PTR(nevents_ptr) = count;
    return WASI_ESUCCESS;
}
