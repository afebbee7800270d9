/* Tiny check helpers shared by the native filesystem tests. */
#ifndef SPINDLE_FS_TEST_UTIL_H
#define SPINDLE_FS_TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spindle/fs.h"

static int tests_passed, tests_failed;

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (cond) {                                                                                          \
            tests_passed++;                                                                                  \
        } else {                                                                                             \
            tests_failed++;                                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
        }                                                                                                    \
    } while (0)

/* expr must return exactly -err */
#define CHECK_ERR(expr, err)                                                                                 \
    do {                                                                                                     \
        long long got_ = (long long)(expr);                                                                  \
        if (got_ == -(long long)(err)) {                                                                     \
            tests_passed++;                                                                                  \
        } else {                                                                                             \
            tests_failed++;                                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s gave %lld, wanted -%s\n", __FILE__, __LINE__, #expr, got_,       \
                    #err);                                                                                   \
        }                                                                                                    \
    } while (0)

/* expr must succeed (>= 0); yields its value */
#define CHECK_OK(expr)                                                                                       \
    ({                                                                                                       \
        long long got_ = (long long)(expr);                                                                  \
        if (got_ >= 0) {                                                                                     \
            tests_passed++;                                                                                  \
        } else {                                                                                             \
            tests_failed++;                                                                                  \
            fprintf(stderr, "FAIL %s:%d: %s gave %lld\n", __FILE__, __LINE__, #expr, got_);                  \
        }                                                                                                    \
        got_;                                                                                                \
    })

static int report(const char *what)
{
    printf("%s: %d passed, %d failed\n", what, tests_passed, tests_failed);
    return tests_failed ? 1 : 0;
}

#endif
