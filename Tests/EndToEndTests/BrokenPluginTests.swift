import DebugShellTesting
import Foundation
import Testing

/// A plugin's code outside a tool's methods traps (issue 34, points 4 and 6; docs/Plugins.md,
/// "When a plugin traps"): its loading, entry points and descriptor, `isSaying(_:)`, output made
/// after its command returned, a `deinit` at `reset`, a thread of its own. Each is the plugin's
/// trap, named as such, at the virtual time it happened, and the recording replays into it — a
/// load and a reset included. On the built binary, with Tests/Fixtures/BrokenPlugins built once
/// per test run in a temporary folder against this checkout.
@Suite(.serialized) struct BrokenPluginTests {
    /// The library, by the path the dynamic linker resolves (a replay names that file).
    func library() throws -> String {
        URL(fileURLWithPath: try BrokenPlugins.library.get()).resolvingSymlinksInPath().path
    }

    let isolated = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
    ]

    /// One trap: where the fixture traps (`DEBUGSH_TEST_BROKEN`, for the load), the options, the
    /// commands after `record r.dsh` (`LIB` for the library), the last words after `debugsh: `
    /// (`LIB` too), the signal, and a line the recording has before its last-words comment.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var place = ""
        var options: [String] = []
        var commands: [String]
        var words: String
        var signal: Int32 = 4
        var recorded: String

        var testDescription: String { name }
    }

    static let loaded = ["plugin load 'LIB'", "run 500ms"]

    static let cases: [Case] = [
        Case(
            name: "initializer", place: "initializer", commands: ["run 500ms", "plugin load 'LIB'"],
            words:
                "the plugin library 'LIB' aborted while the dynamic linker loaded it (its initializers) at 0.500s, during 'plugin load 'LIB'' (<command-line>:3)",
            signal: 6, recorded: "plugin load LIB"),
        Case(
            name: "version", place: "version", commands: ["run 500ms", "plugin load 'LIB'"],
            words:
                "the plugin library 'LIB' trapped in its entry point debugsh_plugin_api_version at 0.500s, during 'plugin load 'LIB'' (<command-line>:3)",
            recorded: "plugin load LIB"),
        Case(
            name: "manifest", place: "manifest", commands: ["run 500ms", "plugin load 'LIB'"],
            words:
                "the plugin library 'LIB' trapped in its entry point debugsh_plugin_manifest at 0.500s, during 'plugin load 'LIB'' (<command-line>:3)",
            recorded: "plugin load LIB"),
        Case(
            name: "descriptor", place: "descriptor", commands: ["run 500ms", "plugin load 'LIB'"],
            words:
                "plugin 'broken' trapped in its descriptor (DescribedTool.descriptor) at 0.500s, during 'plugin load 'LIB'' (<command-line>:3)",
            recorded: "plugin require broken --from LIB"),
        Case(
            name: "isSaying", commands: loaded + ["break on saying.said"],
            words:
                "plugin 'broken' (tool 'saying') trapped in isSaying(_:) for 'saying.said' at 0.500s, during 'break on saying.said' (<command-line>:4)",
            recorded: "break on saying.said"),
        Case(
            name: "streamed text", commands: loaded + ["stream lines"],
            words:
                "plugin 'broken' (tool 'stream') trapped in its streamed output 'stream lines' (<command-line>:4) at 0.500s",
            recorded: "stream lines"),
        Case(
            name: "streamed JSON", options: ["--json"], commands: loaded + ["stream lines"],
            words:
                "plugin 'broken' (tool 'stream') trapped in its JSON result 'stream lines' (<command-line>:4) at 0.500s",
            recorded: "stream lines"),
        Case(
            name: "JSON result", options: ["--json"], commands: loaded + ["stream value"],
            words:
                "plugin 'broken' (tool 'stream') trapped in its JSON result 'stream value' (<command-line>:4) at 0.500s",
            recorded: "stream value"),
        Case(
            name: "deinit at reset", commands: ["plugin load 'LIB'", "leaving arm", "run 500ms", "reset"],
            words:
                "plugin 'broken' (tool 'leaving') trapped in its deinit at reset at 0.500s, during 'reset' (<command-line>:5)",
            recorded: "reset"),
        Case(
            name: "deinit of what a callback held, at reset",
            commands: ["plugin load 'LIB'", "leaving arm-timer", "run 500ms", "reset"],
            words:
                "plugin 'broken' (tool 'leaving') trapped in its deinit at reset at 0.500s, during 'reset' (<command-line>:5)",
            recorded: "reset"),
        Case(
            name: "init at reset", commands: ["plugin load 'LIB'", "leaving arm-init", "run 500ms", "reset"],
            words:
                "plugin 'broken' (tool 'leaving') trapped in init(host:) at 0.500s, during 'reset' (<command-line>:5)",
            recorded: "reset"),
        Case(
            name: "own thread", commands: loaded + ["threads"],
            words: "plugin 'broken' trapped in a thread it started at 0.500s, during 'threads' (<command-line>:4)",
            recorded: "threads"),
    ]

    /// The last words without what differs between a session and its replay: where a command
    /// was (`<command-line>:4`, `r.dsh:5`), the command that ran (its words as typed), what
    /// was kept.
    static func comparable(_ words: String) -> String {
        var text = words.components(separatedBy: "; kept:").first ?? words
        text = text.components(separatedBy: ", during").first ?? text
        return text.replacing(#/ \((<command-line>|r\.dsh):\d+\)/#, with: "")
    }

    /// Each trap is the plugin's — named, with what of it ran and the virtual time — never "a bug
    /// in debugsh"; the recording has the command that trapped (the load, the reset) before its
    /// last-words line, and replays into the same trap.
    @Test(arguments: BrokenPluginTests.cases)
    func theTrapIsThePluginsAndReplays(_ trap: Case) throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = isolated
        environment["DEBUGSH_TEST_BROKEN"] = trap.place
        let commands = (["record r.dsh"] + trap.commands).map { $0.replacingOccurrences(of: "LIB", with: lib) }
        let r = try Binary.run(
            ["--no-rc"] + trap.options + commands.flatMap { ["-c", $0] }, directory: dir, environment: environment)
        let words = trap.words.replacingOccurrences(of: "LIB", with: lib)
        #expect(r.status == 128 + trap.signal, "\(r)")
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("debugsh: " + words + "; kept: the recording r.dsh ("), "\(r)")
        #expect(!r.stderr.contains("a bug in debugsh"), "\(r)")
        let recording = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        let lines = recording.split(separator: "\n").map(String.init)
        let note = lines.firstIndex { $0.hasPrefix("# debugsh stopped here: ") }
        let command = lines.lastIndex(of: trap.recorded.replacingOccurrences(of: "LIB", with: lib))
        #expect(note == lines.count - 1 && lines.last == "# debugsh stopped here: " + words, "\(recording)")
        #expect(command != nil && command! < note ?? 0, "\(recording)")
        // Logged once: a command whose output trapped was logged before its output was made.
        #expect(
            lines.filter { $0 == trap.recorded.replacingOccurrences(of: "LIB", with: lib) }.count == 1, "\(recording)")
        // The replay runs into the same trap, with the same options.
        let replay = try Binary.run(["--no-rc"] + trap.options + ["r.dsh"], directory: dir, environment: environment)
        #expect(replay.status == 128 + trap.signal, "\(replay)")
        let replayed = replay.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(replayed.hasPrefix("debugsh: "), "\(replay)")
        #expect(Self.comparable(replayed) == Self.comparable(last), "\(replayed)\n\(last)")
    }

    /// Output made before the trap is out: the streamed output's first line, the JSON lines of
    /// the commands before.
    @Test func outputBeforeTheTrapIsKept() throws {
        let lib = try library()
        let r = try Binary.run(
            ["--no-rc", "-c", "plugin load '\(lib)'", "-c", "stream lines"], environment: isolated)
        #expect(r.status == 132, "\(r)")
        #expect(r.stdout.hasSuffix("the first line\n"), "\(r)")
    }

    /// debugsh does not let go of the tools when it ends (the process ends with them): a tool
    /// whose deinit traps ends a script, and `quit`, as any other (docs/Plugins.md).
    @Test func noDeinitRunsAtTheEnd() throws {
        let lib = try library()
        for last in ["run 1s", "quit"] {
            let r = try Binary.run(
                ["--no-rc", "-c", "plugin load '\(lib)'", "-c", "leaving arm", "-c", last], environment: isolated)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        }
    }

    /// With two plugins loaded, a thread's trap names both: which one started the thread is not
    /// known (docs/Plugins.md, "When a plugin traps").
    @Test func aThreadWithTwoPluginsLoadedNamesBoth() throws {
        let lib = try library()
        let careless = try CarelessPlugin.library.get()
        let r = try Binary.run(
            [
                "--no-rc", "-c", "plugin load '\(careless)'", "-c", "plugin load '\(lib)'", "-c", "run 250ms", "-c",
                "threads",
            ], environment: isolated)
        #expect(r.status == 132, "\(r)")
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            last
                == "debugsh: a plugin (one of: careless, broken) trapped in a thread it started at 0.250s, during 'threads' (<command-line>:4)",
            "\(r)")
    }
}
