@preconcurrency import CReadline
import DebugShell
import DebugShellCore
import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#endif

/// The interactive session (README): a `poll()` loop over the terminal and a signal
/// self-pipe drives readline's callback interface, so the prompt can show a live status block
/// and Ctrl-C and resizes are handled between keystrokes. Single-threaded throughout.
struct InteractiveSession {
    let session: Session
    let sink: TerminalSink
    let readRC: Bool

    /// The prompt: virtual time now, as event lines stamp it (`debugsh 1.250s> `).
    static func prompt(at now: SimTime) -> String { "debugsh \(now.eventStamp)> " }
    /// After a line that ends with a backslash: the next line continues it.
    static let continuationPrompt = "... "

    /// `shell.history-size`: how many commands the history file keeps.
    private func historySize() -> Int32 {
        if case .integer(let n)? = session.settingValue("shell.history-size") { return Int32(clamping: n) }
        return 1000
    }

    /// The wall clock, for `play` only: the simulation itself never reads it.
    static func monotonicNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// While `play` runs, the block redraws at most this often (about 20 times a second), and
    /// time moves at least this often.
    static let playSlice: Int64 = 50_000_000
    /// The most wall time one slice of `play` may simulate for, whatever the event rate: then
    /// the loop reads the keyboard again, so typing is echoed within a few tens of
    /// milliseconds (SPEC §10; 10 ms rather than 20 since issue 23: Benchmarks/keystroke_echo.py
    /// measured a heavy play's echo at 36–40 ms at the 95th percentile, against 58 ms). A
    /// simulation that cannot keep up runs slower than asked, and the block says how much.
    static let playBudget: Int64 = 10_000_000
    /// A `run` or `step` typed at the prompt that takes longer than this in wall time shows a
    /// progress line under its command, redrawn at most every ``progressInterval``.
    static let progressAfter: Int64 = 1_000_000_000
    static let progressInterval: Int64 = 250_000_000

    /// Runs until Ctrl-D, `quit` or `exit n`.
    ///
    /// - Returns: the exit status: 0 for Ctrl-D and `quit`, `n` for `exit n`, 128 + the signal
    ///   for a hang-up or termination.
    func run() -> Int32 {
        guard let signalPipe = Signals.openSignalPipe() else {
            session.output.frontEndMessage("cannot create a pipe for signals: \(String(cString: strerror(errno)))")
            return 1
        }
        let paths = StatePaths()

        // A trap restores the terminal as it was before readline changed it (TrapRescue).
        TrapRescue.rememberTerminal(0)
        LineEditor.setUp()
        LineEditor.color = StatusBlock.colorAllowed
        LineEditor.colorDepth = ColorDepth.current
        sink.colorDepth = ColorDepth.current
        session.options.color = StatusBlock.colorAllowed
        LineEditor.complete = { [session] in session.complete($0) }
        LineEditor.statusLines = { [session] in InteractiveSession.statusLines(of: session) }
        LineEditor.mainPrompt = { [session] in InteractiveSession.prompt(at: session.engine.now) }
        LineEditor.historyLimit = historySize()
        LineEditor.loadHistory(from: paths.history)
        // A trap saves the history (TrapRescue).
        TrapRescue.saveHistory = { [self] in
            LineEditor.historyLimit = historySize()
            return LineEditor.saveHistory(to: paths.history).map { "not the history: \($0)" } ?? "the history"
        }
        sink.willWrite = { [unowned sink] in
            InteractiveSession.endProgress()
            LineEditor.hideForOutput()
            InteractiveSession.breakLineAfterInterrupt(sink)
        }
        session.time.watchTimeMoving = { [session, sink] what, start, end in
            InteractiveSession.progressPoll(what, from: start, to: end, session: session, sink: sink)
        }
        session.time.timeDidMove = { LineEditor.blockIsStale = true }
        sink.pager = { text in
            let size = LineEditor.screenSize
            return Pager.page(text, rows: size.rows, columns: size.columns)
        }
        session.time.supportsPlay = true
        session.time.saysWhereTimeStops = true

        let leave = { [self] (status: Int32) -> Int32 in
            session.recorder.finish()
            sink.flush()
            LineEditor.historyLimit = historySize()
            if let message = LineEditor.saveHistory(to: paths.history) { session.output.frontEndMessage(message) }
            return status
        }

        if readRC, FileIO.exists(paths.rcFile) {
            if case .exited(let status) = runRCFile(paths.rcFile) { return leave(status) }
            if let status = afterCommand(signalPipe) { return leave(status) }
        }

        var pending = ""
        // The last slice of `play` ran out of its wall time: the next one comes at once.
        var behind = false
        var lastTick = Self.monotonicNanoseconds()
        var lastRedraw = lastTick
        sink.flush()
        LineEditor.showPrompt()
        while true {
            var fds = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalPipe, events: Int16(POLLIN), revents: 0),
            ]
            // While playing, wake at least every slice to move time and redraw the block.
            let timeout: Int32 = session.time.playSpeed == nil ? -1 : behind ? 0 : Int32(Self.playSlice / 1_000_000)
            if poll(&fds, 2, timeout) < 0 {
                if errno == EINTR { continue }
                LineEditor.stop()
                return leave(1)
            }
            let wall = Self.monotonicNanoseconds()
            if fds[1].revents == 0 && session.time.playSpeed != nil {
                // play: virtual time follows the wall clock between keystrokes, in slices of
                // bounded wall time; what happens prints above the block, and the half-typed
                // line stays as it is.
                let deadline = wall + Self.playBudget
                behind = false
                var pacer = PollPacer(startingAt: wall)
                session.time.interruptPollMask = pacer.mask
                session.time.playTick(wallNanoseconds: wall - lastTick) {
                    let now = Self.monotonicNanoseconds()
                    session.time.interruptPollMask = pacer.poll(at: now)
                    behind = now > deadline
                    return behind
                }
                sink.flush()
                if LineEditor.needsRestore {
                    LineEditor.restoreAfterOutput()
                    lastRedraw = wall
                } else if LineEditor.blockIsStale && wall - lastRedraw >= Self.playSlice {
                    LineEditor.blockIsStale = false
                    LineEditor.redrawBlock()
                    lastRedraw = wall
                }
            }
            lastTick = wall
            if fds[1].revents != 0 {
                for signal in Signals.drainSignalPipe(signalPipe) {
                    switch signal {
                    case SIGINT where session.time.playSpeed != nil:
                        // Ctrl-C during play stops time where it is, whether it came between two
                        // slices or in one (which then stopped at once), and gives up the line
                        // as at the prompt (`^C` after it): Decisions.md, Time.
                        _ = Signals.takeInterrupt()
                        session.time.stopPlaying()
                        LineEditor.interruptAtPrompt()
                        pending = ""
                        session.output.frontEndText("paused at \(session.engine.now)\n")
                        session.output.flush()
                        LineEditor.showPrompt()
                    case SIGINT:
                        _ = Signals.takeInterrupt()
                        LineEditor.interruptAtPrompt()
                        pending = ""
                        LineEditor.showPrompt()
                    case SIGWINCH:
                        LineEditor.terminalDidResize()
                    case SIGTSTP:
                        LineEditor.suspend()
                    default:  // SIGHUP, SIGTERM
                        LineEditor.stop()
                        return leave(128 + signal)
                    }
                }
            }
            let events = Int32(fds[0].revents)
            if events & Int32(POLLNVAL) != 0 {
                LineEditor.stop()
                return leave(0)
            }
            guard events & Int32(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
            // Everything typed so far is read before time moves again, so a burst of keys is
            // echoed at once even while a heavy simulation plays.
            var input = LineEditor.readCharacter()
            while input == nil && Self.inputWaiting() { input = LineEditor.readCharacter() }
            switch input {
            case nil:
                continue
            case .endOfInput:
                LineEditor.writeTerminal("\n")
                return leave(0)
            case .notUTF8(let bytes):
                pending = ""
                session.rejectTypedLine(bytes)
                if let status = afterCommand(signalPipe) { return leave(status) }
                LineEditor.showPrompt()
            case .line(let text):
                if Lexer.endsWithContinuation(Substring(text))
                    && pending.utf8.count + text.utf8.count <= Lexer.maxLineBytes
                {
                    pending += text.dropLast()
                    LineEditor.showPrompt(continuation: Self.continuationPrompt)
                    continue
                }
                let line = pending + text
                pending = ""
                LineEditor.addToHistory(line)
                session.options.width = LineEditor.screenSize.columns
                let outcome = session.runLine(line)
                if case .exited(let status) = outcome { return leave(status) }
                if let status = afterCommand(signalPipe) { return leave(status) }
                LineEditor.showPrompt()
                // The wall time a command took is not played.
                lastTick = Self.monotonicNanoseconds()
                lastRedraw = lastTick
            }
        }
    }

    /// Whether more input waits on standard input now.
    private static func inputWaiting() -> Bool {
        var fd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0 && fd.revents & Int16(POLLIN | POLLHUP) != 0
    }

    /// Runs the rc file; its errors are reported with `file:line` and the session goes on.
    private func runRCFile(_ path: String) -> ScriptOutcome {
        let text: String
        do {
            text = try FileIO.readScript(path)
        } catch {
            session.output.unreadableScript(error.message, path: path, line: error.line)
            return .failed
        }
        return session.runScript(text, origin: ScriptOrigin(name: path, directory: FileIO.directory(of: path)))
    }

    /// After a command: flush its output and settle the signals that came while it ran. An
    /// interrupt was meant for the command, so it is spent; a resize is applied; a hang-up or
    /// termination ends the session.
    ///
    /// - Returns: the status to leave with, or nil to go on.
    private func afterCommand(_ signalPipe: Int32) -> Int32? {
        InteractiveSession.endProgress()
        InteractiveSession.breakLineAfterInterrupt(sink)
        sink.flush()
        var leaveWith: Int32?
        for signal in Signals.drainSignalPipe(signalPipe) {
            switch signal {
            case SIGWINCH: LineEditor.terminalDidResize()
            case SIGHUP, SIGTERM: leaveWith = 128 + signal
            default: break
            }
        }
        _ = Signals.takeInterrupt()
        InteractiveSession.brokeLineAfterInterrupt = false
        return leaveWith
    }

    /// Whether the row the terminal's `^C` echo started has been ended already.
    nonisolated(unsafe) private static var brokeLineAfterInterrupt = false

    /// Ctrl-C during a command: the terminal echoes `^C` where the cursor is, so the first
    /// text after it starts on a new row (`error: interrupted at …` under `^C`).
    private static func breakLineAfterInterrupt(_ sink: TerminalSink) {
        guard !LineEditor.promptLive, Signals.isInterrupted, !brokeLineAfterInterrupt else { return }
        brokeLineAfterInterrupt = true
        guard terminalEchoesControlKeys() else { return }
        sink.flush()
        LineEditor.writeTerminal("\n")
    }

    /// Whether the terminal echoes Ctrl-C as `^C`.
    private static func terminalEchoesControlKeys() -> Bool {
        var modes = termios()
        return tcgetattr(0, &modes) == 0 && modes.c_lflag & tcflag_t(ECHO) != 0
            && modes.c_lflag & tcflag_t(ECHOCTL) != 0
    }

    /// Erases the progress line of a long `run`, if one shows (before output, and when the
    /// command ends). The terminal echoed a Ctrl-C's `^C` at its end: the `^C` then stands on a
    /// row of its own, as it does when no progress line showed.
    private static func endProgress() {
        guard LineEditor.eraseProgress() else { return }
        if Signals.isInterrupted && !brokeLineAfterInterrupt && terminalEchoesControlKeys() {
            LineEditor.writeTerminal("^C\r\n")
        }
        if Signals.isInterrupted { brokeLineAfterInterrupt = true }
    }

    /// The poll of one `run`, `step` or `run until` (``Session/watchTimeMoving``): keeps the
    /// engine's looks about a millisecond of wall time apart, and once the advance has taken a
    /// second, draws a progress line under the command (`run 12.4s of 1000s · Ctrl-C stops`),
    /// at most four times a second. Output erases it, and so does the command's end.
    static func progressPoll(
        _ what: String, from start: SimTime, to end: SimTime, session: Session, sink: TerminalSink
    ) -> () -> Bool {
        let begin = monotonicNanoseconds()
        var pacer = PollPacer(startingAt: begin)
        var drawn: Int64 = 0
        return {
            let wall = monotonicNanoseconds()
            session.time.interruptPollMask = pacer.poll(at: wall)
            guard wall - begin >= progressAfter, wall - drawn >= progressInterval, !LineEditor.promptLive else {
                return false
            }
            drawn = wall
            // What the command wrote so far comes first; the line goes under it.
            sink.flush()
            let done = session.engine.now.nanoseconds - start.nanoseconds
            let tenths = done / 100_000_000
            let total = SimDuration(nanoseconds: end.nanoseconds - start.nanoseconds)
            LineEditor.showProgress("\(what) \(tenths / 10).\(tenths % 10)s of \(total) · Ctrl-C stops")
            return false
        }
    }

    /// The block's lines: the enabled tools' status lines, then the test hook's line.
    static func statusLines(of session: Session) -> [StyledText] {
        var lines: [StyledText] = []
        if session.tools.blockEnabled, let speed = session.time.playSpeed, let pace = session.time.playPace {
            // SPEC §10: a simulation too heavy for the wall clock says so.
            lines.append(
                StyledText([
                    ("play ×\(paceText(pace)) of real time", .bold),
                    (" · the simulation cannot keep up with ×\(paceText(speed))", .plain),
                ]))
        }
        lines += session.liveStatusLines()
        // Test hook: DEBUGSH_TEST_STATUS adds one plain line to the block, so the interactive
        // tests can check the block's drawing before any tool has a status line. Like the
        // tools' lines, it follows `status on|off`.
        if session.tools.blockEnabled, let test = environmentValue("DEBUGSH_TEST_STATUS") {
            lines.append(StyledText(plain: test))
        }
        return lines
    }
}

/// Keeps the engine's polls (``Session/interruptPollMask``) about a millisecond of wall time
/// apart, however heavy the instants: an advance starts polling after every instant, and the
/// mask doubles while polls come quicker than half a millisecond apart, up to the engine's
/// default of 256 instants; when they come more than 2 ms apart, it falls at once to what
/// the last instants' wall time says fits in a millisecond.
struct PollPacer {
    private var last: Int64
    private(set) var mask = 0

    init(startingAt wall: Int64) { last = wall }

    mutating func poll(at wall: Int64) -> Int {
        let gap = wall - last
        last = wall
        if gap > 2_000_000 {
            let perInstant = max(1, gap / Int64(mask + 1))
            let fits = max(1, 1_000_000 / perInstant)
            var next = 1
            while next * 2 <= fits && next < 256 { next *= 2 }
            mask = next - 1
        } else if gap < 500_000 && mask < 255 {
            mask = mask * 2 + 1
        }
        return mask
    }
}

/// A speed as people read it: `4`, `1.5`, `0.3`, `0.047`, `0.0012` — two significant digits
/// below 1.
func paceText(_ pace: Double) -> String {
    guard pace.isFinite, pace > 0 else { return "0" }
    if pace >= 10 { return String(Int64(pace.rounded())) }
    let places = pace >= 1 ? 1 : min(9, max(2, 1 - Int(log10(pace).rounded(.down))))
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int64((pace * Double(scale)).rounded())
    var fraction = String(scaled % scale)
    fraction = String(repeating: "0", count: places - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    let whole = String(scaled / scale)
    return fraction.isEmpty ? whole : whole + "." + fraction
}

/// Where the interactive session keeps its files (XDG base directories).
struct StatePaths {
    /// `$XDG_STATE_HOME/debugsh/history`, by default `~/.local/state/debugsh/history`.
    var history: String
    /// `$XDG_CONFIG_HOME/debugsh/init.dsh`, by default `~/.config/debugsh/init.dsh`.
    var rcFile: String
    /// `$XDG_CONFIG_HOME/debugsh/plugins`, by default `~/.config/debugsh/plugins`: every library
    /// in it loads at start (`--no-plugins` skips them).
    var pluginFolder: String

    init() {
        let home = StatePaths.homeDirectory()
        history = StatePaths.base("XDG_STATE_HOME", default: home + "/.local/state") + "/debugsh/history"
        let config = StatePaths.base("XDG_CONFIG_HOME", default: home + "/.config") + "/debugsh"
        rcFile = config + "/init.dsh"
        pluginFolder = config + "/plugins"
    }

    /// An XDG variable's folder; the XDG spec ignores relative paths.
    private static func base(_ variable: String, default fallback: String) -> String {
        guard let value = environmentValue(variable), value.hasPrefix("/") else { return fallback }
        return value
    }

    private static func homeDirectory() -> String {
        if let home = environmentValue("HOME"), !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "."
    }
}

/// An environment variable's value, nil when it is not set.
func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
