// A catalogue in SQLite that several threads (web workers, in a browser) query at once. The
// first run creates and fills the database; every run records a visit, so a second run on the
// same storage (an OPFS directory, a host directory) shows that the database persisted.
//
// usage: catalog DB_PATH QUERY_THREADS
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

// SQLite's POSIX-locking VFS (fcntl record locks, docs/PORTING.md); its WASI build would pick
// unix-dotfile, where every lock is exclusive.
#define VFS "unix"
#define ITEMS 5000

static const char *db_path;

static sqlite3 *open_db(void)
{
    sqlite3 *db;
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, VFS) != SQLITE_OK) {
        fprintf(stderr, "open %s: %s\n", db_path, sqlite3_errmsg(db));
        exit(1);
    }
    sqlite3_busy_timeout(db, 10000);
    return db;
}

static void exec_or_die(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "%s\n  -> %s\n", sql, err);
        exit(1);
    }
}

// Each query thread runs one of these on its own connection.
static const char *queries[] = {
    "SELECT 'items', count(*) FROM items",
    "SELECT 'cheapest in shelf 3', min(price) FROM items WHERE shelf = 3",
    "SELECT 'average price', printf('%.2f', avg(price)) FROM items",
    "SELECT 'shelves over 100', count(*) FROM (SELECT shelf FROM items GROUP BY shelf HAVING sum(price) > "
    "100)",
};
enum { QUERIES = sizeof queries / sizeof queries[0] };

struct job {
    int index;
    char answer[128];
};

static void *query_thread(void *arg)
{
    struct job *job = arg;
    sqlite3 *db = open_db();
    sqlite3_stmt *st;
    const char *sql = queries[job->index % QUERIES];
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
        snprintf(job->answer, sizeof job->answer, "query failed: %s", sqlite3_errmsg(db));
    } else {
        snprintf(job->answer, sizeof job->answer, "%s = %s", sqlite3_column_text(st, 0),
                 sqlite3_column_text(st, 1));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return NULL;
}

static void fill(sqlite3 *db)
{
    exec_or_die(db, "BEGIN IMMEDIATE");
    exec_or_die(db, "CREATE TABLE IF NOT EXISTS visits(at INTEGER)");
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'items'", -1, &st, NULL);
    sqlite3_step(st);
    int exists = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (!exists) {
        exec_or_die(db, "CREATE TABLE items(id INTEGER PRIMARY KEY, shelf INTEGER, price REAL, name TEXT)");
        sqlite3_prepare_v2(db, "INSERT INTO items(shelf, price, name) VALUES (?, ?, ?)", -1, &st, NULL);
        char name[32];
        for (int i = 0; i < ITEMS; i++) {
            snprintf(name, sizeof name, "item %d", i);
            sqlite3_bind_int(st, 1, i % 50);
            sqlite3_bind_double(st, 2, (i * 37 % 1000) / 10.0);
            sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
            sqlite3_step(st);
            sqlite3_reset(st);
        }
        sqlite3_finalize(st);
        printf("created %s with %d items\n", db_path, ITEMS);
    }
    exec_or_die(db, "INSERT INTO visits VALUES (unixepoch())");
    exec_or_die(db, "COMMIT");
}

int main(int argc, char **argv)
{
    if (argc != 3 || atoi(argv[2]) < 1 || atoi(argv[2]) > 16) {
        fprintf(stderr, "usage: %s DB_PATH QUERY_THREADS(1-16)\n", argv[0]);
        return 2;
    }
    db_path = argv[1];
    int threads = atoi(argv[2]);
    if (!sqlite3_threadsafe()) {
        fprintf(stderr, "SQLite was built with SQLITE_THREADSAFE=0; build it with -DSQLITE_THREADSAFE=1\n");
        return 1;
    }
    sqlite3 *db = open_db();
    fill(db);

    pthread_t tids[16];
    struct job jobs[16];
    for (int i = 0; i < threads; i++) {
        jobs[i].index = i;
        if (pthread_create(&tids[i], NULL, query_thread, &jobs[i]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int i = 0; i < threads; i++)
        pthread_join(tids[i], NULL);
    for (int i = 0; i < threads; i++)
        printf("thread %d: %s\n", i, jobs[i].answer);

    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM visits", -1, &st, NULL);
    sqlite3_step(st);
    printf("visits so far: %d\n", sqlite3_column_int(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}
