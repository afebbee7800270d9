// fstatfs of stdio reports the file system the host's fd is on, as Linux does: a pipe's pipefs
// (stdin and stderr here) and the redirected stdout file's (the test's build folder), compared
// byte for byte with the native build. Emscripten's unistd/fstatfs prints stdout's f_type.
#include <stdio.h>
#include <sys/vfs.h>

int main(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        struct statfs st;
        if (fstatfs(fd, &st) != 0) {
            perror("fstatfs");
            return 1;
        }
        printf("fd %d: f_type %#lx\n", fd, (unsigned long)st.f_type);
    }
    return 0;
}
