/* The C side of tests/files-api.test.js and the preload tests: what the program's threads see
 * of files the host put there, and files its threads write for the host to read. */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK 65536

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int wait_for(const char *path)
{
    for (int i = 0; i < 20000 && !exists(path); i++)
        usleep(1000);
    return exists(path);
}

/* size and FNV-1a of each file: "PATH size=N fnv=HEX" */
static int sum(int argc, char **argv)
{
    static unsigned char buf[BLOCK];
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            printf("%s missing\n", argv[i]);
            continue;
        }
        uint32_t h = 2166136261u;
        long long size = 0;
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
            for (size_t j = 0; j < n; j++)
                h = (h ^ buf[j]) * 16777619u;
            size += (long long)n;
        }
        fclose(f);
        printf("%s size=%lld fnv=%08x\n", argv[i], size, h);
    }
    return 0;
}

/* the names in a directory, sorted, one line */
static int list(const char *path)
{
    struct dirent **names;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        perror(path);
        return 1;
    }
    printf("%s:", path);
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
            printf(" %s", names[i]->d_name);
        free(names[i]);
    }
    printf("\n");
    free(names);
    return 0;
}

static void *write_from_thread(void *unused)
{
    (void)unused;
    FILE *f = fopen("/tmp/from-c.txt", "w");
    fputs("written by a pthread\n", f);
    fclose(f);
    return NULL;
}

/* A pthread writes a file for the host; main waits for the host's answer, prints it, and leaves
 * a file behind for the host to read after exit. */
static int dance(void)
{
    pthread_t t;
    pthread_create(&t, NULL, write_from_thread, NULL);
    pthread_join(t, NULL);
    if (!wait_for("/tmp/answer.txt")) {
        puts("no answer");
        return 1;
    }
    char text[100] = {0};
    FILE *f = fopen("/tmp/answer.txt", "r");
    fread(text, 1, sizeof text - 1, f);
    fclose(f);
    printf("answer: %s\n", text);
    f = fopen("/tmp/after-exit.txt", "w");
    fputs("left at exit", f);
    fclose(f);
    return 0;
}

/* Threads rewrite whole files with one pwrite each (every byte the same value), and read the
 * host's files, until the host writes /tmp/stop. A read must never see a mix of two writes. */
#define WRITERS 3
static int torn;

static int uniform(const unsigned char *buf, ssize_t n)
{
    for (ssize_t i = 1; i < n; i++)
        if (buf[i] != buf[0])
            return 0;
    return 1;
}

static void *churn(void *arg)
{
    int id = (int)(intptr_t)arg;
    static unsigned char bufs[WRITERS][2][BLOCK];
    unsigned char *out = bufs[id][0], *in = bufs[id][1];
    char mine[64], theirs[64];
    snprintf(mine, sizeof mine, "/tmp/churn/c%d", id);
    snprintf(theirs, sizeof theirs, "/tmp/churn/js%d", id);
    int fd = open(mine, O_RDWR | O_CREAT, 0644);
    for (int k = 1; !exists("/tmp/stop"); k++) {
        memset(out, k & 0xff, BLOCK);
        pwrite(fd, out, BLOCK, 0);
        int rfd = open(theirs, O_RDONLY);
        if (rfd >= 0) {
            ssize_t n = read(rfd, in, BLOCK);
            if (n != 0 && (n != BLOCK || !uniform(in, n)))
                __atomic_add_fetch(&torn, 1, __ATOMIC_RELAXED);
            close(rfd);
        }
    }
    close(fd);
    return NULL;
}

static int churn_all(void)
{
    mkdir("/tmp/churn", 0755);
    pthread_t t[WRITERS];
    for (int i = 0; i < WRITERS; i++)
        pthread_create(&t[i], NULL, churn, (void *)(intptr_t)i);
    for (int i = 0; i < WRITERS; i++)
        pthread_join(t[i], NULL);
    printf("torn=%d\n", torn);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "sum"))
        return sum(argc, argv);
    if (!strcmp(mode, "list"))
        return list(argv[2]);
    if (!strcmp(mode, "dance"))
        return dance();
    if (!strcmp(mode, "churn"))
        return churn_all();
    fprintf(stderr, "usage: files_probe sum|list|dance|churn ...\n");
    return 2;
}
