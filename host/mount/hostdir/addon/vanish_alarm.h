// A thread's worker that goes away while its program runs ends the process (host/program/own-end.js).
#ifndef SPINDLE_VANISH_ALARM_H
#define SPINDLE_VANISH_ALARM_H

#include <node_api.h>

// exitIfVanished(fate, at, running, stderrFd, line): see vanish_alarm.c
napi_value js_exit_if_vanished(napi_env env, napi_callback_info info);

#endif
