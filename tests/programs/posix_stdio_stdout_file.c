// stdout is a regular file (tests/programs/posix_stdio.h)
#include "posix_stdio.h"
