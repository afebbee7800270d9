/* The cost of one cheap file call (lseek(fd, 0, SEEK_CUR): no data, no path), 100,000 times,
 * from the C main thread or from one pthread (argv[1]). With the JS FS from a pthread this is
 * the proxy's round trip to the host's main thread. */
#include "bench_common.h"

#define CALLS 100000

struct result {
    double seconds;
    long long errors;
};

static void body(void *p)
{
    struct result *r = p;
    int fd = open("probe", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        die("open probe");
    double start = now_seconds();
    for (int i = 0; i < CALLS; i++)
        r->errors += lseek(fd, 0, SEEK_CUR) != 0;
    r->seconds = now_seconds() - start;
    close(fd);
    unlink("probe");
}

int main(int argc, char **argv)
{
    enter_bench_dir("calls");
    struct result r = {0, 0};
    const char *where = run_where(argc, argv, body, &r);
    printf("RESULT {\"bench\":\"call_cost\",\"where\":\"%s\",\"seconds\":%.6f,\"ops\":%d,"
           "\"ops_per_s\":%.0f,\"ns_per_call\":%.0f,\"errors\":%lld,\"memory_grows\":%lld}\n",
           where, r.seconds, CALLS, CALLS / r.seconds, r.seconds / CALLS * 1e9, r.errors, memory_grows());
    return r.errors != 0;
}
