/* poll_oneoff with Spindle's fds. A subscription on a file of the in-memory tree (or a mount) is
 * ready at once, as regular files are in POSIX poll: reading has size - position bytes
 * available. So a call that names any of our fds answers without sleeping; one that names
 * only clocks and the host's fds (stdio) is the host's, which sleeps until the first clock.
 * mio/tokio-style loops and Rust's std sleep both end up here. */
#include <string.h>

#include "wasi_support.h"

__attribute__((import_module("wasi_snapshot_preview1"), import_name("poll_oneoff")))
int32_t host_poll_oneoff(int32_t in, int32_t out, int32_t nsubs, int32_t retptr);

enum { EVENTTYPE_CLOCK = 0, EVENTTYPE_FD_READ = 1, EVENTTYPE_FD_WRITE = 2 };

struct wasi_subscription {
    uint64_t userdata;
    uint8_t tag;
    uint8_t pad[7];
    union {
        struct { uint32_t id; uint32_t pad; uint64_t timeout, precision; uint16_t flags; } clock;
        struct { uint32_t fd; } fd;
    } u;
};
struct wasi_event {
    uint64_t userdata;
    uint16_t error;
    uint8_t type;
    uint8_t pad[5];
    uint64_t nbytes;
    uint16_t flags;
    uint8_t pad2[6];
};
_Static_assert(sizeof(struct wasi_subscription) == 48, "subscription layout");
_Static_assert(sizeof(struct wasi_event) == 32, "event layout");

static bool is_own_fd_subscription(const struct wasi_subscription *s)
{
    return (s->tag == EVENTTYPE_FD_READ || s->tag == EVENTTYPE_FD_WRITE) && !wasi_host_fd((int32_t)s->u.fd.fd);
}

/* The readiness of one fd subscription: ready, or the fd's error. */
static void fd_event(const struct wasi_subscription *s, struct wasi_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->userdata = s->userdata;
    ev->type = s->tag;
    int fd = (int)s->u.fd.fd;
    if (wasi_host_fd(fd))
        return; /* stdio: the host treats it as always ready too (a read blocks in fd_read) */
    struct spindle_stat st;
    int rc = spindle_fs_fstat(fd, &st);
    if (rc < 0) {
        ev->error = (uint16_t)wasi_result(rc);
        return;
    }
    if (s->tag == EVENTTYPE_FD_READ) {
        int64_t pos = spindle_fs_lseek(fd, 0, SPINDLE_SEEK_CUR);
        ev->nbytes = pos >= 0 && st.size > pos ? (uint64_t)(st.size - pos) : 0;
    }
}

int32_t __imported_wasi_snapshot_preview1_poll_oneoff(int32_t in, int32_t out, int32_t nsubs, int32_t retptr)
{
    if (nsubs <= 0)
        return WASI_EINVAL;
    if (!wasi_in_memory((uint32_t)in, (uint64_t)nsubs * sizeof(struct wasi_subscription)) ||
        !wasi_in_memory((uint32_t)out, (uint64_t)nsubs * sizeof(struct wasi_event)) ||
        !wasi_in_memory((uint32_t)retptr, 4))
        return WASI_EFAULT;
    const struct wasi_subscription *subs = WASI_PTR(in);
    bool own = false;
    for (int32_t i = 0; i < nsubs && !own; i++)
        own = is_own_fd_subscription(&subs[i]);
    if (!own)
        return host_poll_oneoff(in, out, nsubs, retptr);
    int32_t err = wasi_fs_ready();
    if (err != WASI_ESUCCESS)
        return err;
    struct wasi_event *events = WASI_PTR(out);
    uint32_t n = 0;
    for (int32_t i = 0; i < nsubs; i++)
        if (subs[i].tag == EVENTTYPE_FD_READ || subs[i].tag == EVENTTYPE_FD_WRITE) /* no clock fired yet */
            fd_event(&subs[i], &events[n++]);
    *(uint32_t *)WASI_PTR(retptr) = n;
    return WASI_ESUCCESS;
}
