// fileStamps(paths): each file's mtime in ms and size, as node:fs's statSync gives them, in one
// call: for bin/spindle's check that the run bundle's ~95 inputs are unchanged
// (cli/run/run-bundle.js), which through node:fs took ~1.2 ms of a hello world's start, most of
// it node:fs's own first use.
#include "file_stamps.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>

// (a path longer than this is no file of the repository's: NaN, as for a missing one)
#define STAMP_PATH_MAX 4096

// A Float64Array of 2 * paths.length: [mtimeMs, size] per path, NaN for both where the path is
// not a string or stat fails. mtimeMs is computed as node:fs computes it (seconds * 1e3 plus
// nanoseconds / 1e6, in doubles), so equal stamps compare equal.
napi_value js_file_stamps(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value argv[1];
    bool is_array = false;
    uint32_t count = 0;
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
        napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array ||
        napi_get_array_length(env, argv[0], &count) != napi_ok || count > (1u << 20)) {
        napi_throw_type_error(env, NULL, "fileStamps(paths)");
        return NULL;
    }
    void *data = NULL;
    napi_value buffer, result;
    if (napi_create_arraybuffer(env, (size_t)count * 2 * sizeof(double), &data, &buffer) != napi_ok ||
        napi_create_typedarray(env, napi_float64_array, (size_t)count * 2, buffer, 0, &result) != napi_ok)
        return NULL;
    double *out = data;
    char path[STAMP_PATH_MAX];
    for (uint32_t i = 0; i < count; i++) {
        napi_value item;
        size_t length = 0;
        struct stat st;
        out[2 * i] = out[2 * i + 1] = NAN;
        if (napi_get_element(env, argv[0], i, &item) != napi_ok ||
            napi_get_value_string_utf8(env, item, path, sizeof path, &length) != napi_ok ||
            length + 1 >= sizeof path || strlen(path) != length || stat(path, &st) != 0)
            continue;
        out[2 * i] = (double)st.st_mtim.tv_sec * 1e3 + (double)st.st_mtim.tv_nsec / 1e6;
        out[2 * i + 1] = (double)st.st_size;
    }
    return result;
}
