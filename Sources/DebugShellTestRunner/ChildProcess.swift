#if canImport(Glibc)
    import Glibc
#endif

/// A file's run: this binary again (`/proc/self/exe`) in a session and process group of its own, standard
/// input from /dev/null, standard output and error into files, so a crash or a trap of the child
/// cannot take the runner down and a timeout can stop the child and whatever it started.
final class ChildProcess {
    let pid: pid_t
    let started: Double
    /// When the runner sent SIGTERM at the timeout; SIGKILL follows ``grace`` seconds later.
    var terminatedAt: Double?
    /// The runner stopped it for Ctrl-C rather than at the timeout.
    var stoppedByInterrupt = false
    var killed = false

    /// Seconds between SIGTERM and SIGKILL.
    static let grace = 2.0

    /// Internal, not private, so that the unit tests can hand `TestRunner.finished` a child that
    /// never ran; ``start(_:stdout:stderr:)`` makes the real ones.
    init(pid: pid_t, started: Double) {
        self.pid = pid
        self.started = started
    }

    /// Starts `arguments` (the first is argv[0]) as this same executable.
    static func start(_ arguments: [String], stdout: String, stderr: String) -> ChildProcess? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own (so a process group of its own, led by the child): no terminal
        // to read or to be stopped by, and, where the kernel groups CPU time by session
        // (autogroup), a share of its own, as files run from separate shells would have.
        // POSIX_SPAWN_SETSID (glibc 2.26 and later, /usr/include/spawn.h) is declared only under
        // _GNU_SOURCE, which Swift's Glibc module does not see.
        let setsid: Int32 = 0x80
        posix_spawnattr_setflags(&attributes, Int16(setsid | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = Clock.seconds()
        guard posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, environ) == 0 else { return nil }
        return ChildProcess(pid: pid, started: started)
    }

    /// Signals the child's whole process group.
    func signal(_ signal: Int32) { kill(-pid, signal) }
}

/// The wall clock of the runner (never of a session): monotonic seconds.
enum Clock {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds as reports print them: `0.123s`.
    static func text(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// Now in UTC as ISO 8601 (`2026-11-27T23:40:00`), JUnit's `timestamp`.
    static func isoNow() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

/// Signal names for crash reports.
enum SignalName {
    static func of(_ signal: Int32) -> String {
        switch signal {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGSEGV: return "SIGSEGV"
        case SIGPIPE: return "SIGPIPE"
        case SIGTERM: return "SIGTERM"
        default: return "signal \(signal)"
        }
    }
}
