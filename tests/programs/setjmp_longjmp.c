// setjmp/longjmp: a longjmp out of nested calls; error handling the way Lua and libpng use it
// (a protected call that sets a jump buffer, errors raised deep inside, protected calls nested
// in protected calls, the outer handler still in force after an inner one returns); locals
// declared volatile keep their values; and threads doing all of this at once, each on its own
// buffers.
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static jmp_buf simple;

static int nested(int depth)
{
    if (depth == 0)
        longjmp(simple, 0); // 0 arrives as 1
    return nested(depth - 1) + 1;
}

// A protected-call frame, as in Lua's luaD_rawrunprotected: handlers form a stack.
struct handler {
    jmp_buf buf;
    struct handler *previous;
    int status;
};

struct state {
    struct handler *current;
    char message[64];
    int cleanups;
};

static _Noreturn void raise_error(struct state *s, int status, const char *message)
{
    snprintf(s->message, sizeof s->message, "%s", message);
    s->current->status = status;
    longjmp(s->current->buf, 1);
}

static int protected_call(struct state *s, void (*fn)(struct state *, int), int arg)
{
    struct handler h = {.previous = s->current, .status = 0};
    s->current = &h;
    if (setjmp(h.buf) == 0)
        fn(s, arg);
    s->current = h.previous;
    return h.status;
}

static void parse(struct state *s, int depth)
{
    char scratch[32]; // stack frames being jumped over
    memset(scratch, depth, sizeof scratch);
    if (depth == 0)
        raise_error(s, 2, "syntax error near 'end'");
    parse(s, depth - 1);
}

static void inner_then_outer(struct state *s, int depth)
{
    int inner = protected_call(s, parse, depth); // handled here, then go on
    s->cleanups += inner == 2;
    raise_error(s, 3, "outer error after inner one"); // reaches the outer handler
}

static int run_all(int rounds)
{
    int ok = 1;
    for (int r = 0; r < rounds; r++) {
        volatile int counter = 0;
        int v = setjmp(simple);
        counter++;
        if (v == 0)
            nested(10);
        ok &= v == 1 && counter == 2;

        struct state s = {0};
        ok &= protected_call(&s, parse, 20) == 2 && strcmp(s.message, "syntax error near 'end'") == 0;
        ok &= protected_call(&s, inner_then_outer, 5) == 3 && s.cleanups == 1;
        ok &= strcmp(s.message, "outer error after inner one") == 0 && s.current == NULL;
    }
    return ok;
}

static void *thread_main(void *arg)
{
    (void)arg;
    // each thread gets its own jmp_buf for the `simple` case
    int ok = 1;
    for (int r = 0; r < 2000; r++) {
        jmp_buf mine;
        volatile int depth = r % 7;
        int v = setjmp(mine);
        if (v == 0) {
            if (depth > 0)
                longjmp(mine, depth);
            ok &= depth == 0;
        } else {
            ok &= v == depth;
        }
        struct state s = {0};
        ok &= protected_call(&s, parse, r % 13) == 2;
        ok &= protected_call(&s, inner_then_outer, r % 5) == 3 && s.cleanups == 1;
    }
    return (void *)(long)ok;
}

int main(void)
{
    int value = setjmp(simple);
    if (value == 0) {
        printf("setjmp returned 0, jumping from 10 calls down\n");
        nested(10);
        printf("not reached\n");
        return 1;
    }
    printf("back with %d\n", value);

    struct state s = {0};
    int status = protected_call(&s, parse, 50);
    printf("protected call: status %d, '%s'\n", status, s.message);
    status = protected_call(&s, inner_then_outer, 8);
    printf("nested protected calls: status %d, '%s', inner handled %d\n", status, s.message, s.cleanups);

    printf("1000 rounds on the main thread: %s\n", run_all(1000) ? "ok" : "FAILED");

    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, thread_main, NULL);
    int all = 1;
    for (int i = 0; i < 4; i++) {
        void *ok;
        pthread_join(threads[i], &ok);
        all &= ok != NULL;
    }
    printf("4 threads, 2000 rounds each: %s\n", all ? "ok" : "FAILED");
    return all ? 0 : 1;
}
