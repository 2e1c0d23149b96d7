#ifndef DEBUGSH_CDEBUGSHELLHINTS_H
#define DEBUGSH_CDEBUGSHELLHINTS_H

/// Asks the CPU to bring the cache line at `address` in, for writing, without waiting for it:
/// `MemoryHint.prefetch` in DebugShellCore, which Swift lacks. A hint only: it reads nothing,
/// changes nothing and cannot fault, whatever the address.
static inline void debugsh_hint_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
