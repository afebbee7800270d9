/* Several threads append fixed-size records to one file through their own
 * O_APPEND descriptors, and each writes and re-reads a private file, while
 * another lists the directory: no record may be lost or torn. */
#include <pthread.h>
#include <stdint.h>

#include "conformance.h"

#define THREADS 4
#define RECORDS 500

struct record {
    uint32_t thread, seq, check, pad;
};

static void *appender(void *arg)
{
    int t = (int)(intptr_t)arg;
    int log = open("log", O_WRONLY | O_APPEND);
    if (log < 0) /* (a failure says why; a run that passes prints nothing here) */
        printf("thread %d: open log: %s\n", t, errno_name(errno));
    char own[32];
    snprintf(own, sizeof own, "own-%d", t);
    int mine = open(own, O_RDWR | O_CREAT | O_TRUNC, 0644);
    for (uint32_t i = 0; i < RECORDS; i++) {
        struct record r = {(uint32_t)t, i, (uint32_t)t * 7919u + i, 0};
        ssize_t put = write(log, &r, sizeof r);
        if (put != (ssize_t)sizeof r)
            printf("short append: %zd (%s)\n", put, put < 0 ? errno_name(errno) : "0");
        char line[32];
        int len = snprintf(line, sizeof line, "%d:%u\n", t, i);
        write(mine, line, (size_t)len);
    }
    close(log);
    /* read back the private file through the same fd */
    lseek(mine, 0, SEEK_SET);
    static char buf[THREADS][RECORDS * 16];
    ssize_t n = read(mine, buf[t], sizeof buf[t]);
    int lines = 0;
    for (ssize_t i = 0; i < n; i++)
        lines += buf[t][i] == '\n';
    close(mine);
    return (void *)(intptr_t)lines;
}

static void *lister(void *arg)
{
    (void)arg;
    int listings = 0;
    for (int round = 0; round < 20; round++) {
        DIR *dir = opendir(".");
        int found_log = 0;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL)
            found_log += strcmp(e->d_name, "log") == 0;
        closedir(dir);
        listings += found_log == 1;
    }
    return (void *)(intptr_t)listings;
}

int main(void)
{
    enter_scratch_dir();
    close(open("log", O_WRONLY | O_CREAT | O_TRUNC, 0644));
    pthread_t threads[THREADS], list;
    for (int t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, appender, (void *)(intptr_t)t);
    pthread_create(&list, NULL, lister, NULL);
    int lines_ok = 1;
    for (int t = 0; t < THREADS; t++) {
        void *lines;
        pthread_join(threads[t], &lines);
        lines_ok &= (intptr_t)lines == RECORDS;
    }
    void *listings;
    pthread_join(list, &listings);
    printf("private files read back fully: %d\n", lines_ok);
    printf("listings that showed log exactly once: %d of 20\n", (int)(intptr_t)listings);
    printf("log size: %lld (expected %lld)\n", size_of("log"),
           (long long)THREADS * RECORDS * (long long)sizeof(struct record));
    int fd = open("log", O_RDONLY);
    uint32_t next[THREADS] = {0};
    int bad = 0;
    struct record r;
    while (read(fd, &r, sizeof r) == (ssize_t)sizeof r) {
        if (r.thread >= THREADS || r.check != r.thread * 7919u + r.seq || r.seq != next[r.thread])
            bad++;
        else
            next[r.thread]++;
    }
    close(fd);
    printf("bad or out-of-order records: %d\n", bad);
    for (int t = 0; t < THREADS; t++)
        printf("thread %d records: %u\n", t, next[t]);
    show_listing("scratch", ".");
    return 0;
}
