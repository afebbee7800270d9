// SQLite from several threads: each thread opens its own connection to one database file and
// inserts its rows in batches (one transaction each), querying its own rows after every batch;
// then the main thread checks the whole table. Everything printed except the RESULT line is
// deterministic, so a run is compared line by line with the native build's.
//
// usage: sqlite_threads DB_PATH THREADS ROWS_PER_THREAD VFS [stats]
//   VFS: the SQLite VFS name (`unix`: POSIX record locks; unix-dotfile: locks are directories
//   made with mkdir; docs/PORTING.md).
//   stats: each thread also reports on stderr its calls to SQLite's allocator, the time it
//   waited for the write lock (BEGIN IMMEDIATE) and the time it held it (until COMMIT).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqlite3.h"
#include "sqlite_alloc_counts.h"

enum { BATCH = 500 };

static const char *db_path;
static const char *vfs_name;
static int rows_per_thread;
static int stats;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// The value stored for row i of thread t: fixed, so the sums can be checked.
static long long row_value(int t, int i)
{
    return (long long)(t + 1) * 1000003LL + (long long)i * 7919LL % 65521LL;
}

static sqlite3 *open_db(void)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs_name);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "open %s (vfs %s): %s\n", db_path, vfs_name,
                db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        exit(1);
    }
    sqlite3_busy_timeout(db, 60000); // other connections hold the lock for one batch at a time
    return db;
}

static void exec_or_die(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, err);
        exit(1);
    }
}

static void step_done(sqlite3 *db, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s (%d)\n", what, sqlite3_errmsg(db), rc);
        exit(1);
    }
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    sqlite3 *db = open_db();
    sqlite3_stmt *ins, *count;
    sqlite3_prepare_v2(db, "INSERT INTO rows(thread, i, v, note) VALUES (?, ?, ?, ?)", -1, &ins, NULL);
    sqlite3_prepare_v2(db, "SELECT count(*), sum(v) FROM rows WHERE thread = ?", -1, &count, NULL);
    char note[64];
    long long expected_sum = 0;
    double waited_ms = 0, held_ms = 0;
    for (int start = 0; start < rows_per_thread; start += BATCH) {
        double asked = now_ms();
        exec_or_die(db, "BEGIN IMMEDIATE"); // take the write lock up front: no upgrade deadlock
        double got = now_ms();
        waited_ms += got - asked;
        int end = start + BATCH < rows_per_thread ? start + BATCH : rows_per_thread;
        for (int i = start; i < end; i++) {
            snprintf(note, sizeof note, "thread %d row %d", t, i);
            sqlite3_bind_int(ins, 1, t);
            sqlite3_bind_int(ins, 2, i);
            sqlite3_bind_int64(ins, 3, row_value(t, i));
            sqlite3_bind_text(ins, 4, note, -1, SQLITE_TRANSIENT);
            step_done(db, ins, "insert");
            sqlite3_reset(ins);
            expected_sum += row_value(t, i);
        }
        exec_or_die(db, "COMMIT");
        held_ms += now_ms() - got;
        sqlite3_bind_int(count, 1, t);
        step_done(db, count, "count");
        int n = sqlite3_column_int(count, 0);
        long long sum = sqlite3_column_int64(count, 1);
        sqlite3_reset(count);
        if (n != end || sum != expected_sum) {
            fprintf(stderr, "thread %d after %d rows: read %d rows, sum %lld (expected %lld)\n", t, end, n,
                    sum, expected_sum);
            exit(1);
        }
    }
    sqlite3_finalize(ins);
    sqlite3_finalize(count);
    sqlite3_close(db);
    if (stats) {
        struct alloc_counts c = thread_alloc_counts();
        fprintf(stderr,
                "STATS thread %d: mallocs %lld reallocs %lld frees %lld bytes %lld; waited %.1f ms for the "
                "write lock, held it %.1f ms\n",
                t, c.mallocs, c.reallocs, c.frees, c.bytes, waited_ms, held_ms);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    stats = argc == 6 && strcmp(argv[5], "stats") == 0;
    if (argc != 5 && !stats) {
        fprintf(stderr, "usage: %s DB_PATH THREADS ROWS_PER_THREAD VFS [stats]\n", argv[0]);
        return 2;
    }
    db_path = argv[1];
    int threads = atoi(argv[2]);
    rows_per_thread = atoi(argv[3]);
    vfs_name = argv[4];
    if (threads < 1 || threads > 64 || rows_per_thread < 1) {
        fprintf(stderr, "THREADS must be 1..64 and ROWS_PER_THREAD positive\n");
        return 2;
    }
    if (!sqlite3_threadsafe()) {
        fprintf(stderr,
                "SQLite was built with SQLITE_THREADSAFE=0: connections on several threads would race\n");
        return 1;
    }
    if (stats && !count_allocations()) {
        fprintf(stderr, "could not wrap SQLite's allocator\n");
        return 1;
    }
    remove(db_path);
    sqlite3 *db = open_db();
    exec_or_die(db, "CREATE TABLE rows(thread INTEGER, i INTEGER, v INTEGER, note TEXT);"
                    "CREATE INDEX rows_thread ON rows(thread);");

    double t0 = now_ms();
    pthread_t tids[64];
    for (int t = 0; t < threads; t++) {
        if (pthread_create(&tids[t], NULL, worker, (void *)(long)t) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tids[t], NULL);

    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT count(*), sum(v), count(DISTINCT thread), sum(length(note)) FROM rows", -1,
                       &st, NULL);
    step_done(db, st, "totals");
    printf("rows %d sum %lld threads %d note-bytes %lld\n", sqlite3_column_int(st, 0),
           sqlite3_column_int64(st, 1), sqlite3_column_int(st, 2), sqlite3_column_int64(st, 3));
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL);
    step_done(db, st, "integrity_check");
    printf("integrity %s\n", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    double ms = now_ms() - t0;
    sqlite3_close(db);
    printf("sqlite %s threadsafe %d\n", sqlite3_libversion(), sqlite3_threadsafe());
    printf("RESULT {\"ms\": %.3f, \"threads\": %d, \"rows\": %d}\n", ms, threads, threads * rows_per_thread);
    return 0;
}
