// Set once std::terminate has begun (terminate_start.c), so that the abort it ends in exits
// quietly with status 134 (abort_after_terminate.c).
#ifndef SPINDLE_TERMINATING_H
#define SPINDLE_TERMINATING_H
#include <stdatomic.h>

extern atomic_bool spindle_terminating;

#endif
