// A threaded program for the portable build (tests/portable.test.js): worker threads sum in
// parallel, pass a message through a pipe, one ends with pthread_exit, and files in the host's
// preopened directory (argv[1], e.g. /data) are written, read back and listed.
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 3 // with the pipe writer, 4 threads: the npm host's pool needs no new worker while main waits

static int pipe_fds[2];

static void *sum_part(void *arg)
{
    long part = (long)arg, sum = 0;
    for (long i = part * 1000; i < (part + 1) * 1000; i++)
        sum += i;
#ifndef WITHOUT_PTHREAD_EXIT // for hosts without Wasm exception handling (docs/PORTABLE.md)
    if (part == THREADS - 1)
        pthread_exit((void *)sum); // ends the thread from inside, as natively
#endif
    return (void *)sum;
}

static void *pipe_writer(void *arg)
{
    (void)arg;
    const char *text = "through the pipe";
    write(pipe_fds[1], text, strlen(text) + 1);
    return NULL;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void files(const char *dir)
{
    char path[256];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/file%d.txt", dir, i);
        FILE *f = fopen(path, "w");
        if (!f) {
            perror(path);
            exit(1);
        }
        fprintf(f, "line %d of %s\n", i, "the file");
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/file1.txt", dir);
    char line[64] = "";
    FILE *f = fopen(path, "r");
    fgets(line, sizeof line, f);
    fclose(f);
    printf("read back: %s", line);
    char *names[16];
    int count = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; (e = readdir(d)) && count < 16;)
        if (strncmp(e->d_name, "file", 4) == 0)
            names[count++] = strdup(e->d_name);
    closedir(d);
    qsort(names, count, sizeof *names, compare_names);
    for (int i = 0; i < count; i++)
        printf("listed: %s\n", names[i]);
    snprintf(path, sizeof path, "%s/file2.txt", dir);
    printf("unlink: %d\n", unlink(path));
}

int main(int argc, char **argv)
{
    pthread_t threads[THREADS];
    long total = 0;
    for (long i = 0; i < THREADS; i++)
        pthread_create(&threads[i], NULL, sum_part, (void *)i);
    for (int i = 0; i < THREADS; i++) {
        void *part;
        pthread_join(threads[i], &part);
        total += (long)part;
    }
    printf("sum: %ld\n", total);
    pipe(pipe_fds);
    pthread_t writer;
    pthread_create(&writer, NULL, pipe_writer, NULL);
    char text[32] = "";
    read(pipe_fds[0], text, sizeof text);
    pthread_join(writer, NULL);
    printf("pipe: %s\n", text);
    if (argc > 1)
        files(argv[1]);
    return 0;
}
