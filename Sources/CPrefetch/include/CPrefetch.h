#ifndef DEBUGSH_CPREFETCH_H
#define DEBUGSH_CPREFETCH_H

/// Asks the CPU to bring the cache line at `address` in, for writing, without waiting for it.
///
/// Swift has no prefetch of its own. The engine calls this for the timer record of an event a
/// few places ahead in the queue: with 100,000 timers the records do not fit in the cache, and
/// a firing otherwise waits for its record to come from memory.
static inline void debugsh_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
