// Files' mtimes and sizes in one call (file_stamps.c).
#ifndef SPINDLE_FILE_STAMPS_H
#define SPINDLE_FILE_STAMPS_H

#include <node_api.h>

// fileStamps(paths): see file_stamps.c
napi_value js_file_stamps(napi_env env, napi_callback_info info);

#endif
