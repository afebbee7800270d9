/* File contents as a radix tree of fixed-size chunks: growth never copies
 * data (except a small file's first chunk, below 4 KiB), there is no
 * single-buffer size cap, and holes (missing chunks) cost nothing and read as
 * zeros.
 * Invariant: bytes of an allocated chunk past the file size are zero, so a
 * file that grows again reads zeros there without extra work. */
#include "fs_core.h"

#include <string.h>

#define SMALL_MIN 64

static int64_t span_chunks(int level) /* chunks covered by one slot at level */
{
    return (int64_t)1 << (FS_NODE_SHIFT * level);
}

static int64_t capacity_chunks(int depth) { return depth == 0 ? 1 : span_chunks(depth); }

/* usable bytes of chunk `index` (only chunk 0 at depth 0 can be small) */
static size_t chunk_bytes(const struct file_data *data, int64_t index)
{
    return (index == 0 && data->depth == 0 && data->small_cap) ? data->small_cap : (size_t)FS_CHUNK_SIZE;
}

static uint32_t small_size_for(int64_t end)
{
    uint32_t cap = SMALL_MIN;
    while (cap < end)
        cap *= 2;
    return cap;
}

/* Grows the small chunk 0 to hold `end` bytes (to a full chunk if end is 0
 * or beyond the small sizes). Nothing changes on failure. */
static int grow_small_chunk(struct file_data *data, int64_t end)
{
    if (data->small_cap == 0 || data->root == NULL || (end != 0 && end <= data->small_cap))
        return 0;
    uint32_t cap = end == 0 ? (uint32_t)FS_CHUNK_SIZE : small_size_for(end);
    char *chunk = fs_realloc(data->root, cap);
    if (chunk == NULL)
        return -SPINDLE_ENOSPC;
    memset(chunk + data->small_cap, 0, cap - data->small_cap);
    data->bytes_allocated += cap - data->small_cap;
    data->root = chunk;
    data->small_cap = cap >= FS_CHUNK_SIZE ? 0 : cap;
    return 0;
}

static int grow_depth(struct file_data *data, int64_t chunk_index)
{
    if (chunk_index >= 1 && grow_small_chunk(data, 0) < 0) /* chunk 0 goes full-size first */
        return -SPINDLE_ENOSPC;
    while (chunk_index >= capacity_chunks(data->depth)) {
        if (data->depth == FS_MAX_DEPTH)
            return -SPINDLE_EFBIG;
        if (data->root != NULL) {
            void **node = fs_calloc(FS_NODE_FANOUT, sizeof(void *));
            if (node == NULL)
                return -SPINDLE_ENOSPC;
            node[0] = data->root;
            data->root = node;
        }
        data->depth++;
    }
    return 0;
}

static void **chunk_slot(struct file_data *data, int64_t chunk_index, bool create)
{
    if (create && chunk_index >= data->chunk_end) /* (before any node on the way is made) */
        data->chunk_end = chunk_index + 1;
    void **slot = &data->root;
    for (int level = data->depth; level > 0; level--) {
        if (*slot == NULL) {
            if (!create)
                return NULL;
            *slot = fs_calloc(FS_NODE_FANOUT, sizeof(void *));
            if (*slot == NULL)
                return NULL;
        }
        size_t index = (size_t)((chunk_index >> (FS_NODE_SHIFT * (level - 1))) & (FS_NODE_FANOUT - 1));
        slot = &((void **)*slot)[index];
    }
    return slot;
}

static char *chunk_at(const struct file_data *data, int64_t chunk_index)
{
    if (chunk_index >= capacity_chunks(data->depth))
        return NULL;
    void **slot = chunk_slot((struct file_data *)data, chunk_index, false);
    return slot ? *slot : NULL;
}

/* The part of a transfer that lies in one chunk: at byte pos, with `left` bytes to go. */
struct chunk_piece {
    int64_t index; /* the chunk */
    size_t at;     /* where in it */
    size_t len;    /* how many bytes */
};

static inline struct chunk_piece piece_at(int64_t pos, size_t left)
{
    struct chunk_piece piece = {pos >> FS_CHUNK_SHIFT, (size_t)(pos & (FS_CHUNK_SIZE - 1)), 0};
    piece.len = (size_t)FS_CHUNK_SIZE - piece.at;
    if (piece.len > left)
        piece.len = left;
    return piece;
}

/* For host_copy.c (declared there): where the bytes at offset are stored. */
char *file_data_piece(const struct file_data *data, int64_t offset, size_t *avail)
{
    int64_t index = offset >> FS_CHUNK_SHIFT;
    size_t in_chunk = (size_t)(offset & (FS_CHUNK_SIZE - 1));
    char *chunk = chunk_at(data, index);
    size_t bytes = chunk ? chunk_bytes(data, index) : 0;
    *avail = in_chunk < bytes ? bytes - in_chunk : 0;
    return *avail ? chunk + in_chunk : NULL;
}

int64_t file_data_write(struct file_data *data, int64_t offset, const void *src, size_t len)
{
    const char *in = src;
    size_t done = 0;
    if (len == 0)
        return 0;
    int64_t end = offset + (int64_t)len;
    int rc = grow_depth(data, (end - 1) >> FS_CHUNK_SHIFT);
    if (rc == 0 && data->depth == 0)
        rc = grow_small_chunk(data, end);
    if (rc < 0)
        return rc;
    while (done < len) {
        struct chunk_piece piece = piece_at(offset + (int64_t)done, len - done);
        void **slot = chunk_slot(data, piece.index, true);
        if (slot == NULL)
            break;
        if (*slot == NULL) {
            /* a file that is only chunk 0 starts with a small chunk */
            size_t size = (size_t)FS_CHUNK_SIZE;
            if (data->depth == 0 && end < FS_CHUNK_SIZE)
                size = small_size_for(end);
            char *chunk = fs_malloc(size);
            if (chunk == NULL)
                break;
            /* zero only what this write does not cover */
            memset(chunk, 0, piece.at);
            memset(chunk + piece.at + piece.len, 0, size - piece.at - piece.len);
            *slot = chunk;
            data->small_cap = size < (size_t)FS_CHUNK_SIZE ? (uint32_t)size : 0;
            data->chunk_count++;
            data->bytes_allocated += (int64_t)size;
        }
        memcpy((char *)*slot + piece.at, in + done, piece.len);
        done += piece.len;
    }
    return done > 0 ? (int64_t)done : -SPINDLE_ENOSPC;
}

void file_data_read(const struct file_data *data, int64_t offset, void *dst, size_t len)
{
    char *out = dst;
    size_t done = 0;
    while (done < len) {
        struct chunk_piece piece = piece_at(offset + (int64_t)done, len - done);
        const char *chunk = chunk_at(data, piece.index);
        size_t stored = 0; /* bytes of this piece that the chunk holds */
        if (chunk) {
            size_t bytes = chunk_bytes(data, piece.index);
            stored = piece.at >= bytes ? 0 : (bytes - piece.at < piece.len ? bytes - piece.at : piece.len);
            memcpy(out + done, chunk + piece.at, stored);
        }
        memset(out + done + stored, 0, piece.len - stored);
        done += piece.len;
    }
}

/* Frees every chunk with index >= first_freed; returns true if the subtree
 * became empty. */
static bool free_from(struct file_data *data, void **slot, int level, int64_t base, int64_t first_freed)
{
    if (*slot == NULL)
        return true;
    if (level == 0) {
        if (base >= first_freed) {
            data->bytes_allocated -= (int64_t)chunk_bytes(data, base);
            fs_free(*slot);
            *slot = NULL;
            data->chunk_count--;
            return true;
        }
        return false;
    }
    void **node = *slot;
    int64_t span = span_chunks(level - 1);
    bool empty = true;
    /* nothing was ever made at or past chunk_end: a 64 KiB file's unlink looks at 16 of its
     * node's 512 slots */
    for (int i = 0; i < FS_NODE_FANOUT && base + i * span < data->chunk_end; i++) {
        if (node[i] == NULL)
            continue;
        int64_t child_base = base + i * span;
        if (child_base + span <= first_freed ||
            !free_from(data, &node[i], level - 1, child_base, first_freed))
            empty = false;
    }
    if (empty) {
        fs_free(node);
        *slot = NULL;
    }
    return empty;
}

void file_data_truncate(struct file_data *data, int64_t old_size, int64_t new_size)
{
    if (new_size >= old_size)
        return;
    int64_t first_freed = (new_size + FS_CHUNK_SIZE - 1) >> FS_CHUNK_SHIFT;
    free_from(data, &data->root, data->depth, 0, first_freed);
    if (data->chunk_end > first_freed)
        data->chunk_end = first_freed;
    if (data->root == NULL) {
        data->depth = 0;
        data->small_cap = 0;
    }
    size_t tail = (size_t)(new_size & (FS_CHUNK_SIZE - 1));
    if (tail != 0) {
        int64_t index = new_size >> FS_CHUNK_SHIFT;
        char *chunk = chunk_at(data, index);
        size_t bytes = chunk_bytes(data, index);
        if (chunk && tail < bytes)
            memset(chunk + tail, 0, bytes - tail);
    }
}

void file_data_free(struct file_data *data)
{
    free_from(data, &data->root, data->depth, 0, 0);
    data->chunk_end = 0;
    data->depth = 0;
    data->small_cap = 0;
}
