/* (b) Small-file metadata: ROUNDS x (create FILES small files, stat each, rename each,
 * list the directory, unlink each). argv[1]: "main" or "thread". */
#include <dirent.h>

#include "bench_common.h"

#define ROUNDS 20
#define FILES 100

struct result {
    double seconds;
    long long ops;
    long long errors;
};

static void body(void *p)
{
    struct result *r = p;
    char a[64], b[64];
    double start = now_seconds();
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < FILES; i++) {
            snprintf(a, sizeof a, "f-%d-%d", round, i);
            int fd = open(a, O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd < 0 || write(fd, "0123456789", 10) != 10)
                r->errors++;
            close(fd);
        }
        for (int i = 0; i < FILES; i++) {
            struct stat st;
            snprintf(a, sizeof a, "f-%d-%d", round, i);
            if (stat(a, &st) != 0 || st.st_size != 10)
                r->errors++;
        }
        for (int i = 0; i < FILES; i++) {
            snprintf(a, sizeof a, "f-%d-%d", round, i);
            snprintf(b, sizeof b, "renamed-%d-%d", round, i);
            if (rename(a, b) != 0)
                r->errors++;
        }
        DIR *dir = opendir(".");
        int seen = 0;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL)
            seen += strncmp(e->d_name, "renamed-", 8) == 0;
        closedir(dir);
        if (seen != FILES)
            r->errors++;
        for (int i = 0; i < FILES; i++) {
            snprintf(b, sizeof b, "renamed-%d-%d", round, i);
            if (unlink(b) != 0)
                r->errors++;
        }
        r->ops += 4 * FILES + 1; /* create+write+close counted as one */
    }
    r->seconds = now_seconds() - start;
}

int main(int argc, char **argv)
{
    enter_bench_dir("meta");
    struct result r = {0, 0, 0};
    const char *where = run_where(argc, argv, body, &r);
    printf("RESULT {\"bench\":\"metadata\",\"where\":\"%s\",\"seconds\":%.6f,\"ops\":%lld,"
           "\"ops_per_s\":%.0f,\"errors\":%lld,\"memory_grows\":%lld}\n",
           where, r.seconds, r.ops, (double)r.ops / r.seconds, r.errors, memory_grows());
    return r.errors != 0;
}
