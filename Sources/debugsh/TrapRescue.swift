import CTrapSupport
import DebugShell
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

    /// Runs in the forked copy of the trapped process: the normal ends of the recording, the
    /// trace and the history, then the last words.
    static func rescue(_ signal: Int32) {
        guard let session else { return }
        session.output.flush()
        let what = session.trapDescription(signal: signal, thread: TrapThreads.trappedOnPluginThread)
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
            session.tracing.noteTrap(what)
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
    if child > 0 {
        var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
        var waiting = true
        var tick = 0
        while waiting && tick < state.pointee.ticks {
            var status: Int32 = 0
            let done = waitpid(child, &status, WNOHANG)
            if done == child {
                rescued = status == 0
                waiting = false
            } else if done < 0 && errno != EINTR {
                waiting = false
            } else {
                nanosleep(&pause, nil)
                tick += 1
            }
        }
        if waiting {
            kill(child, SIGKILL)
            waitpid(child, nil, 0)
        }
    }
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
