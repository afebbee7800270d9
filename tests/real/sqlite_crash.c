// SQLite crash trials (tests/sqlite-crash.test.js): a writer that commits transactions until it is
// killed, and a checker that reopens the database afterwards.
//
// usage: sqlite_crash write DB delete|wal MAX_COMMITS
//          prints "start M" once the database is open and M (the highest committed sequence number)
//          read, then "committed N" after each COMMIT that returned SQLITE_OK.
//        sqlite_crash check DB
//          prints the integrity_check lines, then "check max M rows R pages P" when the table holds
//          exactly the state after commit M; otherwise "bad ..." and exit 1.
//        sqlite_crash probe DB
//          prints the journal mode `PRAGMA journal_mode=WAL` gives without exclusive locking.
//
// Transaction N inserts rows(N) rows (seq N, idx 0..) whose hash and payload are functions of
// (N, idx), and deletes the rows of transaction N - WINDOW: the table holds exactly the last
// WINDOW transactions, so the file stays small while pages split, merge and come off the freelist.
// Payloads are mostly under a page, some span overflow pages; the index on h inserts at random
// places. A small page cache makes the bigger transactions spill dirty pages before COMMIT;
// auto_vacuum=FULL gives the freed pages back to the host by truncating the file.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqlite3.h"

enum { WINDOW = 300, MAX_PAYLOAD = 7000 };

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static int rows_of(long long seq) { return seq % 23 == 0 ? 40 : 1 + (int)(mix((uint64_t)seq) % 6); }

static uint64_t key(long long seq, int idx) { return mix(((uint64_t)seq << 8) | (uint64_t)idx); }

// The payload of row (seq, idx) into buf; returns its length.
static int payload(long long seq, int idx, unsigned char *buf)
{
    uint64_t r = key(seq, idx);
    int len = r % 10 == 0 ? 2000 + (int)((r >> 8) % 5000) : 1 + (int)((r >> 8) % 1200);
    uint64_t x = r;
    for (int i = 0; i < len; i++) {
        if (i % 8 == 0)
            x = mix(x);
        buf[i] = (unsigned char)(x >> (8 * (i % 8)));
    }
    return len;
}

// The errno of the last failed system call: an OPFS mount answers EBUSY to the open of a file
// that a reloaded page's sync access handle still locks (tests/opfs-sqlite-crash.test.js retries).
static void fail_with(sqlite3 *db, const char *what, const char *msg)
{
    int e = db ? sqlite3_system_errno(db) : 0;
    printf("bad %s: %s (errno %d: %s)\n", what, msg, e, e ? strerror(e) : "none");
    fflush(stdout);
    exit(1);
}

static void fail(sqlite3 *db, const char *what) { fail_with(db, what, db ? sqlite3_errmsg(db) : ""); }

static void exec_or_die(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
        fail_with(db, sql, err ? err : "");
}

static sqlite3 *open_db(const char *path)
{
    sqlite3 *db = NULL;
    // `unix`: POSIX record locks. SQLite's WASI default, unix-dotfile, leaves DB.lock behind when
    // the process is killed, and every later open is SQLITE_BUSY.
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "unix") != SQLITE_OK)
        fail(db, "open");
    return db;
}

static void pragma_expect(sqlite3 *db, const char *sql, const char *want)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
        fail(db, sql);
    if (strcmp((const char *)sqlite3_column_text(st, 0), want) != 0) {
        printf("bad %s gave %s\n", sql, sqlite3_column_text(st, 0));
        exit(1);
    }
    sqlite3_finalize(st);
}

static long long query_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
        fail(db, sql);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_mode(const char *path, const char *mode, long max_commits)
{
    sqlite3 *db = open_db(path);
    if (strcmp(mode, "wal") == 0) {
#ifdef __wasi__
        // SQLite's WASI build has no shared-memory methods (xShmMap): WAL needs the wal-index in
        // the connection's heap, which only exclusive locking allows.
        exec_or_die(db, "PRAGMA locking_mode=EXCLUSIVE");
#endif
        pragma_expect(db, "PRAGMA journal_mode=WAL", "wal");
        exec_or_die(db, "PRAGMA wal_autocheckpoint=64"); // checkpoints often, so kills land in them
    } else {
        pragma_expect(db, "PRAGMA journal_mode=DELETE", "delete");
    }
    exec_or_die(db, "PRAGMA cache_size=16");
    // (takes effect on a new database only) the file shrinks at commits and checkpoints, so
    // rollbacks and WAL replays also undo and redo ftruncate
    exec_or_die(db, "PRAGMA auto_vacuum=FULL");
    exec_or_die(db,
                "CREATE TABLE IF NOT EXISTS t(seq INTEGER NOT NULL, idx INTEGER NOT NULL, n INTEGER NOT NULL,"
                " h INTEGER NOT NULL, payload BLOB NOT NULL, PRIMARY KEY(seq, idx));"
                "CREATE INDEX IF NOT EXISTS t_h ON t(h);");
    long long seq = query_int(db, "SELECT coalesce(max(seq), 0) FROM t");
    printf("start %lld\n", seq);
    fflush(stdout);

    sqlite3_stmt *ins, *del;
    if (sqlite3_prepare_v2(db, "INSERT INTO t(seq, idx, n, h, payload) VALUES (?, ?, ?, ?, ?)", -1, &ins,
                           NULL) ||
        sqlite3_prepare_v2(db, "DELETE FROM t WHERE seq = ?", -1, &del, NULL))
        fail(db, "prepare");
    static unsigned char buf[MAX_PAYLOAD];
    double deadline = now_s() + 60; // a writer nobody kills ends by itself
    for (long n = 0; n < max_commits && now_s() < deadline; n++) {
        seq++;
        exec_or_die(db, "BEGIN");
        int rows = rows_of(seq);
        for (int idx = 0; idx < rows; idx++) {
            int len = payload(seq, idx, buf);
            sqlite3_bind_int64(ins, 1, seq);
            sqlite3_bind_int(ins, 2, idx);
            sqlite3_bind_int(ins, 3, rows);
            sqlite3_bind_int64(ins, 4, (sqlite3_int64)(key(seq, idx) >> 1));
            sqlite3_bind_blob(ins, 5, buf, len, SQLITE_STATIC);
            if (sqlite3_step(ins) != SQLITE_DONE)
                fail(db, "insert");
            sqlite3_reset(ins);
        }
        sqlite3_bind_int64(del, 1, seq - WINDOW);
        if (sqlite3_step(del) != SQLITE_DONE)
            fail(db, "delete");
        sqlite3_reset(del);
        exec_or_die(db, "COMMIT");
        printf("committed %lld\n", seq);
        fflush(stdout);
    }
    sqlite3_finalize(ins);
    sqlite3_finalize(del);
    sqlite3_close(db);
    return 0;
}

static int check_mode(const char *path)
{
    sqlite3 *db = open_db(path);
#ifdef __wasi__
    // A WAL database opens only with exclusive locking here (see write_mode): without it SQLite
    // answers SQLITE_CANTOPEN. Harmless for a rollback-journal database and a single reader.
    exec_or_die(db, "PRAGMA locking_mode=EXCLUSIVE");
#endif
    sqlite3_stmt *st;
    int ok = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
        fail(db, "integrity_check");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        printf("integrity %s\n", line);
        ok = strcmp(line, "ok") == 0;
    }
    if (rc != SQLITE_DONE)
        fail(db, "integrity_check");
    sqlite3_finalize(st);
    if (!ok) {
        printf("bad integrity\n");
        return 1;
    }

    // a writer killed before its CREATE TABLE committed leaves a database without the table
    if (query_int(db, "SELECT count(*) FROM sqlite_schema WHERE name = 't'") == 0) {
        printf("check max 0 rows 0 pages %lld\n", query_int(db, "PRAGMA page_count"));
        sqlite3_close(db);
        return 0;
    }
    long long max = query_int(db, "SELECT coalesce(max(seq), 0) FROM t");
    long long first = max - WINDOW + 1 > 1 ? max - WINDOW + 1 : 1;
    if (sqlite3_prepare_v2(db, "SELECT seq, idx, n, h, payload FROM t ORDER BY seq, idx", -1, &st, NULL))
        fail(db, "select");
    static unsigned char want[MAX_PAYLOAD];
    long long seq = first, rows = 0;
    int idx = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long s = sqlite3_column_int64(st, 0);
        int i = sqlite3_column_int(st, 1);
        if (s != seq || i != idx) {
            printf("bad row (%lld, %d) where (%lld, %d) was expected; max %lld\n", s, i, seq, idx, max);
            return 1;
        }
        int len = payload(s, i, want);
        if (sqlite3_column_int(st, 2) != rows_of(s) ||
            sqlite3_column_int64(st, 3) != (sqlite3_int64)(key(s, i) >> 1) ||
            sqlite3_column_bytes(st, 4) != len || memcmp(sqlite3_column_blob(st, 4), want, len) != 0) {
            printf("bad contents of row (%lld, %d)\n", s, i);
            return 1;
        }
        rows++;
        if (++idx == rows_of(seq)) {
            seq++;
            idx = 0;
        }
    }
    if (rc != SQLITE_DONE)
        fail(db, "select");
    sqlite3_finalize(st);
    if (max > 0 && (seq != max + 1 || idx != 0)) {
        printf("bad end: the rows stop at (%lld, %d), max %lld\n", seq, idx, max);
        return 1;
    }
    printf("check max %lld rows %lld pages %lld\n", max, rows, query_int(db, "PRAGMA page_count"));
    sqlite3_close(db);
    return 0;
}

static int probe_mode(const char *path)
{
    sqlite3 *db = open_db(path);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW)
        fail(db, "journal_mode");
    printf("journal_mode=WAL gives %s\n", sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "write") == 0 &&
        (strcmp(argv[3], "delete") == 0 || strcmp(argv[3], "wal") == 0))
        return write_mode(argv[2], argv[3], atol(argv[4]));
    if (argc == 3 && strcmp(argv[1], "check") == 0)
        return check_mode(argv[2]);
    if (argc == 3 && strcmp(argv[1], "probe") == 0)
        return probe_mode(argv[2]);
    fprintf(stderr, "usage: %s write DB delete|wal MAX_COMMITS | check DB | probe DB\n", argv[0]);
    return 2;
}
