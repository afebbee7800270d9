// stdin from /dev/null and stderr to it (tests/programs/posix_stdio.h): a character device,
// named /dev/null, whose lseek answers 0 as on Linux
#include "posix_stdio.h"
