// One fd of a preopened directory's file used by two threads (tests/portable.test.js): main
// opens and writes, a pthread reads and writes through the same fd, main closes and reads the
// file back. On hosts with one fd table per thread the mount opens the path again for the
// pthread (runtime/portable/host_fd_per_thread.c).
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fd;

static void *use_from_thread(void *arg)
{
    char text[32] = "";
    long n = pread(fd, text, sizeof text - 1, 0);
    printf("thread read %ld: %s", n, text);
    printf("thread wrote %ld\n", (long)write(fd, "from the thread\n", 16));
    return arg;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    char path[256];
    snprintf(path, sizeof path, "%s/shared.txt", argv[1]);
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    write(fd, "from main\n", 10);
    pthread_t thread;
    pthread_create(&thread, NULL, use_from_thread, NULL);
    pthread_join(thread, NULL);
    close(fd);
    FILE *f = fopen(path, "r");
    for (char line[64]; fgets(line, sizeof line, f);)
        printf("file: %s", line);
    fclose(f);
    return 0;
}
