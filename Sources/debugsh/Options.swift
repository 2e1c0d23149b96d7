import ArgumentParser

/// The command line (README, Command line).
struct DebugshOptions: ParsableArguments {
    @Option(
        name: [.customShort("c"), .customLong("command")],
        help: ArgumentHelp("Run these commands (repeatable; after the scripts, in order).", valueName: "commands"))
    var commands: [String] = []

    @Flag(
        name: [.customShort("k"), .customLong("keep-going")],
        help: "Continue after a failed command; exit 1 at the end.")
    var keepGoing = false

    @Flag(name: .customLong("json"), help: "JSON lines on stdout: one per command and one per event.")
    var json = false

    @Flag(name: .customLong("echo"), help: "Print each script command before running it.")
    var echo = false

    @Flag(
        name: [.customShort("i"), .customLong("interactive")], help: "Stay interactive after the scripts and commands.")
    var interactive = false

    @Flag(name: .customLong("no-rc"), help: "Do not read the rc file ($XDG_CONFIG_HOME/debugsh/init.dsh).")
    var noRC = false

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp("Load a plugin library before the scripts run (repeatable).", valueName: "path"))
    var plugins: [String] = []

    @Flag(
        name: .customLong("no-plugins"),
        help: "Do not load the plugins in $XDG_CONFIG_HOME/debugsh/plugins/ at start.")
    var noPlugins = false

    @Option(
        name: .customLong("trace"),
        help: ArgumentHelp(
            "Record the whole run as a Chrome trace and write it to this file at the end.", valueName: "file.json"))
    var trace: String?

    @Option(
        name: .customLong("trace-categories"),
        help: ArgumentHelp(
            "With --trace, record only these, comma-separated: display, main, render, queues, modes, counters, tools, frames.",
            valueName: "categories"))
    var traceCategories: String?

    @Option(
        name: .customLong("trace-limit"),
        help: ArgumentHelp("With --trace, the most events kept (default 1000000).", valueName: "n"))
    var traceLimit: Int?

    @Option(
        name: .customLong("trace-keep"),
        help: ArgumentHelp(
            "With --trace, which events a full trace keeps: first (default; recording then stops) or last.",
            valueName: "first|last"))
    var traceKeep: String?

    @Flag(
        name: .customLong("check"),
        help: "Check the scripts (or stdin) without running them: every problem as file:line, exit 1 if any.")
    var check = false

    @Flag(
        name: .customLong("version"),
        help: "Print the version, the plugin API, the Swift compiler and the DebugShellCore fingerprint, and exit.")
    var version = false

    /// `debugsh test`'s child: report failures and final metrics to this file (docs/Testing.md).
    @Option(name: .customLong("test-report"), help: ArgumentHelp(visibility: .private))
    var testReport: String?

    /// `debugsh test`'s child: the runner's process id, so the child dies with its runner.
    @Option(name: .customLong("test-parent"), help: ArgumentHelp(visibility: .private))
    var testParent: Int32?

    @Argument(help: ArgumentHelp("Scripts to run, in order.", valueName: "script.dsh"))
    var scripts: [String] = []
}

/// The command line as the rest of debugsh reads it: plain values.
///
/// ArgumentParser builds its model of ``DebugshOptions`` at run time, from the types' metadata:
/// 9.7 million of the 29.5 million instructions of `debugsh --no-rc -c quit`. A command line of
/// plain flags, options each followed by its value, and script names — what scripts, the test
/// runner's children and the benchmarks pass — is read by ``init(quick:)`` instead, with the
/// same result; anything else (help, `--opt=value`, joined short flags, a repeated flag, a value
/// that starts with a dash, an error) goes to ArgumentParser, which answers as it always did.
struct CommandLineOptions: Equatable {
    var commands: [String] = []
    var keepGoing = false
    var json = false
    var echo = false
    var interactive = false
    var noRC = false
    var plugins: [String] = []
    var noPlugins = false
    var trace: String?
    var traceCategories: String?
    var traceLimit: Int?
    var traceKeep: String?
    var check = false
    var version = false
    var testReport: String?
    var testParent: Int32?
    var scripts: [String] = []

    init(_ o: DebugshOptions) {
        commands = o.commands
        keepGoing = o.keepGoing
        json = o.json
        echo = o.echo
        interactive = o.interactive
        noRC = o.noRC
        plugins = o.plugins
        noPlugins = o.noPlugins
        trace = o.trace
        traceCategories = o.traceCategories
        traceLimit = o.traceLimit
        traceKeep = o.traceKeep
        check = o.check
        version = o.version
        testReport = o.testReport
        testParent = o.testParent
        scripts = o.scripts
    }

    /// The command line read by ArgumentParser, whatever its shape; throws its errors (help and
    /// `--version`'s requests among them).
    static func parsed(_ arguments: [String]) throws -> CommandLineOptions {
        CommandLineOptions(try DebugshOptions.parse(arguments))
    }

    /// Reads a command line of the plain shapes alone; nil for anything else, which
    /// ArgumentParser reads (``DebugshOptions``).
    init?(quick arguments: [String]) {
        var seen = Set<String>()
        var k = 0
        /// The value after an option: an argument that is not empty and does not start with a dash.
        func value() -> String? {
            guard k + 1 < arguments.count else { return nil }
            let v = arguments[k + 1]
            guard let first = v.utf8.first, first != UInt8(ascii: "-") else { return nil }
            k += 1
            return v
        }
        while k < arguments.count {
            let a = arguments[k]
            guard let first = a.utf8.first else { return nil }
            if first != UInt8(ascii: "-") {
                scripts.append(a)
                k += 1
                continue
            }
            // Flags and single-value options once each; -c and --plugin repeat.
            let name: String
            switch a {
            case "-c", "--command": name = "-c"
            case "-k", "--keep-going": name = "-k"
            case "-i", "--interactive": name = "-i"
            default: name = a
            }
            if name != "-c" && name != "--plugin" && !seen.insert(name).inserted { return nil }
            switch name {
            case "-c":
                guard let v = value() else { return nil }
                commands.append(v)
            case "-k": keepGoing = true
            case "--json": json = true
            case "--echo": echo = true
            case "-i": interactive = true
            case "--no-rc": noRC = true
            case "--plugin":
                guard let v = value() else { return nil }
                plugins.append(v)
            case "--no-plugins": noPlugins = true
            case "--trace":
                guard let v = value() else { return nil }
                trace = v
            case "--trace-categories":
                guard let v = value() else { return nil }
                traceCategories = v
            case "--trace-limit":
                guard let v = value(), let n = Int(v) else { return nil }
                traceLimit = n
            case "--trace-keep":
                guard let v = value() else { return nil }
                traceKeep = v
            case "--check": check = true
            case "--test-report":
                guard let v = value() else { return nil }
                testReport = v
            case "--test-parent":
                guard let v = value(), let n = Int32(v) else { return nil }
                testParent = n
            default:
                return nil
            }
            k += 1
        }
    }
}
