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
