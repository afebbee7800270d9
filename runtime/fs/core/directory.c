/* Directory contents: a hash table by name (fast lookups with 100,000s of
 * entries) plus an array of the same entries ordered by a per-directory
 * sequence number that only grows. The sequence number is the readdir cookie,
 * so a cookie stays meaningful whatever is added or removed later. Removed
 * slots become holes; the array is compacted when holes dominate (cookies are
 * values, not positions, so compaction does not move them). */
#include "fs_core.h"

#include <string.h>

#define INITIAL_BUCKETS 8

static uint32_t name_hash(const char *name, size_t len)
{
    uint32_t hash = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        hash ^= (unsigned char)name[i];
        hash *= 16777619u;
    }
    return hash;
}

int dir_init(struct dir_data *dir, struct inode *parent)
{
    memset(dir, 0, sizeof *dir);
    dir->buckets = fs_calloc(INITIAL_BUCKETS, sizeof *dir->buckets);
    if (dir->buckets == NULL)
        return -SPINDLE_ENOSPC;
    dir->bucket_count = INITIAL_BUCKETS;
    dir->next_seq = DIR_FIRST_SEQ;
    dir->parent = parent;
    return 0;
}

struct dir_entry *dir_find(struct dir_data *dir, const char *name, size_t len)
{
    uint32_t hash = name_hash(name, len);
    for (struct dir_entry *e = dir->buckets[hash & (dir->bucket_count - 1)]; e; e = e->hash_next)
        if (e->hash == hash && e->name_len == len && memcmp(e->name, name, len) == 0)
            return e;
    return NULL;
}

struct dir_entry *dir_entry_new(const char *name, size_t len, struct inode *inode)
{
    struct dir_entry *e = fs_malloc(sizeof *e + len + 1);
    if (e == NULL)
        return NULL;
    e->hash_next = NULL;
    e->inode = inode;
    e->seq = 0;
    e->hash = name_hash(name, len);
    e->name_len = (uint16_t)len;
    memcpy(e->name, name, len);
    e->name[len] = '\0';
    return e;
}

void dir_touch(struct inode *dir, int64_t now)
{
    if (now < dir->ctime_ns) /* another change, locked after our clock reading, stored a later time */
        now = dir->ctime_ns;
    dir->mtime_ns = dir->ctime_ns = now;
}

static void compact_order(struct dir_data *dir)
{
    size_t kept = 0;
    for (size_t i = 0; i < dir->order_len; i++)
        if (dir->order[i] != NULL)
            dir->order[kept++] = dir->order[i];
    dir->order_len = kept;
    dir->order_holes = 0;
}

int dir_reserve(struct dir_data *dir)
{
    if (dir->order_len < dir->order_cap)
        return 0;
    if (dir->order_holes > 0) {
        compact_order(dir);
        return 0;
    }
    size_t cap = dir->order_cap ? dir->order_cap * 2 : 8;
    struct dir_entry **order = fs_realloc(dir->order, cap * sizeof *order);
    if (order == NULL)
        return -SPINDLE_ENOSPC;
    dir->order = order;
    dir->order_cap = cap;
    return 0;
}

/* Growing the hash table is optional: if memory is short the chains just get
 * longer, so insertion never fails here. */
static void maybe_grow_buckets(struct dir_data *dir)
{
    if (dir->entry_count < dir->bucket_count)
        return;
    size_t count = dir->bucket_count * 2;
    struct dir_entry **buckets = fs_calloc(count, sizeof *buckets);
    if (buckets == NULL)
        return;
    for (size_t i = 0; i < dir->bucket_count; i++) {
        struct dir_entry *e = dir->buckets[i];
        while (e) {
            struct dir_entry *next = e->hash_next;
            e->hash_next = buckets[e->hash & (count - 1)];
            buckets[e->hash & (count - 1)] = e;
            e = next;
        }
    }
    fs_free(dir->buckets);
    dir->buckets = buckets;
    dir->bucket_count = count;
}

void dir_insert(struct dir_data *dir, struct dir_entry *entry)
{
    maybe_grow_buckets(dir);
    size_t b = entry->hash & (dir->bucket_count - 1);
    entry->hash_next = dir->buckets[b];
    dir->buckets[b] = entry;
    entry->seq = dir->next_seq++;
    dir->order[dir->order_len++] = entry; /* room made by dir_reserve */
    dir->entry_count++;
}

size_t dir_first_after(const struct dir_data *dir, uint64_t seq)
{
    size_t lo = 0, hi = dir->order_len;
    while (lo < hi) { /* holes (NULL) are skipped over by looking right */
        size_t mid = lo + (hi - lo) / 2;
        size_t probe = mid;
        while (probe < hi && dir->order[probe] == NULL)
            probe++;
        if (probe == hi) {
            hi = mid;
        } else if (dir->order[probe]->seq <= seq) {
            lo = probe + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

void dir_remove(struct dir_data *dir, struct dir_entry *entry)
{
    struct dir_entry **link = &dir->buckets[entry->hash & (dir->bucket_count - 1)];
    while (*link != entry)
        link = &(*link)->hash_next;
    *link = entry->hash_next;
    size_t index = dir_first_after(dir, entry->seq - 1);
    while (dir->order[index] != entry) /* holes before it share the position */
        index++;
    dir->order[index] = NULL;
    dir->order_holes++;
    dir->entry_count--;
    if (index + 1 == dir->order_len) { /* trim trailing holes cheaply */
        while (dir->order_len > 0 && dir->order[dir->order_len - 1] == NULL) {
            dir->order_len--;
            dir->order_holes--;
        }
    }
    if (dir->order_holes > 64 && dir->order_holes > dir->order_len / 2)
        compact_order(dir);
    fs_free(entry);
}

void dir_free(struct dir_data *dir)
{
    for (size_t i = 0; i < dir->order_len; i++) {
        if (dir->order[i] != NULL) {
            inode_unref(dir->order[i]->inode);
            fs_free(dir->order[i]);
        }
    }
    fs_free(dir->order);
    fs_free(dir->buckets);
}
