/* Regular files: open flags, read/write/seek, pread/pwrite, O_APPEND,
 * O_TRUNC, O_EXCL, holes, ftruncate, stdio. */
#include "conformance.h"

int main(void)
{
    enter_scratch_dir();
    char buf[256];
    int fd = open("a.txt", O_RDWR | O_CREAT | O_EXCL, 0644);
    SHOW("create a.txt", fd);
    SHOW_VALUE("write", write(fd, "hello world", 11));
    SHOW_VALUE("lseek cur", lseek(fd, 0, SEEK_CUR));
    SHOW_VALUE("lseek set 6", lseek(fd, 6, SEEK_SET));
    memset(buf, 0, sizeof buf);
    SHOW_VALUE("read", read(fd, buf, sizeof buf - 1));
    printf("read text: %s\n", buf);
    SHOW_VALUE("read at eof", read(fd, buf, 10));
    SHOW_VALUE("pwrite", pwrite(fd, "HELLO", 5, 0));
    SHOW_VALUE("pread", pread(fd, buf, 5, 0));
    printf("pread text: %.5s\n", buf);
    SHOW_VALUE("offset after pread", lseek(fd, 0, SEEK_CUR));
    SHOW_VALUE("lseek end -1", lseek(fd, -1, SEEK_END));
    SHOW_VALUE("lseek negative", lseek(fd, -100, SEEK_SET));
    SHOW_VALUE("pread negative", pread(fd, buf, 1, -1));
    /* a hole: seek past the end and write */
    SHOW_VALUE("lseek past end", lseek(fd, 4096 * 3 + 10, SEEK_SET));
    SHOW_VALUE("write after hole", write(fd, "Z", 1));
    printf("size with hole: %lld\n", size_of("a.txt"));
    SHOW_VALUE("pread in hole", pread(fd, buf, 8, 5000));
    int zeros = 1;
    for (int i = 0; i < 8; i++)
        zeros &= buf[i] == 0;
    printf("hole reads zeros: %d\n", zeros);
    SHOW("ftruncate 5", ftruncate(fd, 5));
    SHOW("ftruncate grow 20", ftruncate(fd, 20));
    SHOW_VALUE("pread after regrow", pread(fd, buf, 64, 0));
    printf("bytes 0-4: %.5s, byte 5 is zero: %d\n", buf, buf[5] == 0);
    SHOW("ftruncate negative", ftruncate(fd, -1));
    SHOW("fsync", fsync(fd));
    SHOW("fdatasync", fdatasync(fd));
    /* posix_fadvise/posix_fallocate return the error number itself */
    printf("posix_fadvise: %s\n", errno_name(posix_fadvise(fd, 0, 100, POSIX_FADV_SEQUENTIAL)));
    printf("posix_fadvise bad advice: %s\n", errno_name(posix_fadvise(fd, 0, 100, 12345)));
    SHOW("close", close(fd));
    SHOW("close again", close(fd));
    SHOW("read closed fd", read(fd, buf, 1));

    SHOW("create excl again", open("a.txt", O_WRONLY | O_CREAT | O_EXCL, 0644));
    SHOW("open missing", open("missing.txt", O_RDONLY));
    SHOW("open missing dir component", open("nodir/x", O_RDONLY));
    SHOW("open file as dir", open("a.txt/x", O_RDONLY));
    SHOW("open trailing slash on file", open("a.txt/", O_RDONLY));
    SHOW("create with trailing slash", open("new/", O_WRONLY | O_CREAT, 0644));
    SHOW("O_CREAT on existing file with trailing slash", open("a.txt/", O_WRONLY | O_CREAT, 0644));
    SHOW("O_DIRECTORY on file", open("a.txt", O_RDONLY | O_DIRECTORY));

    /* access modes */
    fd = open("a.txt", O_RDONLY);
    SHOW("write on O_RDONLY", write(fd, "x", 1));
    SHOW("ftruncate on O_RDONLY", ftruncate(fd, 0));
    printf("F_GETFL accmode is O_RDONLY: %d\n", (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
    close(fd);
    fd = open("a.txt", O_WRONLY);
    SHOW("read on O_WRONLY", read(fd, buf, 1));
    printf("F_GETFL accmode is O_WRONLY: %d\n", (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY);
    close(fd);

    /* O_TRUNC and O_APPEND */
    write_text("log", "abc");
    int a1 = open("log", O_WRONLY | O_APPEND);
    int a2 = open("log", O_RDWR | O_APPEND);
    SHOW_VALUE("append 1", write(a1, "1", 1));
    SHOW_VALUE("append 2", write(a2, "2", 1));
    lseek(a1, 0, SEEK_SET);
    SHOW_VALUE("append after seek 0", write(a1, "3", 1));
    SHOW_VALUE("pwrite on O_APPEND", pwrite(a2, "4", 1, 0));
    SHOW_VALUE("offset of a1", lseek(a1, 0, SEEK_CUR));
    printf("F_GETFL has O_APPEND: %d\n", (fcntl(a2, F_GETFL) & O_APPEND) != 0);
    SHOW("F_SETFL clear O_APPEND", fcntl(a2, F_SETFL, 0));
    SHOW_VALUE("pwrite without O_APPEND", pwrite(a2, "Z", 1, 0));
    close(a1);
    close(a2);
    printf("log: %s\n", read_text("log", buf, sizeof buf));
    fd = open("log", O_WRONLY | O_TRUNC);
    printf("size after O_TRUNC: %lld\n", size_of("log"));
    close(fd);

    /* readv / writev */
    fd = open("vec", O_RDWR | O_CREAT, 0644);
    struct iovec wv[3] = {{(void *)"one ", 4}, {(void *)"two ", 4}, {(void *)"three", 5}};
    SHOW_VALUE("writev", writev(fd, wv, 3));
    char p1[5] = {0}, p2[9] = {0};
    struct iovec rv[2] = {{p1, 4}, {p2, 8}};
    lseek(fd, 0, SEEK_SET);
    SHOW_VALUE("readv", readv(fd, rv, 2));
    printf("readv parts: [%s] [%s]\n", p1, p2);
    close(fd);

    /* stdio on top */
    FILE *f = fopen("stdio.txt", "w+");
    for (int i = 0; i < 1000; i++)
        fprintf(f, "line %d\n", i);
    printf("ftell after writing: %ld\n", ftell(f));
    rewind(f);
    int lines = 0;
    while (fgets(buf, sizeof buf, f))
        lines++;
    printf("lines read back: %d\n", lines);
    fseek(f, 7, SEEK_SET);
    printf("fgets at 7: %s", fgets(buf, sizeof buf, f));
    fclose(f);
    f = fopen("stdio.txt", "a");
    fputs("appended\n", f);
    fclose(f);
    printf("stdio.txt size: %lld\n", size_of("stdio.txt"));
    SHOW("fopen missing for reading", fopen("nope.txt", "r") ? 0 : -1);
    printf("posix_fallocate: %s\n",
           errno_name(posix_fallocate(open("fa", O_RDWR | O_CREAT, 0644), 0, 10000)));
    printf("posix_fallocate on bad fd: %s\n", errno_name(posix_fallocate(-1, 0, 10)));
    printf("size after fallocate: %lld\n", size_of("fa"));
    return 0;
}
