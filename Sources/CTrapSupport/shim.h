#ifndef DEBUGSH_CTRAPSUPPORT_H
#define DEBUGSH_CTRAPSUPPORT_H

#include <sys/types.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <signal.h>
#include <unistd.h>

/// glibc's fork without the atfork handlers (glibc 2.34+), which may take locks a trap left
/// held: unlike fork, async-signal-safe. Its header declares it only under _GNU_SOURCE.
extern pid_t _Fork(void);

/// Asks the kernel to send SIGKILL to this process when the thread that started it ends: a
/// `debugsh test` child dies with its runner, even a SIGKILLed one. prctl is variadic in C,
/// which Swift cannot call.
static inline int debugsh_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }

/// The calling thread's id (gettid, a system call: async-signal-safe). syscall is variadic in C,
/// which Swift cannot call.
static inline pid_t debugsh_thread_id(void) { return (pid_t)syscall(SYS_gettid); }

/// The signal that parks the session's thread while a plugin's thread's trap is rescued
/// (TrapThreads): a real-time one, which nothing else sends. SIGRTMIN is a function in glibc,
/// which Swift does not import as a macro.
static inline int debugsh_park_signal(void) { return SIGRTMIN + 3; }

#endif
