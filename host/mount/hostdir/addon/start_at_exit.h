// A command started when the process ends (start_at_exit.c).
#ifndef SPINDLE_START_AT_EXIT_H
#define SPINDLE_START_AT_EXIT_H

#include <node_api.h>

// startAtExit(file, args): see start_at_exit.c
napi_value js_start_at_exit(napi_env env, napi_callback_info info);

// Starts the command startAtExit set, once; a no-op where none is set. Safe from any thread.
void start_at_exit_now(void);

#endif
