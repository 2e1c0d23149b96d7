// A public import: `MemoryHint.prefetch` is emitted into the tools that call it, which then call
// the C function themselves.
public import CDebugShellHints

/// Hints about memory a tool is about to touch, for code that walks data far larger than the
/// processor's caches.
///
/// A tool that stores many small records into many places — the timer inspector writes each
/// batch of firing records into the rings of up to 100,000 timers — waits on memory, one miss
/// after another. Asking for the next places a few steps ahead lets those waits overlap. Hints
/// change nothing a program computes; where the data fits in the cache they cost a few
/// instructions and gain nothing, so use one only where a measurement says it pays.
public enum MemoryHint {
    /// Asks the processor to start bringing the cache line at `pointer` in, for writing, and
    /// returns at once.
    ///
    /// It reads nothing and cannot fault: any address is allowed, even one past the end of a
    /// buffer. It is emitted into the caller (no call into the library), as one prefetch
    /// instruction where the processor has one (`__builtin_prefetch`).
    ///
    /// ```swift
    /// for k in records.indices {
    ///     if k + 8 < records.count { MemoryHint.prefetch(slot(for: records[k + 8])) }
    ///     store(records[k])
    /// }
    /// ```
    @_alwaysEmitIntoClient @inline(__always)
    public static func prefetch(_ pointer: UnsafeRawPointer) {
        debugsh_hint_prefetch(pointer)
    }
}
