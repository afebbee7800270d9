/* libFuzzer target: random sequences of filesystem operations, each checked
 * against a small model (a root with names a,b,c,d,s and one more level under
 * s). Every result (value or errno) and every byte read must match the model.
 * Build: clang-22 -fsanitize=fuzzer,address,undefined ... (see run-native.sh) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spindle/fs.h"
#ifdef FUZZ_ON_MOUNT /* the same operations inside a mount over a POSIX directory (tests/mount) */
#include "../../mount/posix_backend.h"
#endif

#define NAMES 5 /* a b c d s */
#define MAX_NODES 64
#define MAX_FDS 8
#define MAX_DATA (96 * 1024)

enum { M_NONE, M_FILE, M_DIR };

struct mnode {
    int type;
    int nlink;
    int64_t size;
    unsigned char *data; /* MAX_DATA bytes for files */
    int entries[NAMES];  /* dirs: node index or -1 */
    int parent;
};

struct mfd {
    int used, node, real, append, readable, writable;
    int64_t offset;
};

static struct mnode nodes[MAX_NODES];
static struct mfd fds[MAX_FDS];
static int node_count;
static char base[64]; /* this run's root directory, fresh per input */
static const char *const NAME[NAMES] = {"a", "b", "c", "d", "s"};

static void fail(const char *what, long long got, long long want)
{
    fprintf(stderr, "model mismatch: %s: got %lld, model %lld\n", what, got, want);
    abort();
}

static int new_node(int type)
{
    if (node_count == MAX_NODES)
        return -1;
    int i = node_count++;
    memset(&nodes[i], 0, sizeof nodes[i]);
    nodes[i].type = type;
    for (int n = 0; n < NAMES; n++)
        nodes[i].entries[n] = -1;
    if (type == M_FILE)
        nodes[i].data = calloc(1, MAX_DATA);
    return i;
}

/* path slot 0..4: base/NAME; 5..9: base/s/NAME */
static void slot_path(int slot, char *out, size_t cap)
{
    if (slot < NAMES)
        snprintf(out, cap, "%s/%s", base, NAME[slot]);
    else
        snprintf(out, cap, "%s/s/%s", base, NAME[slot - NAMES]);
}

/* model parent directory of a slot, or -errno */
static int model_parent(int slot)
{
    if (slot < NAMES)
        return 0;
    int s = nodes[0].entries[4];
    if (s < 0)
        return -SPINDLE_ENOENT;
    if (nodes[s].type != M_DIR)
        return -SPINDLE_ENOTDIR;
    return s;
}

static int is_ancestor(int a, int b) /* a is b or above it */
{
    for (int x = b;; x = nodes[x].parent) {
        if (x == a)
            return 1;
        if (x == 0)
            return 0;
    }
}

static int dir_empty(int d)
{
    for (int n = 0; n < NAMES; n++)
        if (nodes[d].entries[n] >= 0)
            return 0;
    return 1;
}

static void expect(const char *what, long long got, long long want)
{
    if (got != want)
        fail(what, got, want);
}

static void op_open(const uint8_t *a)
{
    int slot = a[0] % (2 * NAMES), bits = a[1];
    int k;
    for (k = 0; k < MAX_FDS && fds[k].used; k++)
        ;
    if (k == MAX_FDS)
        return;
    int access = bits & 3;
    if (access == 3)
        access = SPINDLE_O_RDWR;
    int flags = access;
    if (bits & 4)
        flags |= SPINDLE_O_CREAT;
    if (bits & 8)
        flags |= SPINDLE_O_EXCL;
    if (bits & 16)
        flags |= SPINDLE_O_TRUNC;
    if (bits & 32)
        flags |= SPINDLE_O_APPEND;
    if ((bits & 64) && !(flags & SPINDLE_O_CREAT))
        flags |= SPINDLE_O_DIRECTORY;
    char path[128];
    slot_path(slot, path, sizeof path);
    int rc = spindle_fs_openat(SPINDLE_AT_FDCWD, path, flags, 0644);
    /* model */
    int want, node = -1;
    int parent = model_parent(slot);
    int name = slot % NAMES;
    if (parent < 0) {
        want = parent;
    } else {
        node = nodes[parent].entries[name];
        if (node < 0) {
            if (!(flags & SPINDLE_O_CREAT)) {
                want = -SPINDLE_ENOENT;
            } else {
                node = new_node(M_FILE);
                if (node < 0) { /* model full: undo the real creation */
                    if (rc >= 0)
                        spindle_fs_close(rc);
                    spindle_fs_unlinkat(SPINDLE_AT_FDCWD, path, 0);
                    return;
                }
                nodes[node].nlink = 1;
                nodes[node].parent = parent;
                nodes[parent].entries[name] = node;
                want = 0;
            }
        } else if ((flags & SPINDLE_O_CREAT) && (flags & SPINDLE_O_EXCL)) {
            want = -SPINDLE_EEXIST;
        } else if (nodes[node].type == M_DIR) {
            want = (access != SPINDLE_O_RDONLY || (flags & (SPINDLE_O_CREAT | SPINDLE_O_TRUNC)))
                       ? -SPINDLE_EISDIR
                       : 0;
        } else if (flags & SPINDLE_O_DIRECTORY) {
            want = -SPINDLE_ENOTDIR;
        } else {
            want = 0;
            if (flags & SPINDLE_O_TRUNC) {
                memset(nodes[node].data, 0, (size_t)nodes[node].size);
                nodes[node].size = 0;
            }
        }
    }
    expect("open", rc < 0 ? rc : 0, want);
    if (rc >= 0) {
        fds[k] = (struct mfd){1,
                              node,
                              rc,
                              (flags & SPINDLE_O_APPEND) != 0,
                              access != SPINDLE_O_WRONLY,
                              access != SPINDLE_O_RDONLY,
                              0};
    }
}

static struct mfd *pick_fd(uint8_t b)
{
    struct mfd *f = &fds[b % MAX_FDS];
    return f->used ? f : NULL;
}

static void fill(unsigned char *buf, size_t len, uint8_t seed)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (unsigned char)(seed + i * 13);
}

static void model_write(struct mfd *f, int64_t off, size_t len, uint8_t seed, const char *what, int64_t got)
{
    struct mnode *n = &nodes[f->node];
    if (!f->writable) {
        expect(what, got, -SPINDLE_EBADF);
        return;
    }
    if (f->append)
        off = n->size;
    if (off + (int64_t)len > MAX_DATA)
        abort(); /* caller keeps within the model's bounds */
    fill(n->data + off, len, seed);
    if (len > 0 && off + (int64_t)len > n->size)
        n->size = off + (int64_t)len;
    expect(what, got, (int64_t)len);
}

static void op_write(const uint8_t *a, int positional)
{
    struct mfd *f = pick_fd(a[0]);
    if (f == NULL || nodes[f->node].type != M_FILE)
        return;
    size_t len = (size_t)(a[1] * 37 % 9000);
    int64_t off = positional ? (int64_t)(a[2] * 331 % 70000) : f->offset;
    if ((f->append ? nodes[f->node].size : off) + (int64_t)len > MAX_DATA)
        return;
    static unsigned char buf[9000];
    fill(buf, len, a[3]);
    int64_t got =
        positional ? spindle_fs_pwrite(f->real, buf, len, off) : spindle_fs_write(f->real, buf, len);
    model_write(f, off, len, a[3], positional ? "pwrite" : "write", got);
    if (!positional && got >= 0)
        f->offset = (f->append ? nodes[f->node].size : off + (int64_t)len);
    if (positional && got >= 0 && f->append) {
        /* the description's own offset is untouched by pwrite */
    }
}

/* Mirrors a file-offset write model: fix up offsets of append writes. */
static void op_read(const uint8_t *a, int positional)
{
    struct mfd *f = pick_fd(a[0]);
    if (f == NULL)
        return;
    size_t len = (size_t)(a[1] * 41 % 9000);
    int64_t off = positional ? (int64_t)(a[2] * 331 % 90000) : f->offset;
    static unsigned char buf[9000];
    int64_t got = positional ? spindle_fs_pread(f->real, buf, len, off) : spindle_fs_read(f->real, buf, len);
    struct mnode *n = &nodes[f->node];
    if (!f->readable) {
        expect("read access", got, -SPINDLE_EBADF);
        return;
    }
    if (n->type == M_DIR) {
        expect("read dir", got, -SPINDLE_EISDIR);
        return;
    }
    int64_t avail = n->size > off ? n->size - off : 0;
    int64_t want = avail < (int64_t)len ? avail : (int64_t)len;
    expect("read count", got, want);
    if (want > 0 && memcmp(buf, n->data + off, (size_t)want) != 0)
        fail("read bytes", 0, 1);
    if (!positional)
        f->offset += want;
}

static void op_seek(const uint8_t *a)
{
    struct mfd *f = pick_fd(a[0]);
    if (f == NULL)
        return;
    int whence = a[1] % 3;
    int64_t off = (int64_t)(a[2] * 257 % 20000) - 5000;
    int64_t got = spindle_fs_lseek(f->real, off, whence);
    int64_t basepos = whence == 0   ? 0
                      : whence == 1 ? f->offset
                                    : (nodes[f->node].type == M_FILE ? nodes[f->node].size : 0);
    int64_t want = basepos + off;
    if (want < 0) {
        expect("lseek", got, -SPINDLE_EINVAL);
    } else {
        expect("lseek", got, want);
        f->offset = want;
    }
}

static void op_truncate(const uint8_t *a)
{
    struct mfd *f = pick_fd(a[0]);
    if (f == NULL)
        return;
    int64_t len = (int64_t)(a[1] * 389 % MAX_DATA);
    int rc = spindle_fs_ftruncate(f->real, len);
    struct mnode *n = &nodes[f->node];
    if (!f->writable || n->type != M_FILE) {
        expect("ftruncate", rc, -SPINDLE_EINVAL);
        return;
    }
    expect("ftruncate", rc, 0);
    if (len < n->size)
        memset(n->data + len, 0, (size_t)(n->size - len));
    n->size = len;
}

static void op_close(const uint8_t *a)
{
    struct mfd *f = pick_fd(a[0]);
    if (f == NULL)
        return;
    expect("close", spindle_fs_close(f->real), 0);
    f->used = 0;
}

static void op_unlink(const uint8_t *a, int rmdir)
{
    int slot = a[0] % (2 * NAMES);
    char path[128];
    slot_path(slot, path, sizeof path);
    int rc = spindle_fs_unlinkat(SPINDLE_AT_FDCWD, path, rmdir ? SPINDLE_AT_REMOVEDIR : 0);
    int parent = model_parent(slot), name = slot % NAMES, want;
    if (parent < 0) {
        want = parent;
    } else {
        int node = nodes[parent].entries[name];
        if (node < 0)
            want = -SPINDLE_ENOENT;
        else if (!rmdir && nodes[node].type == M_DIR)
            want = -SPINDLE_EISDIR;
        else if (rmdir && nodes[node].type != M_DIR)
            want = -SPINDLE_ENOTDIR;
        else if (rmdir && !dir_empty(node))
            want = -SPINDLE_ENOTEMPTY;
        else {
            want = 0;
            nodes[parent].entries[name] = -1;
            nodes[node].nlink--;
        }
    }
    expect(rmdir ? "rmdir" : "unlink", rc, want);
}

static void op_mkdir(const uint8_t *a)
{
    int slot = a[0] % (2 * NAMES);
    char path[128];
    slot_path(slot, path, sizeof path);
    int parent = model_parent(slot), name = slot % NAMES, want;
    if (parent >= 0 && nodes[parent].entries[name] < 0 && node_count == MAX_NODES)
        return;
    int rc = spindle_fs_mkdirat(SPINDLE_AT_FDCWD, path, 0755);
    if (parent < 0) {
        want = parent;
    } else if (nodes[parent].entries[name] >= 0) {
        want = -SPINDLE_EEXIST;
    } else {
        int d = new_node(M_DIR);
        nodes[d].nlink = 2;
        nodes[d].parent = parent;
        nodes[parent].entries[name] = d;
        want = 0;
    }
    expect("mkdir", rc, want);
}

static void op_rename(const uint8_t *a)
{
    int s1 = a[0] % (2 * NAMES), s2 = a[1] % (2 * NAMES);
    char p1[128], p2[128];
    slot_path(s1, p1, sizeof p1);
    slot_path(s2, p2, sizeof p2);
    int rc = spindle_fs_renameat(SPINDLE_AT_FDCWD, p1, SPINDLE_AT_FDCWD, p2);
    int d1 = model_parent(s1), d2 = model_parent(s2), n1 = s1 % NAMES, n2 = s2 % NAMES, want;
    if (d1 < 0) {
        want = d1;
    } else if (d2 < 0) {
        want = d2;
    } else {
        int src = nodes[d1].entries[n1], tgt = nodes[d2].entries[n2];
        int cross = d1 != d2;
        if (src < 0)
            want = -SPINDLE_ENOENT;
        else if (nodes[src].type == M_DIR && cross && is_ancestor(src, d2))
            want = -SPINDLE_EINVAL;
        else if (tgt >= 0 && nodes[tgt].type == M_DIR && cross && is_ancestor(tgt, d1))
            want = -SPINDLE_ENOTEMPTY;
        else if (src == tgt)
            want = 0;
        else if (nodes[src].type == M_DIR && tgt >= 0 && nodes[tgt].type != M_DIR)
            want = -SPINDLE_ENOTDIR;
        else if (nodes[src].type != M_DIR && tgt >= 0 && nodes[tgt].type == M_DIR)
            want = -SPINDLE_EISDIR;
        else if (tgt >= 0 && nodes[tgt].type == M_DIR && !dir_empty(tgt))
            want = -SPINDLE_ENOTEMPTY;
        else {
            want = 0;
            if (tgt >= 0)
                nodes[tgt].nlink -= nodes[tgt].type == M_DIR ? 2 : 1;
            nodes[d1].entries[n1] = -1;
            nodes[d2].entries[n2] = src;
            nodes[src].parent = d2;
        }
    }
    expect("rename", rc, want);
}

static void op_link(const uint8_t *a)
{
    int s1 = a[0] % (2 * NAMES), s2 = a[1] % (2 * NAMES);
    char p1[128], p2[128];
    slot_path(s1, p1, sizeof p1);
    slot_path(s2, p2, sizeof p2);
    int rc = spindle_fs_linkat(SPINDLE_AT_FDCWD, p1, SPINDLE_AT_FDCWD, p2, 0);
    int d1 = model_parent(s1), d2 = model_parent(s2), want;
    int src = d1 >= 0 ? nodes[d1].entries[s1 % NAMES] : -1;
    if (d1 < 0)
        want = d1;
    else if (src < 0)
        want = -SPINDLE_ENOENT;
    else if (d2 < 0)
        want = d2;
    else if (nodes[d2].entries[s2 % NAMES] >= 0)
        want = -SPINDLE_EEXIST;
    else if (nodes[src].type == M_DIR)
        want = -SPINDLE_EPERM;
    else {
        want = 0;
        nodes[d2].entries[s2 % NAMES] = src;
        nodes[src].nlink++;
    }
    expect("link", rc, want);
}

static void op_stat(const uint8_t *a)
{
    int slot = a[0] % (2 * NAMES);
    char path[128];
    slot_path(slot, path, sizeof path);
    struct spindle_stat st;
    int rc = spindle_fs_fstatat(SPINDLE_AT_FDCWD, path, &st, 0);
    int parent = model_parent(slot);
    int node = parent >= 0 ? nodes[parent].entries[slot % NAMES] : -1;
    expect("stat", rc, parent < 0 ? parent : node < 0 ? -SPINDLE_ENOENT : 0);
    if (rc == 0) {
        int dirs = 0;
        if (nodes[node].type == M_DIR)
            for (int n = 0; n < NAMES; n++)
                dirs += nodes[node].entries[n] >= 0 && nodes[nodes[node].entries[n]].type == M_DIR;
        expect("stat type", (st.mode & SPINDLE_S_IFMT) == SPINDLE_S_IFDIR, nodes[node].type == M_DIR);
        expect("stat nlink", (long long)st.nlink, nodes[node].nlink + dirs);
        if (nodes[node].type == M_FILE)
            expect("stat size", st.size, nodes[node].size);
    }
}

static void op_fstat(const uint8_t *a)
{
    struct mfd *f = pick_fd(a[0]);
    if (f == NULL)
        return;
    struct spindle_stat st;
    expect("fstat", spindle_fs_fstat(f->real, &st), 0);
    if (nodes[f->node].type == M_FILE) {
        expect("fstat size", st.size, nodes[f->node].size);
        expect("fstat nlink", (long long)st.nlink, nodes[f->node].nlink);
    }
}

static void op_list(const uint8_t *a)
{
    int which = a[0] % 2;
    int d = which == 0 ? 0 : nodes[0].entries[4];
    char path[128];
    snprintf(path, sizeof path, which == 0 ? "%s" : "%s/s", base);
    int fd = spindle_fs_openat(SPINDLE_AT_FDCWD, path, SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0);
    if (d < 0 || nodes[d].type != M_DIR) {
        expect("opendir", fd, d < 0 ? -SPINDLE_ENOENT : -SPINDLE_ENOTDIR);
        return;
    }
    if (fd < 0)
        fail("opendir", fd, 0);
    struct spindle_dirent ents[3];
    uint64_t cookie = 2;
    int seen[NAMES] = {0}, n, total = 0;
    while ((n = spindle_fs_readdir(fd, cookie, ents, 3)) > 0) {
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < NAMES; k++)
                seen[k] += strcmp(ents[i].name, NAME[k]) == 0;
            total++;
        }
        cookie = ents[n - 1].next_cookie;
    }
    spindle_fs_close(fd);
    int want_total = 0;
    for (int k = 0; k < NAMES; k++) {
        expect("listing entry", seen[k], nodes[d].entries[k] >= 0);
        want_total += nodes[d].entries[k] >= 0;
    }
    expect("listing size", total, want_total);
}

static void remove_tree(const char *path)
{
    int fd = spindle_fs_openat(SPINDLE_AT_FDCWD, path, SPINDLE_O_RDONLY | SPINDLE_O_DIRECTORY, 0);
    if (fd < 0) {
        spindle_fs_unlinkat(SPINDLE_AT_FDCWD, path, 0);
        return;
    }
    struct spindle_dirent e;
    uint64_t cookie = 2;
    char child[256];
    while (spindle_fs_readdir(fd, cookie, &e, 1) == 1) {
        cookie = e.next_cookie;
        snprintf(child, sizeof child, "%s/%s", path, e.name);
        remove_tree(child);
    }
    spindle_fs_close(fd);
    spindle_fs_unlinkat(SPINDLE_AT_FDCWD, path, SPINDLE_AT_REMOVEDIR);
}

#ifdef FUZZ_ON_MOUNT
static char fuzz_host[64] = "/tmp/spindle-fuzz-mount-XXXXXX";
static void remove_fuzz_host(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", fuzz_host);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", fuzz_host);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned long run;
    if (spindle_fs_init() != 0)
        abort();
#ifdef FUZZ_ON_MOUNT
    if (run == 0 && (mkdtemp(fuzz_host) == NULL || atexit(remove_fuzz_host) != 0 ||
                     spindle_fs_mount("/mnt", &posix_backend, posix_backend_ctx(fuzz_host)) < 0))
        abort();
    snprintf(base, sizeof base, "/mnt/fuzz%lu", run++);
#else
    snprintf(base, sizeof base, "/fuzz%lu", run++);
#endif
    if (spindle_fs_mkdirat(SPINDLE_AT_FDCWD, base, 0755) != 0)
        abort();
    node_count = 0;
    memset(fds, 0, sizeof fds);
    int root = new_node(M_DIR);
    nodes[root].nlink = 2;
    for (size_t i = 0; i + 5 <= size && i < 5 * 400; i += 5) {
        const uint8_t *a = data + i + 1;
        switch (data[i] % 16) {
        case 0:
        case 1:
            op_open(a);
            break;
        case 2:
            op_write(a, 0);
            break;
        case 3:
            op_write(a, 1);
            break;
        case 4:
            op_read(a, 0);
            break;
        case 5:
            op_read(a, 1);
            break;
        case 6:
            op_seek(a);
            break;
        case 7:
            op_truncate(a);
            break;
        case 8:
            op_close(a);
            break;
        case 9:
            op_unlink(a, 0);
            break;
        case 10:
            op_unlink(a, 1);
            break;
        case 11:
            op_mkdir(a);
            break;
        case 12:
            op_rename(a);
            break;
        case 13:
            op_link(a);
            break;
        case 14:
            op_stat(a);
            op_fstat(a + 1);
            break;
        case 15:
            op_list(a);
            break;
        }
    }
    for (int k = 0; k < MAX_FDS; k++)
        if (fds[k].used)
            spindle_fs_close(fds[k].real);
    remove_tree(base);
    for (int i = 0; i < node_count; i++)
        free(nodes[i].data);
    return 0;
}
