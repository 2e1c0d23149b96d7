import CTrapSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Which thread trapped (docs/Plugins.md, "When a plugin traps"): the session's, one of
/// debugsh's own, or another — a thread a plugin started, since debugsh starts no other.
///
/// The trap handler runs on the thread that trapped. On a plugin's thread the session's thread
/// goes on meanwhile: the handler parks it first (``stopSessionThread()``: a signal whose handler
/// waits for the process to end), so that it writes nothing more — no output, no recording over
/// the rescue's — and does not end the process under the rescue; then the rescue's copy of the
/// process says the plugin's thread trapped, at the session's virtual time then.
enum TrapThreads {
    /// The session's thread, as the kernel and as pthreads name it; set by ``install()``.
    nonisolated(unsafe) private static var sessionThread: pid_t = 0
    nonisolated(unsafe) private static var sessionPThread = pthread_t()
    /// Threads debugsh starts itself (``noteOwnThread()``), by id: at most ``ownCapacity``.
    private static let ownCapacity = 16
    nonisolated(unsafe) private static let own: UnsafeMutablePointer<pid_t> = {
        let own = UnsafeMutablePointer<pid_t>.allocate(capacity: ownCapacity)
        own.initialize(repeating: 0, count: ownCapacity)
        return own
    }()
    private static let ownCount = Atomic<Int>(0)
    /// Set by the session's thread once the park signal reached it.
    private static let parked = Atomic<Bool>(false)
    /// Set in the handler before it forks: read by the rescue, in the copy.
    nonisolated(unsafe) static var trappedOnPluginThread = false

    /// Called on the session's thread, with the trap handler's installation.
    static func install() {
        sessionThread = debugsh_thread_id()
        sessionPThread = pthread_self()
        _ = own  // made now, never in a handler
        var action = sigaction()
        action.__sigaction_handler.sa_handler = onPark
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_ONSTACK
        sigaction(debugsh_park_signal(), &action, nil)
    }

    /// A thread debugsh starts calls this first: a trap on it is debugsh's, not a plugin's.
    static func noteOwnThread() {
        let slot = ownCount.add(1, ordering: .sequentiallyConsistent).oldValue
        if slot < ownCapacity { own[slot] = debugsh_thread_id() }
    }

    /// Whether the calling thread is a plugin's: neither the session's nor debugsh's own.
    /// Async-signal-safe.
    static func isPluginThread() -> Bool {
        let me = debugsh_thread_id()
        guard sessionThread != 0, me != sessionThread else { return false }
        let n = min(ownCount.load(ordering: .sequentiallyConsistent), ownCapacity)
        for i in 0..<n where own[i] == me { return false }
        return true
    }

    /// Parks the session's thread and waits (100 ms at most) until it is. Async-signal-safe.
    static func stopSessionThread() {
        trappedOnPluginThread = true
        guard pthread_kill(sessionPThread, debugsh_park_signal()) == 0 else { return }
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        for _ in 0..<100 where !parked.load(ordering: .sequentiallyConsistent) { nanosleep(&pause, nil) }
    }

    /// The session's thread, parked until the trapped thread ends the process.
    private static let onPark: @convention(c) (Int32) -> Void = { _ in
        TrapThreads.parked.store(true, ordering: .sequentiallyConsistent)
        while true { Glibc.pause() }
    }
}
