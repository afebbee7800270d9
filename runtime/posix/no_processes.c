/* fork, vfork and the exec family. A Spindle program is one process in a sandbox that has no
 * other program to start, so each fails with ENOSYS: what Linux gives where fork does not exist
 * (no-MMU systems). Unlike EAGAIN it does not invite a retry; code that checks for -1 reports
 * the error and carries on, as portable code does when fork fails. */
#include <errno.h>
#include <unistd.h>

static int no_process(void)
{
    errno = ENOSYS;
    return -1;
}

pid_t fork(void) { return no_process(); }
pid_t vfork(void) { return no_process(); }

/* The arguments are never read: nothing would run them. */
int execve(const char *path, char *const argv[], char *const envp[])
{
    (void)path, (void)argv, (void)envp;
    return no_process();
}

int execvpe(const char *file, char *const argv[], char *const envp[]) { return execve(file, argv, envp); }
int execv(const char *path, char *const argv[]) { return execve(path, argv, NULL); }
int execvp(const char *file, char *const argv[]) { return execve(file, argv, NULL); }
int fexecve(int fd, char *const argv[], char *const envp[])
{
    (void)fd;
    return execve(NULL, argv, envp);
}
/* the list forms: argv is a list of arguments after `arg` (and, for execle, envp after NULL) */
int execl(const char *path, const char *arg, ...)
{
    (void)arg;
    return execve(path, NULL, NULL);
}

int execlp(const char *file, const char *arg, ...)
{
    (void)arg;
    return execve(file, NULL, NULL);
}

int execle(const char *path, const char *arg, ...)
{
    (void)arg;
    return execve(path, NULL, NULL);
}
