// The file system's stamp clock kept in the program's memory by a native thread (stamp_ticker.c).
#ifndef SPINDLE_STAMP_TICKER_H
#define SPINDLE_STAMP_TICKER_H

#include <node_api.h>

// stampTicker(cell, at, baseNs): see stamp_ticker.c
napi_value js_stamp_ticker(napi_env env, napi_callback_info info);

#endif
