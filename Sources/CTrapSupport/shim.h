#ifndef DEBUGSH_CTRAPSUPPORT_H
#define DEBUGSH_CTRAPSUPPORT_H

#include <sys/types.h>
#include <sys/prctl.h>
#include <signal.h>

/// glibc's fork without the atfork handlers (glibc 2.34+), which may take locks a trap left
/// held: unlike fork, async-signal-safe. Its header declares it only under _GNU_SOURCE.
extern pid_t _Fork(void);

/// Asks the kernel to send SIGKILL to this process when the thread that started it ends: a
/// `debugsh test` child dies with its runner, even a SIGKILLed one. prctl is variadic in C,
/// which Swift cannot call.
static inline int debugsh_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }

#endif
