import DebugShellTestRunner
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Set by the SIGINT handler; the engine polls it between events.
let interruptFlag = Atomic<Bool>(false)

/// The write end of the interactive loop's self-pipe, or -1 while there is none.
///
/// An atomic rather than a plain global so the signal handlers may read it (a lock-free load is
/// async-signal-safe).
let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The handler only sets the flag and wakes the interactive loop and the watchdog (which ends a
/// plugin's call that Ctrl-C came twice during): it is async-signal-safe.
private func onInterrupt(_ signal: Int32) {
    interruptFlag.store(true, ordering: .relaxed)
    wakeInteractiveLoop(signal)
    wakeWatchdog(signal)
}

/// SIGWINCH, SIGTSTP, SIGHUP and SIGTERM while interactive: the loop handles them; the last two
/// also stop time, so a running command returns and the loop can save the history and leave (a
/// plugin's call that does not return, the watchdog ends).
private func onLoopSignal(_ signal: Int32) {
    if signal == SIGHUP || signal == SIGTERM { interruptFlag.store(true, ordering: .relaxed) }
    wakeInteractiveLoop(signal)
    wakeWatchdog(signal)
}

/// The SIGTERM or SIGHUP that stopped a script (0: none): its exit status is 128 + it.
let stopSignal = Atomic<Int32>(0)

/// Only sets the flag: `debugsh test`'s SIGTERM and SIGHUP, its child's SIGTERM, and a script's
/// SIGTERM and SIGHUP, which stop it as Ctrl-C does, so that its recording and `--trace` file
/// are written (during a plugin's call that does not return, the watchdog writes them).
private func onStopRequest(_ signal: Int32) {
    stopSignal.store(signal, ordering: .relaxed)
    interruptFlag.store(true, ordering: .relaxed)
    wakeWatchdog(signal)
}

/// Writes the signal number to the self-pipe (non-blocking: a full pipe already wakes the loop).
private func wakeInteractiveLoop(_ signal: Int32) {
    let fd = signalPipeWriteEnd.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = Glibc.write(fd, &byte, 1)
    errno = saved
}

enum Signals {
    /// Catches SIGINT into ``interruptFlag``, unblocking it first: a parent may have started us
    /// with it blocked (as some test runners and process launchers do).
    static func catchInterrupts() {
        install(onInterrupt, for: SIGINT)
    }

    /// A script's SIGTERM (a CI job cancelled, `timeout`) and SIGHUP (its terminal gone) stop it
    /// as Ctrl-C does — time stops, the script ends — so that what it records is kept: the
    /// recording and the `--trace` file are written, and it exits with 128 + the signal. (The
    /// default action ended the process at once, losing both.) During a plugin's call that does
    /// not return, the watchdog keeps them (``Watchdog``).
    static func catchStopRequests() {
        for signal in [SIGTERM, SIGHUP] { install(onStopRequest, for: signal) }
    }

    /// The exit status of a run that was stopped: 128 + the signal that stopped it.
    static var stoppedStatus: Int32 {
        let signal = stopSignal.load(ordering: .relaxed)
        return 128 + (signal != 0 ? signal : SIGINT)
    }

    /// The name of the signal that stopped a run: SIGTERM or SIGHUP when one did, else SIGINT.
    static var stoppedSignalName: String {
        switch stopSignal.load(ordering: .relaxed) {
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "SIGINT"
        }
    }

    /// Opens the self-pipe the interactive loop polls and routes SIGINT, SIGWINCH, SIGHUP and
    /// SIGTERM into it (readline's callback interface); SIGTSTP
    /// joins them while the prompt waits (``catchSuspend(_:)``).
    ///
    /// - Returns: the pipe's read end (non-blocking), or nil when no pipe could be made.
    static func openSignalPipe() -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteEnd.store(fds[1], ordering: .relaxed)
        for signal in [SIGWINCH, SIGHUP, SIGTERM] { install(onLoopSignal, for: signal) }
        return fds[0]
    }

    /// Ctrl-Z: at the prompt it goes through the self-pipe, so the terminal can be restored
    /// before the process stops; while a command runs it stops the process at once.
    static func catchSuspend(_ atPrompt: Bool) {
        if atPrompt {
            install(onLoopSignal, for: SIGTSTP)
        } else {
            signal(SIGTSTP, SIG_DFL)
        }
    }

    /// Stops the process as Ctrl-Z would; returns when it is continued (`fg`).
    static func stopProcess() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
    }

    /// Reads every signal number waiting in the self-pipe.
    static func drainSignalPipe(_ fd: Int32) -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                signals += buffer[0..<n].map { Int32($0) }
                continue
            }
            if n < 0 && errno == EINTR { continue }
            return signals
        }
    }

    /// Installs `handler` and unblocks the signal, which a parent may have left blocked.
    private static func install(_ handler: @convention(c) (Int32) -> Void, for signal: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

    /// Whether an interrupt came; clears the flag.
    static func takeInterrupt() -> Bool {
        interruptFlag.exchange(false, ordering: .relaxed)
    }

    static var isInterrupted: Bool { interruptFlag.load(ordering: .relaxed) }

    /// The flag as `debugsh test` takes it (DebugShellTestRunner): the runner and a file's child
    /// stop on it, as a script does.
    static func forTestRunner() -> Interrupts {
        Interrupts(catchInterrupts: catchInterrupts, isInterrupted: { isInterrupted }, setFlag: onStopRequest)
    }
}
