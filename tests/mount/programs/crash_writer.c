/* What a program's write() returned for survives how it ends (tests/mount-crash.test.js,
 * tests/opfs-crash.test.js):
 *   crash_writer HOW FILE RECORDS [thread] [excl]
 * writes RECORDS records of 4 KiB with plain write() to FILE (created, truncated; with "excl"
 * removed first and created with O_EXCL, as mkstemp does), from a second thread with "thread",
 * prints "written N" and then ends by HOW:
 *   wait   waits for the test's signal (SIGINT, SIGTERM, SIGHUP, SIGKILL) or its reading
 *   abort  abort()
 *   trap   a store far outside memory (a wasm trap; SIGSEGV natively)
 *   exit   _exit(3) from the writing thread, the main thread still running
 * Record i is 4,095 copies of 'a' + i % 26 and a newline, so a reader can check every byte. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#define RECORD 4096

static const char *how;
static const char *path;
static int records;
static int excl;

static void say_written(int n)
{
    printf("written %d\n", n);
    fflush(stdout);
}

static void end_by(const char *way)
{
    if (strcmp(way, "abort") == 0)
        abort();
    if (strcmp(way, "trap") == 0) {
        volatile uint32_t *far = (volatile uint32_t *)(uintptr_t)0xFFFFFFF0u;
        *far = 1;
    }
    if (strcmp(way, "exit") == 0)
        _exit(3);
    for (;;)
        sleep(100);
}

static void *write_records(void *unused)
{
    (void)unused;
    if (excl)
        unlink(path);
    int fd = open(path, O_CREAT | (excl ? O_EXCL : O_TRUNC) | O_WRONLY, 0644);
    if (fd < 0) {
        perror("open");
        exit(1);
    }
    char rec[RECORD];
    for (int i = 0; i < records; i++) {
        memset(rec, 'a' + i % 26, RECORD - 1);
        rec[RECORD - 1] = '\n';
        if (write(fd, rec, RECORD) != RECORD) {
            perror("write");
            exit(1);
        }
    }
    say_written(records);
    end_by(how);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: crash_writer wait|abort|trap|exit FILE RECORDS [thread] [excl]\n");
        return 2;
    }
    how = argv[1];
    path = argv[2];
    records = atoi(argv[3]);
    int thread = 0;
    for (int i = 4; i < argc; i++) {
        thread |= strcmp(argv[i], "thread") == 0;
        excl |= strcmp(argv[i], "excl") == 0;
    }
    if (thread) {
        pthread_t t;
        if (pthread_create(&t, NULL, write_records, NULL) != 0)
            return 1;
        for (;;)
            sleep(100);
    }
    write_records(NULL);
    return 0;
}
