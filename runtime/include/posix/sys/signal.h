/* <sys/signal.h> is <signal.h>, with the layer's emulated signals turned on (signal.h here). */
#include <signal.h>
