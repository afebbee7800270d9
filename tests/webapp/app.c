// The web app test's program (tests/webapp.test.js): four threads each write a file on the OPFS
// mount /data, main reads them back and prints them, then exits with 7 so the page's exit code
// is checked too.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { THREADS = 4 };

static void *write_file(void *arg)
{
    int id = (int)(long)arg;
    char path[32];
    snprintf(path, sizeof path, "/data/t%d.txt", id);
    FILE *f = fopen(path, "w");
    if (!f)
        return (void *)1;
    fprintf(f, "thread %d wrote this\n", id);
    return (void *)(long)(fclose(f) != 0);
}

int main(void)
{
    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, write_file, (void *)i);
    for (int i = 0; i < THREADS; i++) {
        void *failed;
        pthread_join(threads[i], &failed);
        if (failed) {
            printf("thread %d failed\n", i);
            return 1;
        }
    }
    for (int i = 0; i < THREADS; i++) {
        char path[32], line[64];
        snprintf(path, sizeof path, "/data/t%d.txt", i);
        FILE *f = fopen(path, "r");
        if (!f || !fgets(line, sizeof line, f)) {
            printf("cannot read %s\n", path);
            return 1;
        }
        fclose(f);
        fputs(line, stdout);
    }
    return 7;
}
