/* Threads using relative paths after chdir must each reach their own file, and libc's path
 * resolution must not corrupt memory. wasi-libc (chdir.c) joins the cwd and a relative path
 * in one process-wide buffer outside its lock: two threads opened each other's files, and
 * when one grew that buffer (realloc) another wrote its path into the freed block, which the
 * allocator handed out next: stdio FILEs trapped in fgets ("null function or function
 * signature mismatch"). runtime/jsfs/working_directory.c replaces that code for --fs=js.
 *
 * Each thread creates (O_EXCL, so a stray create of another thread's name fails), writes,
 * stats, reads back with stdio and unlinks files whose names keep changing length (every
 * length from 1 to 200, so the shared buffer would keep growing), all by relative path. The
 * output is deterministic and the same natively. */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/stat.h>

#include "../fs/conformance/conformance.h"

#define THREADS 4
#define LONGEST 200

static atomic_long passed, failed;

static void expect(int ok, int thread, size_t length, const char *what)
{
    if (ok) {
        atomic_fetch_add(&passed, 1);
        return;
    }
    if (atomic_fetch_add(&failed, 1) < 10)
        fprintf(stderr, "FAIL thread %d name length %zu: %s (errno %d)\n", thread, length, what, errno);
}

/* "<thread letter>" followed by digits up to `length` characters: unique per thread. */
static void make_name(char *name, int thread, size_t length)
{
    name[0] = (char)('a' + thread);
    for (size_t i = 1; i < length; i++)
        name[i] = (char)('0' + (i + (size_t)thread) % 10);
    name[length] = '\0';
}

static void one_file(int thread, size_t length)
{
    char name[LONGEST + 1], record[64], line[64];
    make_name(name, thread, length);
    int record_len = snprintf(record, sizeof record, "thread %d length %zu\n", thread, length);

    int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
    expect(fd >= 0, thread, length, "create with O_EXCL");
    if (fd < 0)
        return;
    expect(write(fd, record, (size_t)record_len) == record_len, thread, length, "write");
    close(fd);

    struct stat st;
    expect(stat(name, &st) == 0 && st.st_size == record_len, thread, length, "stat by name");

    FILE *f = fopen(name, "r");
    expect(f != NULL, thread, length, "fopen for reading");
    if (f) {
        expect(fgets(line, sizeof line, f) != NULL && strcmp(line, record) == 0, thread, length,
               "read back own record");
        fclose(f);
    }
    expect(unlink(name) == 0, thread, length, "unlink");
}

static void *worker(void *arg)
{
    int thread = (int)(intptr_t)arg;
    for (size_t length = 1; length <= LONGEST; length++)
        one_file(thread, length);
    return NULL;
}

int main(void)
{
    enter_scratch_dir();
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    show_listing("scratch left empty", ".");
    expect(chdir("/") == 0 && rmdir(scratch_dir) == 0, -1, 0, "remove the scratch directory");
    printf("%ld passed, %ld failed\n", atomic_load(&passed), atomic_load(&failed));
    return atomic_load(&failed) == 0 ? 0 : 1;
}
