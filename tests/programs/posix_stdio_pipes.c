// stdin and stdout are pipes (tests/programs/posix_stdio.h)
#include "posix_stdio.h"
