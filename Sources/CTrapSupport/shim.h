#ifndef DEBUGSH_CTRAPSUPPORT_H
#define DEBUGSH_CTRAPSUPPORT_H

#include <sys/types.h>

/// glibc's fork without the atfork handlers (glibc 2.34+), which may take locks a trap left
/// held: unlike fork, async-signal-safe. Its header declares it only under _GNU_SOURCE.
extern pid_t _Fork(void);

#endif
