/* Fresh-file creation: argv[2] new files (default 200) in one empty directory, each created and
 * filled by one write() of argv[1] KiB (4 .. 1048576), all kept until the last is written, so
 * the whole set is live at once (64 x 1 MiB: a 64 MiB working set). The time is the creation and
 * the first writes, the pattern of a program that unpacks or generates its files; checking the
 * files' sizes and unlinking them afterwards is not timed. Reports the files' MB per second. */
#include "bench_common.h"

#define MAX_FILES 100000

int main(int argc, char **argv)
{
    long kib = argc > 1 ? strtol(argv[1], NULL, 10) : 64;
    long files = argc > 2 ? strtol(argv[2], NULL, 10) : 200;
    if (kib < 4 || kib > 1048576 || files < 1 || files > MAX_FILES) {
        fprintf(stderr, "usage: new_files KIB(4..1048576) [FILES(1..%d)]\n", MAX_FILES);
        return 2;
    }
    const size_t bytes = (size_t)kib << 10;
    unsigned char *data = malloc(bytes);
    if (data == NULL)
        die("malloc file data");
    for (size_t i = 0; i < bytes; i++)
        data[i] = (unsigned char)(i * 31 + 7);
    enter_bench_dir("new_files");

    char name[32];
    double start = now_seconds();
    for (long f = 0; f < files; f++) {
        snprintf(name, sizeof name, "new-%ld", f);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0)
            die("create new file");
        if (write(fd, data, bytes) != (ssize_t)bytes)
            die("first write of new file");
        close(fd);
    }
    double seconds = now_seconds() - start;

    long long wrong_sizes = 0;
    for (long f = 0; f < files; f++) {
        struct stat st;
        snprintf(name, sizeof name, "new-%ld", f);
        if (stat(name, &st) != 0)
            die("stat new file");
        wrong_sizes += st.st_size != (off_t)bytes;
        if (unlink(name) != 0)
            die("unlink new file");
    }
    free(data);
    const double live_mb = (double)files * (double)bytes / 1e6;
    printf("RESULT {\"bench\":\"new_files\",\"kib\":%ld,\"files\":%ld,\"seconds\":%.6f,\"live_mb\":%.1f,"
           "\"mb_per_s\":%.2f,\"mismatches\":%lld,\"memory_grows\":%lld}\n",
           kib, files, seconds, live_mb, live_mb / seconds, wrong_sizes, memory_grows());
    return wrong_sizes != 0;
}
