/* popen/pclose without a shell. Like system() (process_env.c), a command meets a shell that
 * could not run it: reading gives end-of-file at once, what is written goes nowhere, and pclose
 * reports exit status 127. Code that checks popen's stream and pclose's status sees a command
 * that failed, which portable code handles. The stream has no fd (fileno gives -1). */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* the open popen streams, so that pclose knows its own */
struct command_stream {
    FILE *file;
    struct command_stream *next;
};
static struct command_stream *open_streams;
static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;

static ssize_t read_nothing(void *cookie, char *buf, size_t size)
{
    (void)cookie, (void)buf, (void)size;
    return 0;
}

static ssize_t write_nowhere(void *cookie, const char *buf, size_t size)
{
    (void)cookie, (void)buf;
    return (ssize_t)size;
}

/* glibc's rule: exactly one of 'r' and 'w', and 'e' (close-on-exec) any number of times */
static const char *checked_mode(const char *mode)
{
    int reading = 0, writing = 0;
    for (const char *c = mode; *c != '\0'; c++) {
        if (*c == 'r')
            reading = 1;
        else if (*c == 'w')
            writing = 1;
        else if (*c != 'e')
            return NULL;
    }
    return reading == writing ? NULL : reading ? "r" : "w";
}

FILE *popen(const char *command, const char *mode)
{
    (void)command;
    const char *direction = checked_mode(mode);
    struct command_stream *entry = malloc(sizeof *entry);
    if (direction == NULL || entry == NULL) {
        free(entry);
        errno = direction == NULL ? EINVAL : ENOMEM;
        return NULL;
    }
    cookie_io_functions_t io = {.read = read_nothing, .write = write_nowhere};
    entry->file = fopencookie(NULL, direction, io);
    if (entry->file == NULL) {
        free(entry);
        return NULL;
    }
    pthread_mutex_lock(&streams_lock);
    entry->next = open_streams;
    open_streams = entry;
    pthread_mutex_unlock(&streams_lock);
    return entry->file;
}

/* true if `file` came from popen; it is then forgotten */
static int forget_stream(FILE *file)
{
    pthread_mutex_lock(&streams_lock);
    struct command_stream **link = &open_streams;
    while (*link != NULL && (*link)->file != file)
        link = &(*link)->next;
    struct command_stream *found = *link;
    if (found != NULL)
        *link = found->next;
    pthread_mutex_unlock(&streams_lock);
    free(found);
    return found != NULL;
}

int pclose(FILE *file)
{
    int ours = forget_stream(file);
    fclose(file);
    if (!ours) { /* no child to wait for */
        errno = ECHILD;
        return -1;
    }
    return 127 << 8; /* exited with 127: the shell could not run the command */
}
