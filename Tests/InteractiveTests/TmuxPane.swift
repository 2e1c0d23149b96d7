import Foundation
import Synchronization
import Testing

/// A temporary home for one test: HOME, XDG_STATE_HOME and XDG_CONFIG_HOME all inside it, so
/// history and rc files never touch the real ones. Several panes may share one (history across
/// sessions).
final class TestHome {
    let root: String

    init() throws {
        var template = Array("/tmp/debugsh-it.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        root = try #require(made.map { String(cString: $0) }, "cannot create a temporary folder")
    }

    var stateHome: String { root + "/state" }
    var configHome: String { root + "/config" }
    var historyFile: String { stateHome + "/debugsh/history" }
    var rcFile: String { configHome + "/debugsh/init.dsh" }

    func writeRCFile(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: configHome + "/debugsh", withIntermediateDirectories: true)
        try text.write(toFile: rcFile, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// The visible pane, as lines without trailing blanks.
///
/// debugsh's prompt shows virtual time (`debugsh 1.250s> `). ``raw`` has the lines as shown;
/// ``lines`` has each prompt's clock taken out (`debugsh> echo a`), so that a test that is not
/// about the clock need not know where time stands (under `play` it depends on the wall clock).
struct Screen: CustomStringConvertible {
    let raw: [String]
    let lines: [String]

    init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        raw = lines
        self.lines = lines.map(Screen.withoutClock)
    }

    /// `debugsh 1.250s> run 1s` → `debugsh> run 1s`; other lines as they are.
    static func withoutClock(_ line: String) -> String {
        guard let clock = promptClock(line) else { return line }
        return "debugsh>" + line.dropFirst("debugsh ".count + clock.count + 1)
    }

    /// The clock of a prompt line (`1.250s`), nil for a line that is not a prompt: `debugsh `,
    /// digits, a point, three digits, `s>`.
    static func promptClock(_ line: String) -> String? {
        guard line.hasPrefix("debugsh ") else { return nil }
        let rest = line.dropFirst("debugsh ".count)
        guard let end = rest.firstIndex(of: ">") else { return nil }
        let clock = rest[..<end]
        let parts = clock.dropLast().split(separator: ".", omittingEmptySubsequences: false)
        guard clock.hasSuffix("s"), parts.count == 2, !parts[0].isEmpty, parts[1].count == 3,
            (parts[0] + parts[1]).allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return String(clock)
    }

    /// The last non-blank line (the prompt, once debugsh waits for input).
    var lastLine: String { lines.last ?? "" }

    /// The index of the last line that starts with the prompt.
    var lastPromptIndex: Int? { lines.lastIndex { $0.hasPrefix("debugsh>") } }

    func count(_ line: String) -> Int { lines.filter { $0 == line }.count }

    var description: String {
        raw.enumerated().map { "\(String($0.offset).leftPadded(2))| \($0.element)" }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

/// What a pane waited for and never saw.
struct PaneTimeout: Error, CustomStringConvertible {
    let expectation: String
    let screen: Screen
    var description: String { "timed out waiting for \(expectation); the pane shows:\n\(screen)" }
}

/// debugsh running in an 80×24 pane of a private tmux server (`tmux -L debugsh-test-<pid>-<n>
/// -f /dev/null`, its socket in the test's temporary folder), with a fixed TERM and a clean
/// environment. The pane runs `debugsh; echo EXITED=$?; sleep 30`, so a test can read the exit
/// status after debugsh leaves.
final class TmuxPane {
    private static let serial = Atomic<Int>(0)

    let socket: String
    let home: TestHome
    private let tmux: String

    /// Starts debugsh and waits for its first prompt.
    ///
    /// - Parameters:
    ///   - home: where HOME and the XDG folders point.
    ///   - environment: more variables for debugsh (e.g. `DEBUGSH_TEST_STATUS`).
    ///   - afterExit: a shell command run in the pane once debugsh has left (`stty -a`).
    init(home: TestHome, environment: [String: String] = [:], afterExit: String = "") throws {
        tmux = try #require(
            TmuxPane.findExecutable("tmux"),
            "tmux is not installed: the interactive tests drive debugsh in tmux (apt-get install tmux)")
        let binary = try TmuxPane.debugshBinary()
        self.home = home
        socket = "debugsh-test-\(getpid())-\(TmuxPane.serial.add(1, ordering: .relaxed).newValue)"

        var variables = [
            "HOME": home.root,
            "XDG_STATE_HOME": home.stateHome,
            "XDG_CONFIG_HOME": home.configHome,
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "INPUTRC": "/dev/null",
            "PATH": "/usr/bin:/bin",
        ]
        variables.merge(environment) { $1 }
        // `trap true INT`: the shell around debugsh shares its process group and must survive
        // the Ctrl-C meant for debugsh.
        let script =
            variables.sorted { $0.key < $1.key }.map { "export \($0.key)=\(shellQuoted($0.value))\n" }.joined()
            + "unset NO_COLOR\ntrap true INT\n\(shellQuoted(binary)); echo EXITED=$?; \(afterExit)\nsleep 30\n"
        let scriptPath = home.root + "/pane-\(socket).sh"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)

        try tmuxCommand(
            "start-server", ";", "set-option", "-g", "status", "off", ";",
            "new-session", "-d", "-s", "pane", "-x", "80", "-y", "24", "/bin/sh \(shellQuoted(scriptPath))")
        try waitFor("the first prompt") { $0.lastPromptIndex != nil }
    }

    /// Ends the tmux server (and debugsh with it).
    func close() {
        do {
            try tmuxCommand("kill-server")
        } catch {
            Issue.record("cannot stop the tmux server: \(error)")
        }
    }

    /// Types text literally.
    func type(_ text: String) throws { try tmuxCommand("send-keys", "-t", "pane", "-l", text) }

    /// Presses keys by tmux's names: `Enter`, `Tab`, `Up`, `C-c`, `C-d`, `C-r`.
    func press(_ keys: String...) throws { try tmuxCommand(["send-keys", "-t", "pane"] + keys) }

    /// Sends bytes as they are, even ones that are not UTF-8 (`send-keys -H`).
    func sendBytes(_ bytes: [UInt8]) throws {
        try tmuxCommand(["send-keys", "-t", "pane", "-H"] + bytes.map { String($0, radix: 16) })
    }

    /// The visible pane only (tmux's scrollback keeps artefacts of screen clears), with wrapped
    /// rows joined.
    func screen() throws -> Screen { Screen(try tmuxCommand("capture-pane", "-p", "-J", "-t", "pane")) }

    /// The visible pane with its colours as escape codes (`capture-pane -e`).
    func screenWithEscapes() throws -> String { try tmuxCommand("capture-pane", "-p", "-e", "-t", "pane") }

    /// Resizes the pane's window (debugsh gets SIGWINCH).
    func resize(columns: Int) throws { try tmuxCommand("resize-window", "-t", "pane", "-x", String(columns)) }

    /// The cursor's row in the pane.
    func cursorRow() throws -> Int {
        Int(
            try tmuxCommand("display-message", "-p", "-t", "pane", "#{cursor_y}").trimmingCharacters(
                in: .whitespacesAndNewlines)) ?? -1
    }

    /// Polls the pane every 50 ms until `condition` holds.
    ///
    /// - Throws: ``PaneTimeout`` with the pane's contents when it does not within `seconds`.
    @discardableResult
    func waitFor(_ expectation: String, seconds: Double = 5, _ condition: (Screen) throws -> Bool) throws -> Screen {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let current = try screen()
            if try condition(current) { return current }
            if Date() > deadline { throw PaneTimeout(expectation: expectation, screen: current) }
            usleep(50_000)
        }
    }

    /// Types a command and waits until the prompt after it, showing virtual time `clockAfter`,
    /// stands under its output.
    @discardableResult
    func run(_ command: String, clockAfter: String) throws -> Screen {
        try type(command)
        try press("Enter")
        return try waitFor("'\(command)', then the prompt at \(clockAfter)") { $0.raw.last == "debugsh \(clockAfter)>" }
    }

    /// Waits until debugsh waits at an empty prompt again.
    @discardableResult
    func waitForPrompt(after expectation: String) throws -> Screen {
        try waitFor("\(expectation), then an empty prompt") { $0.lastLine == "debugsh>" }
    }

    // MARK: - Running tmux

    @discardableResult
    private func tmuxCommand(_ arguments: String...) throws -> String { try tmuxCommand(arguments) }

    @discardableResult
    private func tmuxCommand(_ arguments: [String]) throws -> String {
        // posix_spawn and waitpid rather than Foundation's Process, whose waitUntilExit can hang
        // off the main thread; output goes to a file rather than a pipe, because the server the
        // first command starts keeps the client's descriptors open, so a pipe would never end.
        let outputPath = home.root + "/tmux-output"
        let argv = [tmux, "-L", socket, "-f", "/dev/null"] + arguments
        // The server inherits this environment; its socket lives in the test's folder.
        let environment = ["TERM=xterm-256color", "LANG=C.UTF-8", "PATH=/usr/bin:/bin", "TMUX_TMPDIR=\(home.root)"]
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // A clean signal state: the test runs on a worker thread that blocks most signals, and
        // tmux would hand that mask down to debugsh, which then never sees SIGHUP.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid = pid_t()
        let spawned = posix_spawn(&pid, tmux, &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else {
            throw TmuxFailed(description: "cannot run \(tmux): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Exited normally with status 0 (WIFEXITED and WEXITSTATUS, which Swift does not import).
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw TmuxFailed(
                description: "tmux \(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
        return text
    }

    private static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin", "/bin"] {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The built debugsh: beside the test bundle, or in the package's `.build/debug`.
    static func debugshBinary(filePath: String = #filePath) throws -> String {
        var candidates: [String] = []
        if let runner = CommandLine.arguments.first, let resolved = realpath(runner, nil) {
            let folder = URL(fileURLWithPath: String(cString: resolved)).deletingLastPathComponent()
            free(resolved)
            candidates.append(folder.appendingPathComponent("debugsh").path)
        }
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                candidates.append(folder.appendingPathComponent(".build/debug/debugsh").path)
                break
            }
            folder.deleteLastPathComponent()
        }
        let found = candidates.first { path in
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
        }
        return try #require(found, "the debugsh binary is not built; looked at \(candidates)")
    }
}

/// A tmux command that failed, with what it printed.
struct TmuxFailed: Error, CustomStringConvertible {
    var description: String
}

/// `text` as one word for sh.
func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
