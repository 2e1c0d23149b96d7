import DebugShellTesting
import Foundation
import Testing

/// A plugin that traps — a failed precondition in its code, wherever it runs — cannot take the
/// session's work with it (docs/Plugins.md, "When a plugin traps"): each trap runs in a child
/// process (the built binary), and the test reads what it left.
@Suite(.serialized) struct TrapTests {
    func library() throws -> String { try CarelessPlugin.library.get() }

    let isolated = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
    ]

    /// The script each trap interrupts: a recording and a trace from the start, the FPS meter,
    /// then the plugin's tool in every place a tool's code runs.
    func arguments(_ lib: String) -> [String] {
        [
            "--no-rc", "--trace", "t.json", "-c", "record r.dsh", "-c", "fps start", "-c", "plugin load '\(lib)'",
            "-c", "traps start", "-c", "run 500ms", "-c", "get traps.calls", "-c", "set traps.level 2", "-c", "status",
            "-c", "traps boom",
        ]
    }

    /// Where the tool traps, and the start of the last words that must name it.
    static let places: [(place: String, words: String, line: Int, signal: Int32)] = [
        ("init", "plugin 'careless' (tool 'traps') trapped in init(host:) at 0.000s, during 'plugin load", 3, 4),
        (
            "block",
            "plugin 'careless' (tool 'traps') trapped in a main-queue block it queued at 0.000s, during 'run 500ms'", 5,
            4
        ),
        (
            "link",
            "plugin 'careless' (tool 'traps') trapped in its display-link callback 'trap link' at 0.033s, during 'run 500ms'",
            5, 4
        ),
        (
            "observer", "plugin 'careless' (tool 'traps') trapped in device(_:observed:) at 0.033s, during 'run 500ms'",
            5, 4
        ),
        (
            "gcd",
            "plugin 'careless' (tool 'traps') trapped in its GCD timer handler 'trap gcd' at 0.150s, during 'run 500ms'",
            5, 4
        ),
        (
            "timer",
            "plugin 'careless' (tool 'traps') trapped in its NSTimer callback 'trap timer' at 0.200s, during 'run 500ms'",
            5, 4
        ),
        (
            "metric",
            "plugin 'careless' (tool 'traps') trapped in metric(_:) for 'traps.calls' at 0.500s, during 'get traps.calls'",
            6, 4
        ),
        (
            "setting",
            "plugin 'careless' (tool 'traps') trapped in settingDidChange(_:) for 'traps.level' at 0.500s, during 'set traps.level 2'",
            7, 4
        ),
        ("status", "plugin 'careless' (tool 'traps') trapped in statusLine() at 0.500s, during 'status'", 8, 4),
        (
            "command",
            "plugin 'careless' (tool 'traps') trapped in its command 'traps boom' (<command-line>:9) at 0.500s", 9, 4
        ),
        (
            "segv",
            "plugin 'careless' (tool 'traps') crashed (segmentation fault) in its command 'traps boom' (<command-line>:9) at 0.500s",
            9,
            11
        ),
    ]

    /// Wherever the plugin traps, the last words name it, the place and the time; the recording
    /// keeps every command before the trap and replays into the same trap; the trace is written
    /// whole, with as many events as the last words say; the output before the trap is there; no
    /// Swift backtrace; the status is 128 + the signal's number.
    @Test(arguments: Array(0..<TrapTests.places.count))
    func whateverTrapsTheWorkIsKept(_ index: Int) throws {
        let (place, words, line, signal) = Self.places[index]
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = isolated
        environment["DEBUGSH_TEST_TRAP"] = place
        let r = try Binary.run(arguments(lib), directory: dir, environment: environment)
        #expect(r.status == 128 + signal, "\(r)")
        #expect(!r.stderr.contains("Backtracing") && !r.stderr.contains("Thread 0"), "\(r)")
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("debugsh: " + words), "\(place): \(last)")
        if place != "command" && place != "segv" && place != "init" {
            #expect(last.contains("(<command-line>:\(line))"), "\(place): \(last)")
        }
        // What was kept, as the last words count it and as the file holds it: every recorded
        // command up to the one that trapped (`record`, `plugin load` and `run` are not commands
        // of a recording; `run` is its time lines).
        let expected = [2, 4, 6, 7, 8, 9].filter { $0 <= line }.count
        let recording = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        let recordedCommands = recording.split(separator: "\n").filter {
            !$0.hasPrefix("#") && !$0.hasPrefix("run ") && !$0.hasPrefix("plugin require")
        }
        #expect(recordedCommands.count == expected, "\(recording)")
        // The last words count the plugin's `plugin require`, written where it was loaded, too:
        // a load that trapped (in its init) is in the recording, so that the replay traps there.
        let keptCommands = expected + 1
        #expect(recording.contains("\nplugin require careless --from "), "\(recording)")
        #expect(
            last.contains("kept: the recording r.dsh (\(keptCommands) command\(keptCommands == 1 ? "" : "s"))"),
            "\(last)\n\(recording)")
        #expect(recording.contains("\n# debugsh stopped here: " + words), "\(recording)")
        let trace = try Data(contentsOf: dir.appendingPathComponent("t.json"))
        let json = try JSONSerialization.jsonObject(with: trace) as? [String: Any]
        let events = (json?["traceEvents"] as? [[String: Any]]) ?? []
        // An event of the trace is a record: a frame's slice is written as its begin and end (and a
        // marker), and the marker of where the trace ends is the trace's, not an event of it.
        let kept = events.filter {
            !["M", "e", "n"].contains($0["ph"] as? String ?? "") && ($0["s"] as? String) != "g"
        }.count
        // It ends at the trap, and says so.
        let end = events.filter { ($0["s"] as? String) == "g" }
        #expect(end.count == 1 && end.first?["name"] as? String == "trace ends: trap", "\(end)")
        let detail = (end.first?["args"] as? [String: Any])?["detail"] as? String ?? ""
        #expect(detail.hasPrefix(words), "\(detail)")
        #expect(
            last.contains("the trace t.json (\(kept == 1 ? "1 event" : "\(kept.formatted()) events"))"),
            "\(last): \(kept)")
        // The output before the trap is not lost with the process.
        if line > 6 { #expect(r.stdout.contains("traps.calls = "), "\(r)") }
        // The recording replays into the same trap: what trapped can be run again.
        let replay = try Binary.run(["--no-rc", "r.dsh"], directory: dir, environment: environment)
        #expect(replay.status == 128 + signal, "\(replay)")
        let replayed = replay.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let what = words.components(separatedBy: ", during").first ?? words
        #expect(
            replayed.hasPrefix("debugsh: " + what.components(separatedBy: " (<command-line>").first!), "\(replayed)")
    }
}
