import DebugShell

#if canImport(Glibc)
    import Glibc
#endif

/// Long help at the prompt, a screen at a time (docs/Decisions.md, "Help that fits a screen"):
/// through `$PAGER` when it is set, as git and IPython page, or a built-in `more` when it is
/// not. Only the interactive session pages, and only help (`help`, `apropos`, `--help`):
/// scripts and pipes never do.
enum Pager {
    /// Shows `text` a page at a time when it is taller than the terminal; false when it fits
    /// (the caller prints it as usual).
    static func page(_ text: String, rows: Int, columns: Int) -> Bool {
        let lines = lines(of: text, columns: columns)
        guard rows > 3, lines.count > rows - 2 else { return false }
        if let pager = environmentValue("PAGER"), pager.contains(where: { !$0.isWhitespace }) {
            if run(pager, text) { return true }
        }
        more(lines, rows: rows)
        return true
    }

    /// The rows the text takes at `columns`, long lines cut where the terminal would wrap them.
    static func lines(of text: String, columns: Int) -> [Substring] {
        var out: [Substring] = []
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = line
            repeat {
                let cut =
                    rest.index(rest.startIndex, offsetBy: max(1, columns), limitedBy: rest.endIndex) ?? rest.endIndex
                out.append(rest[..<cut])
                rest = rest[cut...]
            } while !rest.isEmpty
        }
        return out
    }

    /// The built-in pager: a screen, then one key at a time — space a screen more, return a
    /// line more, q (or Ctrl-C, Esc) stops, as `more` does.
    static func more(_ lines: [Substring], rows: Int) {
        var saved = termios()
        let isTerminal = tcgetattr(0, &saved) == 0
        if isTerminal {
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            raw.c_cc.6 = 1  // VMIN
            raw.c_cc.5 = 0  // VTIME
            tcsetattr(0, TCSANOW, &raw)
        }
        defer { if isTerminal { tcsetattr(0, TCSANOW, &saved) } }
        var shown = 0
        // The first screen leaves the command line above it in sight.
        var screen = rows - 2
        while shown < lines.count {
            let end = min(lines.count, shown + screen)
            write(lines[shown..<end].map { $0 + "\n" }.joined())
            shown = end
            guard shown < lines.count else { break }
            let percent = shown * 100 / lines.count
            write("\u{1b}[7m-- more (\(percent)%): space a page, return a line, q quits --\u{1b}[0m")
            let key = readKey()
            write("\r\u{1b}[K")
            switch key {
            case UInt8(ascii: " "), UInt8(ascii: "f"): screen = rows - 1
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "j"): screen = 1
            default: shown = lines.count  // q, Ctrl-C, Esc, end of input
            }
        }
        _ = Signals.takeInterrupt()
    }

    /// One byte from the terminal; nil at the end of input.
    private static func readKey() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let n = read(0, &byte, 1)
            if n == 1 { return byte }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }

    private static func write(_ text: String) {
        TerminalSink.writeAll(fd: 1, Array(text.utf8))
    }

    /// `$PAGER` through `/bin/sh -c`, fed on its standard input; false when it could not start.
    private static func run(_ pager: String, _ text: String) -> Bool {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(pager), nil]
        defer { for p in argv { free(p) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        close(fds[0])
        guard spawned == 0 else {
            close(fds[1])
            return false
        }
        // A pager that quits before reading everything closes the pipe: no SIGPIPE for that.
        signal(SIGPIPE, SIG_IGN)
        TerminalSink.writeAll(fd: fds[1], Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
        close(fds[1])
        signal(SIGPIPE, SIG_DFL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        _ = Signals.takeInterrupt()
        return true
    }
}
