import CTrapSupport
import DebugShell
import DebugShellCore
import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#endif

/// What survives a trap (docs/Plugins.md, "When a plugin traps").
///
/// A Swift trap — in a plugin's code, or debugsh's own — cannot be caught as an error. The trap
/// handler (``onTrap``) makes only async-signal-safe calls: it restores the terminal, forks with
/// glibc's `_Fork` (no atfork handlers), and waits. The child, a copy of the process as it stood
/// at the trap, runs ``rescue(_:)``: it pushes out the output not yet written, writes the
/// recording (`record`), the trace (`--trace`) and the history as a normal end would, and prints
/// the last words: who trapped, in what, when, and what was kept. Should the child fail or hang
/// (a trap that left memory broken), the parent says that nothing could be written. The process
/// ends with status 128 + the signal's number, as one killed by it would.
enum TrapRescue {
    /// Set once, before any plugin code runs; read only in the child after a trap.
    nonisolated(unsafe) static var session: Session?
    /// The `--trace` file.
    nonisolated(unsafe) static var tracePath: String?
    /// Saves the interactive session's history; says what it kept (or why not).
    nonisolated(unsafe) static var saveHistory: (() -> String)?

    /// How long the parent waits for the rescue: a full trace of a million events takes about
    /// two seconds to write.
    static let timeoutSeconds = 20

    /// Installs the handler on an alternate stack (a stack overflow leaves no room on the
    /// thread's own). `DEBUGSH_BACKTRACE=1` hands the trap on, after the rescue, to the handler
    /// that was there before — the Swift runtime's backtracer — for a plugin's author.
    static func install(for session: Session) {
        self.session = session
        let state = UnsafeMutablePointer<TrapHandlerState>.allocate(capacity: 1)
        state.initialize(
            to: TrapHandlerState(
                previous: .allocate(capacity: trapSignals.count), terminal: .allocate(capacity: 1),
                chain: getenv("DEBUGSH_BACKTRACE").map { String(cString: $0) == "1" } ?? false,
                ticks: timeoutSeconds * 100))
        trapHandlerState = state
        TrapThreads.install()
        let size = 256 * 1024
        var stack = stack_t(
            ss_sp: UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16), ss_flags: 0, ss_size: size)
        sigaltstack(&stack, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = onTrap
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        for (i, signal) in trapSignals.enumerated() {
            sigaction(signal, &action, state.pointee.previous + i)
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, signal)
            sigprocmask(SIG_UNBLOCK, &unblock, nil)
        }
    }

    /// Remembers the terminal's settings on `fd`, for a trap to restore before anything prints.
    static func rememberTerminal(_ fd: Int32) {
        guard let state = trapHandlerState, tcgetattr(fd, state.pointee.terminal) == 0 else { return }
        state.pointee.terminalFD = fd
    }

    /// Gives the terminal back as it was before the prompt changed it (async-signal-safe).
    static func restoreTerminal() {
        guard let state = trapHandlerState, state.pointee.terminalFD >= 0 else { return }
        tcsetattr(state.pointee.terminalFD, TCSANOW, state.pointee.terminal)
    }

    /// Runs the rescue of `cause` in a forked copy of the process, from a thread that is not in
    /// a signal handler (the watchdog's, or the one that called `exit`), and waits for it as the
    /// trap handler does; says so on standard error when it failed. glibc's `fork` (not
    /// `_Fork`) takes the allocator's locks first, so the copy's heap is whole even while the
    /// session's thread runs on in the plugin's code.
    static func rescueInChild(_ cause: RescueCause) {
        restoreTerminal()
        var rescued = false
        let child = fork()
        if child == 0 {
            rescue(cause)
            _exit(0)
        }
        if child > 0 { rescued = waitForRescue(child, ticks: timeoutSeconds * 100) }
        if !rescued {
            let message =
                "debugsh: \(cause.failureText), and the rescue of what it was recording failed\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
        }
    }
}

/// What ended a plugin's call, for the rescue's last words.
enum RescueCause {
    /// A trap's signal.
    case trap(Int32)
    /// The call did not return: the watchdog ended it.
    case stuck(StuckReason)
    /// Code in the process called `exit` with this status.
    case exit(Int32)

    /// What happened, when the rescue itself failed.
    var failureText: String {
        switch self {
        case .trap: return "trapped"
        case .stuck: return "a plugin's call did not return"
        case .exit(let status): return "exit(\(status)) was called outside debugsh's own end"
        }
    }
}

/// Why the watchdog ended a call that did not return (docs/Plugins.md, "When a plugin does not
/// return").
enum StuckReason {
    /// It ran longer than `plugin.deadline` (nanoseconds of wall time).
    case deadline(Int64)
    /// Ctrl-C came twice while it ran.
    case secondInterrupt
    /// SIGTERM or SIGHUP came while it ran.
    case signal(Int32)

    /// How the last words say it, after "stopped ".
    var text: String {
        switch self {
        case .deadline(let nanoseconds):
            return "after \(SimDuration(nanoseconds: nanoseconds)) of wall time (plugin.deadline)"
        case .secondInterrupt: return "by a second Ctrl-C"
        case .signal(let signal): return "by \(signal == SIGHUP ? "SIGHUP" : "SIGTERM")"
        }
    }

    /// The exit status: 124 for the deadline (as `timeout` ends), else 128 + the signal.
    var status: Int32 {
        switch self {
        case .deadline: return 124
        case .secondInterrupt: return 128 + SIGINT
        case .signal(let signal): return 128 + signal
        }
    }
}

extension TrapRescue {
    /// Waits for the rescue's child at most `ticks` × 10 ms, then kills it; whether it ended
    /// well. Async-signal-safe: waitpid, nanosleep, kill.
    fileprivate static func waitForRescue(_ child: pid_t, ticks: Int) -> Bool {
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        var tick = 0
        while tick < ticks {
            var status: Int32 = 0
            let done = waitpid(child, &status, WNOHANG)
            if done == child { return status == 0 }
            if done < 0 && errno != EINTR { return false }
            nanosleep(&pause, nil)
            tick += 1
        }
        kill(child, SIGKILL)
        waitpid(child, nil, 0)
        return false
    }

    /// Set in the copy of the process that writes what is kept: an `exit` there is its own.
    nonisolated(unsafe) static var isRescuing = false

    /// Runs in the forked copy of the trapped process: the normal ends of the recording, the
    /// trace and the history, then the last words.
    static func rescue(_ signal: Int32) { rescue(.trap(signal)) }

    /// Runs in the forked copy of the process: the normal ends of the recording, the trace and
    /// the history, then the last words, which say what `cause` ended the plugin's call.
    static func rescue(_ cause: RescueCause) {
        isRescuing = true
        guard let session else { return }
        session.output.flush()
        // What happened, and the trace's marker of where it ends (docs/Trace.md).
        let what: String
        let stop: (reason: String, title: String)
        switch cause {
        case .trap(let signal):
            what = session.lastWords(signal: signal, thread: TrapThreads.trappedOnPluginThread)
            stop = ("trap", "trap")
        case .stuck(let why):
            what = session.lastWords("did not return", from: true) + ": stopped " + why.text
            stop = ("stuck", "plugin did not return")
        case .exit(let status):
            what = session.lastWords(
                "called exit(\(status))", nobody: "code outside debugsh's calls into plugins (a plugin's own thread?)")
            stop = ("exit", "exit(\(status))")
        }
        var kept: [String] = []
        if let (path, result) = session.recorder.rescue(note: what) {
            switch result {
            case .success(let commands):
                kept.append("the recording \(path) (\(commands == 1 ? "1 command" : "\(grouped(commands)) commands"))")
            case .failure(let failure):
                kept.append("not the recording: \(failure.message)")
            }
        }
        if let path = tracePath {
            session.tracing.noteStop(reason: stop.reason, title: stop.title, detail: what)
            do {
                let events = try session.tracing.save(to: path)
                kept.append("the trace \(path) (\(events == 1 ? "1 event" : "\(grouped(events)) events"))")
            } catch {
                kept.append("not the trace: \(error.message)")
            }
        }
        if let saveHistory { kept.append(saveHistory()) }
        session.output.frontEndMessage(what + (kept.isEmpty ? "" : "; kept: " + kept.joined(separator: ", ")))
        session.output.flush()
    }
}

/// The signals of a trap: a Swift runtime failure is SIGILL (x86-64) or SIGTRAP (arm64); C code's
/// `abort` SIGABRT; a bad pointer SIGSEGV or SIGBUS; an integer division by zero in C SIGFPE.
private let trapSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]

/// What the handler reads: made before it is installed, never changed after but for the
/// terminal, which is remembered before the prompt first changes it.
struct TrapHandlerState {
    let previous: UnsafeMutablePointer<sigaction>
    let terminal: UnsafeMutablePointer<termios>
    var terminalFD: Int32 = -1
    let chain: Bool
    /// 10 ms each.
    let ticks: Int

    init(previous: UnsafeMutablePointer<sigaction>, terminal: UnsafeMutablePointer<termios>, chain: Bool, ticks: Int) {
        self.previous = previous
        self.terminal = terminal
        self.chain = chain
        self.ticks = ticks
    }
}

nonisolated(unsafe) private var trapHandlerState: UnsafeMutablePointer<TrapHandlerState>?

/// The handler. Async-signal-safe calls only — signal, tcsetattr, _Fork, waitpid, nanosleep,
/// kill, write, sigaction, _exit — and no allocation: the rescue's work is the child's.
private func onTrap(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    let savedErrno = errno
    guard let state = trapHandlerState else { _exit(128 + signal) }
    // A fault in what follows ends the process as the signal would.
    for i in 0..<trapSignals.count { _ = Glibc.signal(trapSignals[i], SIG_DFL) }
    // A plugin's thread trapped: the session's thread stops where it is first.
    if TrapThreads.isPluginThread() { TrapThreads.stopSessionThread() }
    if state.pointee.terminalFD >= 0 { tcsetattr(state.pointee.terminalFD, TCSANOW, state.pointee.terminal) }
    var rescued = false
    let child = _Fork()
    if child == 0 {
        TrapRescue.rescue(signal)
        _exit(0)
    }
    if child > 0 { rescued = TrapRescue.waitForRescue(child, ticks: state.pointee.ticks) }
    if !rescued {
        let message: StaticString = "debugsh: trapped, and the rescue of what it was recording failed\n"
        _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
    }
    if state.pointee.chain {
        for i in 0..<trapSignals.count where trapSignals[i] == signal {
            sigaction(signal, state.pointee.previous + i, nil)
        }
        errno = savedErrno
        // Returning runs the faulting instruction again, into the previous handler.
        return
    }
    _exit(128 + signal)
}
