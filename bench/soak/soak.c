/* A long run (bench/soak/soak.js): THREADS threads for SECONDS seconds, each churning malloc/free
 * (a ring of 512 live blocks of 16 B to 64 KiB) and files: create, write 1-64 KiB, close, reopen,
 * read back and check, unlink; alternately in DIR (a host mount) and in /tmp (the module's own
 * files). Every 5 s it prints one line:
 *   SAMPLE {"s":..,"files":..,"lost":..,"fds":..,"memory_mib":..}
 * files: files written and checked so far; lost: files whose bytes did not come back (or that
 * failed to open, write or unlink); fds: descriptors open now, counted in /proc/self/fd (the
 * fd table must not grow: at most one file per thread above the count before the threads
 * started); memory_mib: the module's linear memory (it never shrinks; it must stop
 * growing). The last line is RESULT {...} with the totals.
 *   soak DIR SECONDS THREADS */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RING 512
#define MAX_BLOCK (64 * 1024)
#define MAX_FILE (64 * 1024)

static const char *mount_dir;
static double seconds;
static atomic_long files_done, files_lost;
static atomic_int stop;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* One file's round: written, closed, read back whole and compared, removed. 0 if all went well. */
static int file_round(const char *path, uint8_t *bytes, uint8_t *back, size_t len, uint32_t seed)
{
    for (size_t i = 0; i < len; i++)
        bytes[i] = (uint8_t)(seed + i * 131);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        return -1;
    size_t half = len / 2; /* two writes: the second continues the first */
    int bad = write(fd, bytes, half) != (ssize_t)half ||
              write(fd, bytes + half, len - half) != (ssize_t)(len - half);
    bad |= close(fd) != 0;
    fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    bad |= read(fd, back, MAX_FILE) != (ssize_t)len || memcmp(bytes, back, len) != 0;
    bad |= close(fd) != 0;
    bad |= unlink(path) != 0;
    return bad ? -1 : 0;
}

static void *churn(void *arg)
{
    int id = (int)(intptr_t)arg;
    uint32_t state = 2463534242u + (uint32_t)id * 7919u;
    void *ring[RING] = {0};
    uint8_t *bytes = malloc(MAX_FILE), *back = malloc(MAX_FILE);
    char path[256];
    for (long round = 0; !atomic_load(&stop); round++) {
        for (int k = 0; k < 64; k++) { /* malloc/free churn */
            int slot = (int)(next_random(&state) % RING);
            free(ring[slot]);
            size_t size = 16 + next_random(&state) % (MAX_BLOCK - 16);
            ring[slot] = malloc(size);
            if (ring[slot] != NULL)
                memset(ring[slot], id, size < 64 ? size : 64);
        }
        snprintf(path, sizeof path, "%s/soak-%d-%ld", round % 2 ? "/tmp" : mount_dir, id, round);
        size_t len = 1 + next_random(&state) % MAX_FILE;
        if (file_round(path, bytes, back, len, next_random(&state)) != 0)
            atomic_fetch_add(&files_lost, 1);
        atomic_fetch_add(&files_done, 1);
    }
    for (int i = 0; i < RING; i++)
        free(ring[i]);
    free(bytes);
    free(back);
    return NULL;
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the listing's own */
}

static double memory_mib(void)
{
#ifdef __wasm__
    return (double)__builtin_wasm_memory_size(0) * 65536.0 / (1024.0 * 1024.0);
#else
    return 0;
#endif
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: soak DIR SECONDS THREADS\n");
        return 2;
    }
    mount_dir = argv[1];
    seconds = atof(argv[2]);
    int threads = atoi(argv[3]);
    if (threads < 1 || threads > 64)
        return 2;
    pthread_t t[64];
    int fds_start = open_fds();
    double start = now();
    for (int i = 0; i < threads; i++)
        if (pthread_create(&t[i], NULL, churn, (void *)(intptr_t)i) != 0)
            return 1;
    int max_fds = 0;
    for (double next = 5; now() - start < seconds; next += 5) {
        while (now() - start < next && now() - start < seconds)
            usleep(100 * 1000);
        int fds = open_fds();
        if (fds > max_fds)
            max_fds = fds;
        printf("SAMPLE {\"s\":%.0f,\"files\":%ld,\"lost\":%ld,\"fds\":%d,\"memory_mib\":%.0f}\n",
               now() - start, atomic_load(&files_done), atomic_load(&files_lost), fds, memory_mib());
        fflush(stdout);
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    printf("RESULT {\"bench\":\"soak\",\"s\":%.1f,\"threads\":%d,\"files\":%ld,\"lost\":%ld,\"fds_start\":%d,"
           "\"fds_max\":%d,\"fds_end\":%d,\"memory_mib\":%.0f}\n",
           now() - start, threads, atomic_load(&files_done), atomic_load(&files_lost), fds_start, max_fds,
           open_fds(), memory_mib());
    return atomic_load(&files_lost) != 0;
}
