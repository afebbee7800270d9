/* Wasm-only regression test: threads using relative paths after chdir must
 * each reach their own file. wasi-libc joins the cwd and a relative path in
 * one process-wide buffer outside its cwd lock, so two threads opening
 * "t0-..." and "t1-..." at once could open each other's file, and when the
 * buffer grew (realloc) one thread wrote the path into freed memory (seen as
 * corrupted stdio FILEs). runtime/wasi replaces that resolver; this test
 * fails without it.
 * Each thread repeatedly creates (O_EXCL) a file under a name whose length
 * keeps changing, writes its own record, checks the file by name (stat) and
 * by reading it back, and unlinks it. Ends with "N passed, N failed". */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define THREADS 2
#define ROUNDS 20000

static atomic_long passed, failed;

static void expect(int ok, int thread, int round, const char *what)
{
    if (ok) {
        atomic_fetch_add(&passed, 1);
        return;
    }
    if (atomic_fetch_add(&failed, 1) < 10)
        fprintf(stderr, "FAIL thread %d round %d: %s (errno %d)\n", thread, round, what, errno);
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int round = 0; round < ROUNDS; round++) {
        /* names of 8 to 80 characters, so the joined path keeps growing and
         * shrinking (the old shared buffer was reallocated as it grew) */
        char name[128], record[128], back[128];
        int pad = (round * 7 + t * 3) % 72;
        snprintf(name, sizeof name, "t%d-%06d-%.*s", t, round, pad,
                 "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp");
        int len = snprintf(record, sizeof record, "thread %d round %d", t, round);

        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
        expect(fd >= 0, t, round, "create own file");
        if (fd >= 0) {
            expect(write(fd, record, (size_t)len) == len, t, round, "write record");
            close(fd);
        }
        struct stat st;
        expect(stat(name, &st) == 0 && st.st_size == len, t, round, "stat by name sees own size");
        fd = open(name, O_RDONLY);
        expect(fd >= 0, t, round, "reopen own file");
        if (fd >= 0) {
            ssize_t got = read(fd, back, sizeof back);
            expect(got == len && memcmp(back, record, (size_t)len) == 0, t, round, "read back own record");
            close(fd);
        }
        expect(unlink(name) == 0, t, round, "unlink own file");
    }
    return NULL;
}

int main(void)
{
    const char *dir = "/tmp/cwd-threads"; /* the in-memory filesystem starts empty */
    if (mkdir(dir, 0755) != 0 || chdir(dir) != 0) {
        perror("mkdir/chdir");
        return 1;
    }
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    /* nothing may be left behind: every file was its own thread's */
    int empty = chdir("/") == 0 && rmdir(dir) == 0;
    expect(empty, -1, -1, "directory empty at the end");
    printf("%ld passed, %ld failed\n", atomic_load(&passed), atomic_load(&failed));
    return atomic_load(&failed) == 0 ? 0 : 1;
}
