import Foundation
import Testing

/// The built debugsh running as a child process that a test can watch, interrupt with a real
/// SIGINT and measure: wall time and peak resident memory, with a time limit after which it is
/// killed.
///
/// The peak is the kernel's high-water mark of the process's memory (`VmHWM` in
/// `/proc/<pid>/status`), read every 2 ms until it ends, so growth in its last 2 ms could go
/// unseen. `wait4`'s `ru_maxrss` cannot serve: a child spawned from the test process (vfork, then
/// exec) starts with the test process's own peak, 150 MB and more.
///
/// Unlike ``Binary/run(_:stdin:stdinData:directory:environment:timeout:)`` it can keep standard
/// output without storing it (only its size and its last bytes), so a test of a long listing
/// does not hold the listing itself.
final class Spawned {
    /// How a run ended.
    struct Ended: CustomStringConvertible {
        var stdout: String
        var stdoutBytes: Int
        var stderr: String
        /// The exit status, or 128 + the signal that ended it (as a shell reports it).
        var status: Int32
        /// The process was killed at the time limit.
        var timedOut: Bool
        var seconds: Double
        /// Peak resident memory, in MB (see ``Spawned``).
        var peakMB: Double

        var description: String {
            "status \(status)\(timedOut ? " (killed at the time limit)" : ""), \(String(format: "%.2f", seconds)) s, "
                + "peak \(String(format: "%.1f", peakMB)) MB, \(stdoutBytes) bytes of stdout\n"
                + "--- stdout (the end):\n\(stdout.suffix(2000))\n--- stderr:\n\(stderr.prefix(4000))"
        }
    }

    let pid: pid_t
    private let started = Date()
    private let stdoutCollector: Collector
    private let stderrCollector: Collector

    /// Starts debugsh.
    ///
    /// - Parameters:
    ///   - keepStdout: keep standard output whole; otherwise only its size and its last 64 KB.
    ///   - stdinPath: a file for standard input (default: an empty pipe, closed at once).
    ///   - stdoutPath: a file for standard output instead of the pipe this object reads.
    ///   - stdoutDescriptor: a descriptor for standard output instead (a pipe the test holds).
    init(
        _ arguments: [String], directory: URL, keepStdout: Bool = true, stdinPath: String? = nil,
        stdoutPath: String? = nil, stdoutDescriptor: Int32? = nil, environment: [String: String] = [:]
    ) throws {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["COLUMNS"] = "80"
        for (k, v) in environment { env[k] = v }
        // sh changes to the folder, then becomes debugsh (same process: the same pid and usage).
        let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, Binary.path] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }

        // Standard input: the file given, or a pipe that is closed at once (end of input).
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw SpawnFailed(description: "pipe failed")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdinPath {
            posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        }
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY, 0)
        } else if let stdoutDescriptor {
            posix_spawn_file_actions_adddup2(&actions, stdoutDescriptor, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        }
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        // A clean signal state: test threads block signals, and the child would inherit that.
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
        var child = pid_t()
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, cArguments, cEnvironment)
        close(inPipe[0])
        close(inPipe[1])
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw SpawnFailed(description: "cannot run \(Binary.path): \(String(cString: strerror(spawned)))")
        }
        pid = child
        stdoutCollector = Collector(fd: outPipe[0], keepAll: keepStdout)
        stderrCollector = Collector(fd: errPipe[0], keepAll: true)
    }

    /// Waits until standard output holds `text` (within its last 64 KB when not kept whole).
    func waitForStdout(_ text: String, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(max(seconds, Spawned.hangGuard))
        while Date() < deadline {
            if stdoutCollector.contains(text) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits until standard error holds `text`.
    func waitForStderr(_ text: String, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(max(seconds, Spawned.hangGuard))
        while Date() < deadline {
            if stderrCollector.contains(text) { return true }
            usleep(2_000)
        }
        return false
    }

    /// Waits until the process has a file open in `folder` (a save under way: a temporary file
    /// has no name there yet, but its descriptor names the folder).
    func waitForOpenFile(in folder: URL, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(max(seconds, Spawned.hangGuard))
        let paths = [folder.resolvingSymlinksInPath().path, folder.path]
        while Date() < deadline {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            for fd in fds {
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
                if let target, paths.contains(where: { target.hasPrefix($0) }) { return true }
            }
            usleep(200)
        }
        return false
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() { kill(pid, SIGINT) }

    /// Sends `signal` (SIGTERM, SIGHUP) to the child.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// A wait is for a sign (the child's end, a line, an open file); its limit only guards
    /// against a hang, so it is never shorter than this: a CI machine as busy as ours must not
    /// fail a test on time. The `seconds` the callers give say what they expect, not a bound.
    static let hangGuard: Double = 600

    /// Waits for the process to end, killing it at the time limit (at least ``hangGuard``).
    func wait(seconds: Double) -> Ended {
        let deadline = Date().addingTimeInterval(max(seconds, Spawned.hangGuard))
        var status: Int32 = 0
        var timedOut = false
        var peakKB = 0
        while true {
            peakKB = max(peakKB, highWaterMarkKB())
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { break }
            if Date() > deadline && !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(2_000)
        }
        let seconds = Date().timeIntervalSince(started)
        stdoutCollector.finish()
        stderrCollector.finish()
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return Ended(
            stdout: stdoutCollector.text, stdoutBytes: stdoutCollector.count, stderr: stderrCollector.text,
            status: code, timedOut: timedOut, seconds: seconds, peakMB: Double(peakKB) / 1024)
    }

    /// `VmHWM` of the running process, in kB (0 once it has ended, and before it runs debugsh:
    /// between the spawn and the exec the child is still the test process, whose own peak — a
    /// test that imports a large file in-process reaches 400 MB — it would report).
    private func highWaterMarkKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let lines = status.split(separator: "\n")
        guard lines.contains(where: { $0 == "Name:\tdebugsh" }),
            let line = lines.first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Runs debugsh to its end.
    static func run(
        _ arguments: [String], directory: URL, keepStdout: Bool = true, stdinPath: String? = nil,
        stdoutPath: String? = nil, environment: [String: String] = [:], seconds: Double = 60
    ) throws -> Ended {
        try Spawned(
            arguments, directory: directory, keepStdout: keepStdout, stdinPath: stdinPath, stdoutPath: stdoutPath,
            environment: environment
        ).wait(seconds: seconds)
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    /// The first 64 KB, kept even when `data` keeps only the tail, so a wait for early output
    /// cannot miss it.
    private var head = Data()
    private var total = 0
    private let keepAll: Bool
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32, keepAll: Bool) {
        self.keepAll = keepAll
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                lock.lock()
                total += n
                if head.count < 1 << 16 { head.append(contentsOf: buffer[0..<min(n, (1 << 16) - head.count)]) }
                data.append(contentsOf: buffer[0..<n])
                if !keepAll && data.count > 1 << 17 { data = data.suffix(1 << 16) }
                lock.unlock()
            }
            close(fd)
            done.signal()
        }
        thread.start()
    }

    /// Waits for the end of the pipe.
    func finish() { done.wait() }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether the output so far holds `text`, in its first 64 KB or in what is kept.
    func contains(_ text: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: head, as: UTF8.self).contains(text)
            || String(decoding: data, as: UTF8.self).contains(text)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
}

struct SpawnFailed: Error, CustomStringConvertible {
    var description: String
}
