/* Pipes between threads, compared with Linux: a stream across threads with
 * EOF, PIPE_BUF-sized writes from four threads never interleaved, EPIPE,
 * O_NONBLOCK (EAGAIN, 64 KiB capacity), fcntl F_GETFL/F_SETFL and ESPIPE,
 * F_GETPIPE_SZ/F_SETPIPE_SZ and what a changed capacity holds. */
#define _GNU_SOURCE /* pipe2, F_GETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifndef __wasi__
#include <signal.h>
#endif

#define STREAM_BYTES (1 << 20)
#define WRITERS 4
#define RECORDS 200
#define RECORD 4096 /* PIPE_BUF */

static int stream_fds[2], record_fds[2];

static void *produce_stream(void *arg)
{
    (void)arg;
    static unsigned char buf[7000];
    size_t sent = 0, step = 1;
    while (sent < STREAM_BYTES) {
        size_t n = step < STREAM_BYTES - sent ? step : STREAM_BYTES - sent;
        for (size_t i = 0; i < n; i++)
            buf[i] = (unsigned char)((sent + i) * 31 % 251);
        ssize_t w = write(stream_fds[1], buf, n);
        if (w <= 0) {
            printf("stream write failed: %s\n", strerror(errno));
            break;
        }
        sent += (size_t)w;
        step = step * 3 % sizeof buf + 1; /* 1 .. 7000 bytes, crossing the ring's end */
    }
    close(stream_fds[1]); /* the reader then sees EOF */
    return NULL;
}

static void *write_records(void *arg)
{
    int id = (int)(intptr_t)arg;
    unsigned char record[RECORD];
    for (int r = 0; r < RECORDS; r++) {
        memset(record, 'A' + id, sizeof record);
        record[0] = (unsigned char)r;
        if (write(record_fds[1], record, sizeof record) != RECORD)
            printf("record write failed\n");
    }
    return NULL;
}

static void stream_to_reader(void)
{
    pipe(stream_fds);
    pthread_t t;
    pthread_create(&t, NULL, produce_stream, NULL);
    static unsigned char buf[5000];
    size_t got = 0, bad = 0;
    ssize_t n;
    while ((n = read(stream_fds[0], buf, (got / 7) % sizeof buf + 1)) > 0) {
        for (ssize_t i = 0; i < n; i++)
            bad += buf[i] != (unsigned char)((got + (size_t)i) * 31 % 251);
        got += (size_t)n;
    }
    pthread_join(t, NULL);
    printf("stream: %zu bytes, %zu wrong, then read gives %zd (EOF)\n", got, bad, n);
    printf("read at EOF again: %zd\n", read(stream_fds[0], buf, 10));
    close(stream_fds[0]);
}

static void records_never_interleave(void)
{
    pipe(record_fds);
    pthread_t t[WRITERS];
    for (int i = 0; i < WRITERS; i++)
        pthread_create(&t[i], NULL, write_records, (void *)(intptr_t)i);
    static unsigned char all[WRITERS * RECORDS * RECORD];
    size_t got = 0;
    while (got < sizeof all) {
        ssize_t n = read(record_fds[0], all + got, sizeof all - got < 3000 ? sizeof all - got : 3000);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    for (int i = 0; i < WRITERS; i++)
        pthread_join(t[i], NULL);
    int intact = 0, next[WRITERS] = {0}, in_order = 1;
    for (size_t at = 0; at + RECORD <= got; at += RECORD) {
        unsigned char who = all[at + 1];
        int same = who >= 'A' && who < 'A' + WRITERS;
        for (size_t i = 2; same && i < RECORD; i++)
            same = all[at + i] == who;
        intact += same;
        if (same && all[at] != (unsigned char)next[who - 'A']++)
            in_order = 0;
    }
    printf("records: %zu bytes, %d of %d intact, each writer's in order: %s\n", got, intact,
           WRITERS * RECORDS, in_order ? "yes" : "no");
    close(record_fds[0]);
    close(record_fds[1]);
}

static void errors_and_flags(void)
{
    int fds[2];
    pipe(fds);
    printf("read end O_RDONLY: %d, write end O_WRONLY: %d\n",
           (fcntl(fds[0], F_GETFL) & O_ACCMODE) == O_RDONLY,
           (fcntl(fds[1], F_GETFL) & O_ACCMODE) == O_WRONLY);
    errno = 0;
    printf("lseek: %lld %s\n", (long long)lseek(fds[0], 0, SEEK_CUR),
           errno == ESPIPE ? "ESPIPE" : strerror(errno));
    char c = 0;
    errno = 0;
    printf("pwrite: %zd %s\n", pwrite(fds[1], &c, 1, 0), errno == ESPIPE ? "ESPIPE" : strerror(errno));
    printf("write to the read end: %zd %s\n", write(fds[0], "x", 1),
           errno == EBADF ? "EBADF" : strerror(errno));

    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    printf("F_SETFL O_NONBLOCK shows in F_GETFL: %d\n", (fcntl(fds[0], F_GETFL) & O_NONBLOCK) != 0);
    errno = 0;
    printf("empty non-blocking read: %zd %s\n", read(fds[0], &c, 1),
           errno == EAGAIN ? "EAGAIN" : strerror(errno));
    printf("zero-byte write: %zd\n", write(fds[1], &c, 0));

    close(fds[0]);
    errno = 0;
    printf("write with no reader: %zd %s\n", write(fds[1], "x", 1),
           errno == EPIPE ? "EPIPE" : strerror(errno));
    close(fds[1]);

    pipe2(fds, O_NONBLOCK | O_CLOEXEC);
    char block[1024];
    memset(block, 'z', sizeof block);
    size_t stored = 0;
    ssize_t n;
    while ((n = write(fds[1], block, sizeof block)) > 0)
        stored += (size_t)n;
    printf("pipe2(O_NONBLOCK) holds %zu bytes, then write gives %s\n", stored,
           errno == EAGAIN ? "EAGAIN" : strerror(errno));
    size_t drained = 0;
    while ((n = read(fds[0], block, sizeof block)) > 0)
        drained += (size_t)n;
    printf("drained %zu bytes; a write fits again: %zd\n", drained, write(fds[1], block, 100));
    close(fds[0]);
    close(fds[1]);
    errno = 0;
    printf("pipe2 with a bad flag: %d %s\n", pipe2(fds, 0x40000000),
           errno == EINVAL ? "EINVAL" : strerror(errno));
}

/* "" for a call that succeeded, else its errno's name after a space. */
static const char *failure(long rc)
{
    int e = errno;
    return rc >= 0       ? ""
           : e == EBUSY  ? " EBUSY"
           : e == EPERM  ? " EPERM"
           : e == EINVAL ? " EINVAL"
           : e == EBADF  ? " EBADF"
           : e == EAGAIN ? " EAGAIN"
                         : " another error";
}

/* F_SETPIPE_SZ's result (or errno's name) and the capacity after it. */
static void set_size(int fd, int request)
{
    int got = fcntl(fd, F_SETPIPE_SZ, request);
    const char *why = failure(got);
    printf("F_SETPIPE_SZ %d: %d%s, F_GETPIPE_SZ %d\n", request, got, why, fcntl(fd, F_GETPIPE_SZ));
}

/* The alphabet from its `from`th letter on, over and over. */
static void pattern(char *bytes, size_t len, size_t from)
{
    for (size_t i = 0; i < len; i++)
        bytes[i] = (char)('a' + (from + i) % 26);
}

/* What a non-blocking write of `len` bytes stores. Linux counts a pipe's capacity in 4 KiB
 * pages, Spindle in bytes: writes into an empty pipe fill both alike. */
static void fill(int fd, size_t len)
{
    static char bytes[1 << 18];
    pattern(bytes, len, 0);
    ssize_t n = write(fd, bytes, len);
    printf("write %zu: %zd%s\n", len, n, failure(n));
}

/* Reads `len` bytes and checks they continue the alphabet from `from`. */
static void drain(int fd, size_t len, size_t from)
{
    static char bytes[1 << 18];
    ssize_t n = read(fd, bytes, len);
    size_t wrong = 0;
    for (ssize_t i = 0; i < n; i++)
        wrong += bytes[i] != (char)('a' + (from + (size_t)i) % 26);
    printf("read %zu: %zd, %zu wrong\n", len, n, wrong);
}

static int blocked_fds[2];
static ssize_t blocked_written;

static void *write_past_capacity(void *arg)
{
    (void)arg;
    static char page[4096];
    pattern(page, sizeof page, 4096);
    blocked_written = write(blocked_fds[1], page, sizeof page); /* blocks until the pipe grows */
    return NULL;
}

static void capacity(void)
{
    int fds[2];
    pipe2(fds, O_NONBLOCK);
    printf("F_GETPIPE_SZ read end %d, write end %d\n", fcntl(fds[0], F_GETPIPE_SZ),
           fcntl(fds[1], F_GETPIPE_SZ));
    fill(fds[1], 10000);
    set_size(fds[1], 8192);  /* less than it holds */
    set_size(fds[0], 10000); /* rounded up to a power of two */
    drain(fds[0], 3000, 0);
    set_size(fds[1], 32768); /* the 7000 bytes left move to the new ring in order */
    drain(fds[0], 7000, 3000);
    set_size(fds[1], 5000);
    fill(fds[1], 20000); /* stops at the new capacity */
    fill(fds[1], 1);
    drain(fds[0], 8192, 0);
    set_size(fds[1], 0); /* one page at least */
    set_size(fds[1], 1 << 20);
    set_size(fds[1], -1);
    int file = open("/tmp", O_RDONLY);
    int rc = fcntl(file, F_GETPIPE_SZ);
    printf("F_GETPIPE_SZ of a directory: %d%s\n", rc, failure(rc));
    close(file);
    rc = fcntl(file, F_SETPIPE_SZ, 4096);
    printf("F_SETPIPE_SZ of a closed fd: %d%s\n", rc, failure(rc));
#ifndef __wasi__
    if (setuid(65534) != 0 && geteuid() == 0) /* root may go past pipe-max-size; Spindle never does */
        printf("cannot drop root\n");
#endif
    set_size(fds[1], (1 << 20) + 1);
    close(fds[0]);
    close(fds[1]);

    pipe(blocked_fds); /* a blocking writer wakes when the pipe grows */
    set_size(blocked_fds[1], 4096);
    fill(blocked_fds[1], 4096);
    pthread_t t;
    pthread_create(&t, NULL, write_past_capacity, NULL);
    usleep(20000);
    set_size(blocked_fds[1], 8192);
    pthread_join(t, NULL);
    printf("the blocked write ended: %zd\n", blocked_written);
    drain(blocked_fds[0], 8192, 0);
    close(blocked_fds[0]);
    close(blocked_fds[1]);
}

int main(void)
{
#ifndef __wasi__
    signal(SIGPIPE, SIG_IGN); /* Linux signals EPIPE; Spindle has no signals, only the error */
#endif
    stream_to_reader();
    records_never_interleave();
    errors_and_flags();
    capacity(); /* last: natively, it gives up root */
    return 0;
}
