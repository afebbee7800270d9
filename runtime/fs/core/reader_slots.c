/* Lock-free reads of regular files and lock-free path walks: each thread announces what it is
 * reading in a slot of its own (one cache line, written by that thread only), so read/pread/fstat
 * of a file nobody is writing, and the walk through directories nobody is changing (path.c),
 * write no shared memory at all: no fd stripe lock, no reference count, no rwlock.
 *
 * The protocol is the hazard-pointer one, in three places:
 *  - A reader stores the open file in its slot, then checks that the fd still holds it. Whoever
 *    frees an open file (open_file_unref at zero) first waits until no slot holds it; the fd no
 *    longer held it, so later readers see the change and take the locked path.
 *  - A reader stores the inode in its slot, then checks inode->writing. A writer
 *    (inode_write_lock on a file or directory) sets inode->writing, then waits until no slot
 *    holds the inode (only the one reader's slot, while it has had only one).
 *  - A walker moves its slot from a directory to the child it found there, while the entry
 *    still holds the child: whoever frees an inode (inode_unref at zero) first waits until no
 *    slot holds it, so the child's memory outlives the walker's use of it.
 * Both sides store, then load, sequentially consistent, so at least one sees the other
 * (Dekker). The waits are short: a reader holds its slot for one copy, a walker for one lookup,
 * and neither blocks while it holds an inode in it; a write holds only its description there
 * (ops_io.c), across one write. */
#include "fs_core.h"

#include <sched.h>

#define READER_SLOTS 1024 /* the host's thread limit; beyond it, threads read through locks */

struct reader_slot {
    _Alignas(64) struct open_file *_Atomic file;
    struct inode *_Atomic inode;
    atomic_bool taken;
};

static struct reader_slot reader_slots[READER_SLOTS];
static atomic_int slots_used; /* high-water mark: waits scan only this far */
static _Thread_local struct reader_slot *my_slot;
static pthread_key_t slot_key;
static pthread_once_t slot_key_once = PTHREAD_ONCE_INIT;

static void release_slot(void *slot) { atomic_store(&((struct reader_slot *)slot)->taken, false); }
static void create_slot_key(void) { pthread_key_create(&slot_key, release_slot); }

struct reader_slot *reader_slot_mine(void)
{
    if (my_slot)
        return my_slot;
    pthread_once(&slot_key_once, create_slot_key);
    for (int i = 0; i < READER_SLOTS; i++) {
        bool free_slot = false;
        if (!atomic_compare_exchange_strong(&reader_slots[i].taken, &free_slot, true))
            continue;
        int used = atomic_load(&slots_used);
        while (used <= i && !atomic_compare_exchange_weak(&slots_used, &used, i + 1))
            ;
        my_slot = &reader_slots[i];
        pthread_setspecific(slot_key, my_slot); /* released when the thread exits */
        return my_slot;
    }
    return NULL;
}

/* Holds fd's description if its inode is of `type` (0: any). */
static inline struct open_file *hold_description(struct reader_slot *slot, int fd, int type)
{
    struct open_file *file = fd_peek(fd);
    if (file == NULL)
        return NULL;
    atomic_store(&slot->file, file);
    if (fd_peek(fd) == file && file->inode != NULL && (type == 0 || file->inode->type == type))
        return file;
    atomic_store_explicit(&slot->file, NULL, memory_order_release);
    return NULL;
}

struct open_file *reader_slot_hold_fd(struct reader_slot *slot, int fd)
{
    return hold_description(slot, fd, INODE_FILE);
}

struct open_file *description_get(int fd, struct reader_slot **held_in)
{
    struct reader_slot *slot = reader_slot_mine();
    struct open_file *file = slot ? hold_description(slot, fd, 0) : NULL;
    *held_in = file ? slot : NULL;
    return file ? file : fd_get(fd);
}

void description_put(struct open_file *file, struct reader_slot *held_in)
{
    if (held_in)
        reader_slot_clear(held_in);
    else
        open_file_unref(file);
}

/* Also records who reads the inode, so its writers scan only the slots that may hold it: a
 * file read only by the thread that writes it (the common case) costs its writes one load.
 * Both fields are written once at most, so readers do not keep writing a shared line. */
bool reader_slot_hold_inode(struct reader_slot *slot, struct inode *inode)
{
    atomic_store(&slot->inode, inode);
    struct reader_slot *sole = atomic_load(&inode->sole_reader);
    if (sole != slot && !atomic_load(&inode->many_readers)) {
        struct reader_slot *none = NULL;
        if (sole != NULL || !atomic_compare_exchange_strong(&inode->sole_reader, &none, slot))
            atomic_store(&inode->many_readers, true);
    }
    return !atomic_load(&inode->writing);
}

void reader_slot_clear(struct reader_slot *slot)
{
    atomic_store_explicit(&slot->inode, NULL, memory_order_release);
    atomic_store_explicit(&slot->file, NULL, memory_order_release);
}

/* One turn of a wait for a slot to let go: a load while spins last, then a yield. A holder
 * lets go within one copy or one lookup, a fraction of a microsecond, and a yield in wasm is a
 * call out to the host that costs more than that (a CPU profile of two threads creating and
 * removing files in one directory showed such yields inside the directory's write section). */
static void wait_turn(int *spins)
{
    if (*spins > 0)
        (*spins)--;
    else
        sched_yield();
}

void reader_slots_wait_file(struct open_file *file)
{
    int used = atomic_load(&slots_used);
    for (int i = 0, spins = FS_SPINS; i < used; i++)
        while (atomic_load(&reader_slots[i].file) == file)
            wait_turn(&spins);
}

/* Every slot in use, not only the recorded readers: a walker stores the child in its slot
 * before it records itself as the child's reader, and the child may be freed in between. */
void reader_slots_wait_inode_unheld(const struct inode *inode)
{
    int used = atomic_load(&slots_used);
    for (int i = 0, spins = FS_SPINS; i < used; i++)
        while (atomic_load(&reader_slots[i].inode) == inode)
            wait_turn(&spins);
}

void reader_slots_wait_inode(struct inode *inode)
{
    if (!atomic_load(&inode->many_readers)) {
        struct reader_slot *sole = atomic_load(&inode->sole_reader);
        for (int spins = FS_SPINS; sole != NULL && atomic_load(&sole->inode) == inode;)
            wait_turn(&spins);
        return;
    }
    reader_slots_wait_inode_unheld(inode);
}
