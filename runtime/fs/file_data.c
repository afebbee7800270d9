/* File contents as a radix tree of fixed-size chunks: growth never copies
 * data, there is no single-buffer size cap, and holes (missing chunks) cost
 * nothing and read as zeros.
 * Invariant: bytes of an allocated chunk past the file size are zero, so a
 * file that grows again reads zeros there without extra work. */
#include "fs_internal.h"

#include <string.h>

static int64_t span_chunks(int level) /* chunks covered by one slot at level */
{
    return (int64_t)1 << (FS_NODE_SHIFT * level);
}

static int64_t capacity_chunks(int depth)
{
    return depth == 0 ? 1 : span_chunks(depth);
}

static int grow_depth(struct file_data *data, int64_t chunk_index)
{
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

static const char *chunk_for_read(const struct file_data *data, int64_t chunk_index)
{
    if (chunk_index >= capacity_chunks(data->depth))
        return NULL;
    void **slot = chunk_slot((struct file_data *)data, chunk_index, false);
    return slot ? *slot : NULL;
}

int64_t file_data_write(struct file_data *data, int64_t offset, const void *src, size_t len)
{
    const char *in = src;
    size_t done = 0;
    if (len == 0)
        return 0;
    int rc = grow_depth(data, (offset + (int64_t)len - 1) >> FS_CHUNK_SHIFT);
    if (rc < 0)
        return rc;
    while (done < len) {
        int64_t pos = offset + (int64_t)done;
        int64_t chunk_index = pos >> FS_CHUNK_SHIFT;
        size_t in_chunk = (size_t)(pos & (FS_CHUNK_SIZE - 1));
        size_t n = (size_t)FS_CHUNK_SIZE - in_chunk;
        if (n > len - done)
            n = len - done;
        void **slot = chunk_slot(data, chunk_index, true);
        if (slot == NULL)
            break;
        if (*slot == NULL) {
            char *chunk = fs_malloc((size_t)FS_CHUNK_SIZE);
            if (chunk == NULL)
                break;
            /* zero only what this write does not cover */
            memset(chunk, 0, in_chunk);
            memset(chunk + in_chunk + n, 0, (size_t)FS_CHUNK_SIZE - in_chunk - n);
            *slot = chunk;
            data->chunk_count++;
        }
        memcpy((char *)*slot + in_chunk, in + done, n);
        done += n;
    }
    return done > 0 ? (int64_t)done : -SPINDLE_ENOSPC;
}

void file_data_read(const struct file_data *data, int64_t offset, void *dst, size_t len)
{
    char *out = dst;
    size_t done = 0;
    while (done < len) {
        int64_t pos = offset + (int64_t)done;
        size_t in_chunk = (size_t)(pos & (FS_CHUNK_SIZE - 1));
        size_t n = (size_t)FS_CHUNK_SIZE - in_chunk;
        if (n > len - done)
            n = len - done;
        const char *chunk = chunk_for_read(data, pos >> FS_CHUNK_SHIFT);
        if (chunk)
            memcpy(out + done, chunk + in_chunk, n);
        else
            memset(out + done, 0, n);
        done += n;
    }
}

/* Frees every chunk with index >= first_kept_not; returns true if the
 * subtree became empty. */
static bool free_from(struct file_data *data, void **slot, int level, int64_t base, int64_t first_freed)
{
    if (*slot == NULL)
        return true;
    if (level == 0) {
        if (base >= first_freed) {
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
    for (int i = 0; i < FS_NODE_FANOUT; i++) {
        int64_t child_base = base + i * span;
        if (child_base + span <= first_freed) {
            if (node[i] != NULL)
                empty = false;
            continue;
        }
        if (!free_from(data, &node[i], level - 1, child_base, first_freed))
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
    if (data->root == NULL)
        data->depth = 0;
    size_t tail = (size_t)(new_size & (FS_CHUNK_SIZE - 1));
    if (tail != 0) {
        char *chunk = (char *)chunk_for_read(data, new_size >> FS_CHUNK_SHIFT);
        if (chunk)
            memset(chunk + tail, 0, (size_t)FS_CHUNK_SIZE - tail);
    }
}

void file_data_free(struct file_data *data)
{
    free_from(data, &data->root, data->depth, 0, 0);
    data->depth = 0;
}
