import ArgumentParser

/// `debugsh test`'s command line (docs/Testing.md).
struct TestOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debugsh test",
        abstract: "Run scripts as a test suite: each file in a fresh session, in parallel, with a summary.",
        discussion:
            "A folder is searched recursively for *.dsh files (hidden folders and .build skipped). A failed "
            + "'expect' is recorded and the file goes on; a command that errors ends it. Exit status: 0 all "
            + "passed, 1 any failed, errored, crashed or timed out, 2 a usage error. A script named 'test' "
            + "runs as 'debugsh ./test'. docs/Testing.md has the details.")

    @Option(
        name: [.customShort("j"), .customLong("jobs")],
        help: ArgumentHelp("Run this many files at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(
        name: [.customShort("k"), .customLong("keep-going")],
        help: "A command that errors does not end its file either (each error is reported).")
    var keepGoing = false

    @Option(name: .customLong("junit"), help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(
        name: .customLong("annotations"),
        help: ArgumentHelp(
            "GitHub Actions annotations (::error) for each failure: github or none (default: github when "
                + "GITHUB_ACTIONS=true).", valueName: "github|none"))
    var annotations: String?

    @Flag(
        name: .customLong("check"),
        help:
            "Check each file without running it, as the main command's --check does: every problem an error at its line."
    )
    var check = false

    @Flag(name: .customLong("json"), help: "JSON lines on stdout: one per file, then the summary (docs/JSON.md).")
    var json = false

    @Option(
        name: .customLong("shard"),
        help: ArgumentHelp("Run only shard i of n: a stable share of the files, by path.", valueName: "i/n"))
    var shard: String?

    @Flag(name: .customLong("list"), help: "Print the files this run would take, one per line, and exit.")
    var list = false

    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp(
            "Take only files whose path contains this text, or matches it as a glob when it has * ? or [ "
                + "(repeatable: any of them).", valueName: "text"))
    var filters: [String] = []

    @Option(
        name: .customLong("timeout"),
        help: ArgumentHelp(
            "Stop a file that runs longer than this, in wall-clock time (60s, 500ms); it is an error.",
            valueName: "duration"))
    var timeout: String?

    @Option(
        name: .customLong("baseline"),
        help: ArgumentHelp("Fail a file whose final metrics moved from this baseline.", valueName: "file.json"))
    var baseline: String?

    @Flag(
        name: .customLong("strict"),
        help: "With --baseline, a file the baseline does not hold fails (it is said either way).")
    var strict = false

    @Option(
        name: .customLong("update-baseline"),
        help: ArgumentHelp("Store each file's final metrics in this baseline (others kept).", valueName: "file.json"))
    var updateBaseline: String?

    @Option(
        name: .customLong("slowest"),
        help: ArgumentHelp("How many of the slowest files the summary names (default 5).", valueName: "n"))
    var slowest = 5

    @Flag(
        name: [.customShort("x"), .customLong("exitfirst")],
        help: "Start no more files after the first that fails or errors (--maxfail 1).")
    var exitFirst = false

    @Option(
        name: .customLong("maxfail"),
        help: ArgumentHelp(
            "Start no more files after this many failed or errored; those running finish.", valueName: "n"))
    var maxFail: Int?

    @Flag(
        name: [.customLong("lf"), .customLong("last-failed")],
        help:
            "Run only the files that failed or errored last time (remembered in .debugsh-cache/lastfailed); all when none did."
    )
    var lastFailed = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help: "Print each file's failures as soon as it ends, under its line, not only in the summary.")
    var verbose = false

    @Argument(
        help: ArgumentHelp(
            "Files and folders to run (default: the current folder).", valueName: "file or folder"))
    var paths: [String] = []
}
