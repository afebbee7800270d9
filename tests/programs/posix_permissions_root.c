// posix_permissions.c linked with `spindle cc --as-root`: uid 0, and no permission is checked.
#define AS_ROOT
#include "posix_permissions.c"
