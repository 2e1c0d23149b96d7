import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Set by the SIGINT handler; the engine polls it between events (SPEC §10).
let interruptFlag = Atomic<Bool>(false)

/// The handler only sets the flag: it is async-signal-safe.
private func onInterrupt(_ signal: Int32) {
    interruptFlag.store(true, ordering: .relaxed)
}

enum Signals {
    /// Catches SIGINT into ``interruptFlag``.
    static func catchInterrupts() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = onInterrupt
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Whether an interrupt came; clears the flag.
    static func takeInterrupt() -> Bool {
        interruptFlag.exchange(false, ordering: .relaxed)
    }

    static var isInterrupted: Bool { interruptFlag.load(ordering: .relaxed) }
}
