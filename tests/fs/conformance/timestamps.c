/* Timestamps: utimensat/futimens with explicit times, UTIME_NOW and
 * UTIME_OMIT; which calls move mtime and ctime (Linux rules). Times are
 * compared, never printed, except the ones the program set itself. */
#include <time.h>

#include "conformance.h"

static struct stat st_of(const char *path)
{
    struct stat st;
    memset(&st, 0, sizeof st);
    lstat(path, &st);
    return st;
}

#define OLD_ATIME 1000000000
#define OLD_MTIME 1000000500

static struct timespec ctime_before;

/* Sets old atime/mtime, remembers the ctime that gave, then waits long
 * enough for the kernel's coarse clock to tick (so a ctime change shows). */
static void make_old(const char *path)
{
    struct timespec t[2] = {{OLD_ATIME, 111}, {OLD_MTIME, 222}};
    utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW);
    ctime_before = st_of(path).st_ctim;
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

static void show_moved(const char *label, const char *path)
{
    struct stat st = st_of(path);
    int ctime_moved = st.st_ctim.tv_sec != ctime_before.tv_sec || st.st_ctim.tv_nsec != ctime_before.tv_nsec;
    printf("%s: atime %s, mtime %s, ctime %s\n", label, st.st_atim.tv_sec == OLD_ATIME ? "kept" : "moved",
           st.st_mtim.tv_sec == OLD_MTIME ? "kept" : "moved", ctime_moved ? "moved" : "kept");
}

int main(void)
{
    enter_scratch_dir();
    write_text("f", "abc");
    make_old("f");
    struct stat st = st_of("f");
    printf("explicit: atime %lld.%09ld mtime %lld.%09ld\n", (long long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
           (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    struct timespec omit_now[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    SHOW("utimensat OMIT/NOW", utimensat(AT_FDCWD, "f", omit_now, 0));
    show_moved("after OMIT/NOW", "f");
    struct timespec bad[2] = {{0, 1000000000}, {0, 0}};
    SHOW("utimensat bad nsec", utimensat(AT_FDCWD, "f", bad, 0));
    SHOW("utimensat missing", utimensat(AT_FDCWD, "missing", NULL, 0));

    make_old("f");
    int fd = open("f", O_WRONLY | O_APPEND);
    write(fd, "d", 1);
    show_moved("after write", "f");
    make_old("f");
    write(fd, "", 0);
    show_moved("after empty write", "f");
    make_old("f");
    ftruncate(fd, 2);
    show_moved("after ftruncate", "f");
    make_old("f");
    SHOW("futimens NULL", futimens(fd, NULL));
    st = st_of("f");
    printf("futimens NULL sets both to now: %d\n",
           st.st_atim.tv_sec > OLD_MTIME && st.st_mtim.tv_sec > OLD_MTIME);
    struct timespec both_omit[2] = {{0, UTIME_OMIT}, {0, UTIME_OMIT}};
    make_old("f");
    SHOW("futimens both OMIT", futimens(fd, both_omit));
    show_moved("after both OMIT", "f");
    close(fd);

    make_old("f");
    SHOW("link", link("f", "f2"));
    show_moved("file after link", "f");
    make_old("f");
    rename("f2", "f3");
    show_moved("file after rename of its link", "f");
    make_old("f");
    unlink("f3");
    show_moved("file after unlink of its link", "f");
    make_old("f");
    fd = open("f", O_RDONLY);
    close(fd);
    show_moved("after open+close", "f");
    make_old("f");
    fd = open("f", O_WRONLY | O_TRUNC);
    close(fd);
    show_moved("after O_TRUNC", "f");

    /* directories */
    mkdir("d", 0755);
    make_old("d");
    close(open("d/new", O_WRONLY | O_CREAT, 0644));
    show_moved("dir after create", "d");
    make_old("d");
    write_text("d/new", "x");
    show_moved("dir after writing a child", "d");
    make_old("d");
    unlink("d/new");
    show_moved("dir after unlink", "d");
    make_old("d");
    mkdir("d/sub", 0755);
    show_moved("dir after mkdir", "d");

    /* symlink's own times with AT_SYMLINK_NOFOLLOW */
    symlink("f", "sl");
    make_old("sl");
    st = st_of("sl");
    printf("symlink own mtime set: %d\n", st.st_mtim.tv_sec == OLD_MTIME);
    st = st_of("f");
    struct stat through;
    stat("sl", &through);
    printf("stat through symlink is the file: %d\n", through.st_ino == st.st_ino);
    return 0;
}
