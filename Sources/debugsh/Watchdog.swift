import DebugShell
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the watchdog's wake-up pipe, or -1 before it runs: the signal handlers write
/// the signal's number there (a lock-free load and `write` are async-signal-safe).
let watchdogPipeWriteEnd = Atomic<Int32>(-1)

/// Tells the watchdog that `signal` came (from a signal handler: async-signal-safe).
func wakeWatchdog(_ signal: Int32) {
    let fd = watchdogPipeWriteEnd.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = Glibc.write(fd, &byte, 1)
    errno = saved
}

/// Ends a plugin's call that does not return (docs/Plugins.md, "When a plugin does not
/// return"), keeping the session's work as a trap does.
///
/// A thread of its own, which the async signals never reach (they stay the session thread's, so
/// a blocked read still gets its EINTR). It wakes at each SIGINT, SIGTERM and SIGHUP (the
/// handlers write to its pipe) and every tick, and reads ``PluginCallWatch/stamp``: an odd stamp
/// unchanged since the last look is a plugin's call that has run all that while. Such a call is
/// ended — when it has run `plugin.deadline` of wall time, when Ctrl-C comes a second time during
/// it, or when SIGTERM or SIGHUP came and it has run a quarter of a second (a call that returns
/// lets the session stop as it always does) — by the rescue in a forked copy of the process
/// (``TrapRescue/rescueInChild(_:)``), which writes the recording, the trace and the history and
/// says which plugin, which call and when. Should the call return just then, the session's
/// thread waits at the boundary for the rescue to finish rather than go on under it
/// (``PluginCallWatch/freeze(ifStill:)``). The stuck thread cannot be abandoned safely (it may
/// hold the session's state half-changed, and nothing can unwind it), so the process then ends:
/// status 124 after the deadline (as `timeout` ends), else 128 + the signal.
enum Watchdog {
    /// How long a call SIGTERM or SIGHUP came during may still run before it is ended, and how
    /// long one may run after a first Ctrl-C before the watchdog says how to end it.
    static let grace: Int64 = 250_000_000

    /// Starts the watchdog (over the tools ``PluginCallWatch/watchTools(from:)`` named).
    static func start() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readEnd = fds[0]
        // The thread starts with every signal blocked but a fault's (which is the thread's own):
        // the process's signals go to the session's thread, as before it existed.
        var all = sigset_t()
        sigfillset(&all)
        for signal in [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV] { sigdelset(&all, signal) }
        var before = sigset_t()
        pthread_sigmask(SIG_SETMASK, &all, &before)
        defer { pthread_sigmask(SIG_SETMASK, &before, nil) }
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in Watchdog.watch() }, nil) == 0 else {
            close(fds[0])
            close(fds[1])
            return
        }
        pthread_detach(thread)
        watchdogPipeWriteEnd.store(fds[1], ordering: .relaxed)
    }

    /// The pipe's read end; set before the thread starts.
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    private static func monotonic() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The thread's loop; it returns only by ending the process.
    private static func watch() -> Never {
        // A trap here is debugsh's, not a plugin's (TrapThreads).
        TrapThreads.noteOwnThread()
        // The stamp of the call being watched, and how long it has run unchanged.
        var seen = PluginCallWatch.stamp
        var stuckFor: Int64 = 0
        var last = monotonic()
        // The stamp when Ctrl-C last came; whether the hint after it was written.
        var interruptedIn: UInt64?
        var hinted = false
        // SIGTERM or SIGHUP, once one came.
        var stopSignal: Int32 = 0
        while true {
            let deadline = PluginCallWatch.deadline
            // A twentieth of the deadline, between 5 and 100 ms.
            let tick = deadline > 0 ? min(max(deadline / 20, 5_000_000), 100_000_000) : 100_000_000
            var fd = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let woken = poll(&fd, 1, Int32(tick / 1_000_000)) > 0
            let signals = woken ? Signals.drainSignalPipe(readEnd) : []
            let now = monotonic()
            let stamp = PluginCallWatch.stamp
            let inPlugin = stamp & 1 != 0
            if inPlugin && stamp == seen {
                // A look long after the last (the process stopped by Ctrl-Z or a debugger) counts
                // as a few ticks, not as all the time it stood still.
                stuckFor += min(now - last, 4 * tick)
            } else {
                seen = stamp
                stuckFor = 0
                hinted = false
            }
            last = now
            for signal in signals {
                switch signal {
                case SIGINT:
                    if inPlugin && interruptedIn == stamp { end(.secondInterrupt, stamp) }
                    interruptedIn = stamp
                case SIGTERM, SIGHUP:
                    stopSignal = signal
                default:
                    break
                }
            }
            guard inPlugin else { continue }
            if stopSignal != 0 && stuckFor >= grace { end(.signal(stopSignal), stamp) }
            if deadline > 0 && stuckFor >= deadline { end(.deadline(deadline), stamp) }
            if interruptedIn == stamp && stuckFor >= grace && !hinted {
                hinted = true
                say(
                    "debugsh: a plugin's call has not returned since Ctrl-C; Ctrl-C again ends debugsh, keeping its work\n"
                )
            }
        }
    }

    /// Writes `text` to standard error at once (the session's output is its own thread's).
    private static func say(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }

    /// Keeps the session's work and ends the process, if the call of `stamp` has still not
    /// returned; else returns, and the watch goes on (the next look sees a new stamp).
    private static func end(_ reason: StuckReason, _ stamp: UInt64) {
        guard PluginCallWatch.freeze(ifStill: stamp) else { return }
        TrapRescue.rescueInChild(.stuck(reason))
        _exit(reason.status)
    }
}

/// A plugin that calls `exit` (itself, or through a C library) would end the process without the session's end: the recording, the trace and the history unwritten. An
/// exit handler, installed before any plugin can run, rescues them as a trap does and says
/// which plugin's code called it, unless debugsh itself is ending (``endsOnItsOwn()``). The
/// status is the one the plugin gave, but 0 becomes 1: a script that did not reach its end did
/// not pass.
enum ExitWatch {
    /// Set when debugsh itself calls `exit`.
    private static let ownEnd = Atomic<Bool>(false)

    /// Installs the handler (glibc's `on_exit`, which is given the status).
    static func install() {
        _ = on_exit({ status, _ in ExitWatch.onExit(status) }, nil)
    }

    /// Says that the `exit` to come is debugsh's own.
    static func endsOnItsOwn() {
        ownEnd.store(true, ordering: .relaxed)
    }

    private static func onExit(_ status: Int32) {
        guard !ownEnd.load(ordering: .relaxed), !TrapRescue.isRescuing else { return }
        TrapRescue.rescueInChild(.exit(status))
        _exit(status == 0 ? 1 : status)
    }
}
