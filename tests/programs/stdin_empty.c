// With no input given, stdin is at end of file at once (it must not block).
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    char buffer[16];
    ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
    int c = getchar();
    printf("read returned %zd, getchar is EOF: %d\n", n, c == EOF);
    return n == 0 && c == EOF ? 0 : 1;
}
