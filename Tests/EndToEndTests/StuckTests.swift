import DebugShellTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin whose call never returns, or that calls `exit`, cannot take the session's work with
/// it (docs/Plugins.md, "When a plugin does not return"): the watchdog ends the call after
/// `plugin.deadline`, at a second Ctrl-C, at SIGTERM or SIGHUP, and an exit handler catches the
/// plugin's `exit`; each keeps the recording, the trace and the history as a trap does. Each
/// case runs the built binary with the stuck plugin (Tests/Fixtures/StuckPlugin) and reads what
/// it left.
@Suite(.serialized) struct StuckTests {
    func library() throws -> String { try StuckPlugin.library.get() }

    let isolated = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
    ]

    /// A recording and a trace from the start, the FPS meter, a quarter of a second, then the
    /// plugin's `stuck <verb>` (line 6), then a second of time (line 7).
    func arguments(_ lib: String, deadline: String, verb: String) -> [String] {
        [
            "--no-rc", "--trace", "t.json", "-c", "record r.dsh", "-c", "set plugin.deadline \(deadline)", "-c",
            "fps start", "-c", "plugin load '\(lib)'", "-c", "run 250ms", "-c", "stuck \(verb)", "-c", "run 1s",
        ]
    }

    /// What the run left: its last words (the last line of standard error), the recording, and
    /// the trace's events and end marker.
    struct Kept {
        var last: String
        var recording: String
        var events: Int
        var end: [[String: Any]]
    }

    /// Reads what the run left in `dir`, and checks that the last words count it right.
    func kept(_ r: Spawned.Ended, in dir: URL) throws -> Kept {
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let recording = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        let trace = try Data(contentsOf: dir.appendingPathComponent("t.json"))
        let json = try JSONSerialization.jsonObject(with: trace) as? [String: Any]
        let events = (json?["traceEvents"] as? [[String: Any]]) ?? []
        let counted = events.filter {
            !["M", "e", "n"].contains($0["ph"] as? String ?? "") && ($0["s"] as? String) != "g"
        }.count
        #expect(
            last.contains("; kept: the recording r.dsh (") && last.hasSuffix(", the trace t.json (\(counted) events)"),
            "\(last)")
        return Kept(
            last: last, recording: recording, events: counted, end: events.filter { ($0["s"] as? String) == "g" })
    }

    /// The commands of a recording, `# ` comments and time lines aside.
    func commands(_ recording: String) -> [String] {
        recording.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.hasPrefix("run ") }
    }

    /// A command that never returns ends at `plugin.deadline`: the last words name the plugin,
    /// the command with its `file:line` and the virtual time; the recording keeps every command
    /// up to it, with the last words as its last line, and replays into the same wait; the trace
    /// is whole and says where it ends; the status is 124, as `timeout`'s.
    @Test func aCommandThatNeverReturnsEndsAtTheDeadlineKeepingItsWork() throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Spawned.run(arguments(lib, deadline: "200ms", verb: "spin"), directory: dir, environment: isolated)
        #expect(r.status == 124, "\(r)")
        #expect(r.stderr.contains("stuck: spinning in a command"), "\(r)")
        let words =
            "plugin 'stuck' did not return from its command 'stuck spin' (<command-line>:6) at 0.250s: stopped after 200ms of wall time (plugin.deadline)"
        let k = try kept(r, in: dir)
        #expect(k.last.hasPrefix("debugsh: " + words + "; kept: the recording r.dsh (4 commands)"), "\(k.last)")
        #expect(k.recording.hasSuffix("\n# debugsh stopped here: " + words + "\n"), "\(k.recording)")
        #expect(commands(k.recording).last == "stuck spin", "\(k.recording)")
        #expect(k.end.count == 1 && k.end.first?["name"] as? String == "trace ends: plugin did not return", "\(k.end)")
        let detail = (k.end.first?["args"] as? [String: Any])?["detail"] as? String
        #expect(detail?.hasPrefix(words) == true, "\(k.end)")
        // The output before the plugin's call is not lost with the process.
        #expect(r.stdout.contains("loaded plugin stuck 1.0.0: stuck"), "\(r)")
        // Replayed, the recording waits in the same call and ends the same way.
        let replay = try Spawned.run(["--no-rc", "r.dsh"], directory: dir, environment: isolated)
        #expect(replay.status == 124, "\(replay)")
        let replayed = replay.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(
            replayed.hasPrefix("debugsh: plugin 'stuck' did not return from its command 'stuck spin' (r.dsh:"),
            "\(replayed)")
    }

    /// A display-link callback that waits for time to pass — which cannot, while it waits — ends
    /// the same way, named as the callback, at the virtual time it started, during the `run`.
    @Test func aLivelockedCallbackEndsAtTheDeadlineKeepingItsWork() throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Spawned.run(arguments(lib, deadline: "200ms", verb: "link"), directory: dir, environment: isolated)
        #expect(r.status == 124, "\(r)")
        let words =
            "plugin 'stuck' did not return from its display-link callback 'stuck link' at 0.283s, during 'run 1s' (<command-line>:7): stopped after 200ms of wall time (plugin.deadline)"
        let k = try kept(r, in: dir)
        #expect(k.last.hasPrefix("debugsh: " + words + "; kept: the recording r.dsh ("), "\(k.last)")
        #expect(k.recording.hasSuffix("\n# debugsh stopped here: " + words + "\n"), "\(k.recording)")
        #expect(k.end.first?["name"] as? String == "trace ends: plugin did not return", "\(k.end)")
    }

    /// Runs `stuck spin` with no deadline, waits until the plugin says it spins, and sends
    /// `signals`, each after the sign that the one before arrived; returns the end and the wall
    /// time from the last signal to the end.
    func signalled(_ signals: [Int32], dir: URL) throws -> (Spawned.Ended, Double) {
        let lib = try library()
        let child = try Spawned(arguments(lib, deadline: "0s", verb: "spin"), directory: dir, environment: isolated)
        #expect(child.waitForStderr("stuck: spinning in a command"))
        var sent = Date()
        for (i, signal) in signals.enumerated() {
            // A second SIGINT sent before the first was handled would merge with it: wait for the
            // watchdog's hint that the first arrived.
            if i > 0 && signals[i - 1] == SIGINT { #expect(child.waitForStderr("Ctrl-C again ends debugsh")) }
            sent = Date()
            child.send(signal)
        }
        let r = child.wait(seconds: 60)
        return (r, Date().timeIntervalSince(sent))
    }

    /// Ctrl-C twice during a call that does not return ends the shell, keeping its work (the
    /// first one stops time, which the call never gives back; the watchdog says so, and the
    /// second ends it). The time from the second Ctrl-C to the end is measured, not asserted.
    @Test func ctrlCTwiceDuringAStuckCallKeepsTheWork() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (r, seconds) = try signalled([SIGINT, SIGINT], dir: dir)
        print(
            "measured: Ctrl-C twice during a stuck call: the shell ended \(String(format: "%.3f", seconds)) s after the second"
        )
        #expect(r.status == 130, "\(r)")
        #expect(r.stderr.contains("debugsh: a plugin's call has not returned since Ctrl-C"), "\(r)")
        let words =
            "plugin 'stuck' did not return from its command 'stuck spin' (<command-line>:6) at 0.250s: stopped by a second Ctrl-C"
        let k = try kept(r, in: dir)
        #expect(k.last.hasPrefix("debugsh: " + words + "; kept: the recording r.dsh (4 commands)"), "\(k.last)")
        #expect(k.recording.hasSuffix("\n# debugsh stopped here: " + words + "\n"), "\(k.recording)")
        #expect(k.end.first?["name"] as? String == "trace ends: plugin did not return", "\(k.end)")
    }

    /// SIGTERM (a CI job cancelled) and SIGHUP (the terminal gone) during a call that does not
    /// return keep the work too, with 128 + the signal.
    @Test(arguments: [SIGTERM, SIGHUP])
    func aStopSignalDuringAStuckCallKeepsTheWork(_ signal: Int32) throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (r, seconds) = try signalled([signal], dir: dir)
        print(
            "measured: \(signal == SIGTERM ? "SIGTERM" : "SIGHUP") during a stuck call: the shell ended \(String(format: "%.3f", seconds)) s after it"
        )
        #expect(r.status == 128 + signal, "\(r)")
        let words =
            "plugin 'stuck' did not return from its command 'stuck spin' (<command-line>:6) at 0.250s: stopped by \(signal == SIGTERM ? "SIGTERM" : "SIGHUP")"
        let k = try kept(r, in: dir)
        #expect(k.last.hasPrefix("debugsh: " + words + "; kept: the recording r.dsh (4 commands)"), "\(k.last)")
        #expect(k.recording.hasSuffix("\n# debugsh stopped here: " + words + "\n"), "\(k.recording)")
    }

    /// A plugin that calls `exit(3)` ends the process with 3, but the recording and the trace
    /// are written first and the last words say which plugin's code called it.
    @Test func aPluginsExitKeepsTheWork() throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Spawned.run(arguments(lib, deadline: "5s", verb: "leave"), directory: dir, environment: isolated)
        #expect(r.status == 3, "\(r)")
        let words = "plugin 'stuck' called exit(3) in its command 'stuck leave' (<command-line>:6) at 0.250s"
        let k = try kept(r, in: dir)
        #expect(k.last.hasPrefix("debugsh: " + words + "; kept: the recording r.dsh (4 commands)"), "\(k.last)")
        #expect(k.recording.hasSuffix("\n# debugsh stopped here: " + words + "\n"), "\(k.recording)")
        #expect(k.end.first?["name"] as? String == "trace ends: exit(3)", "\(k.end)")
    }

    /// A plugin whose calls return is left alone however long the session runs: a display link
    /// called 216,000 times (longer than the deadline in all, each call far shorter), under a
    /// deadline of 50 ms, ends as a script does.
    @Test func callsThatReturnAreLeftAlone() throws {
        let lib = try library()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Spawned.run(
            [
                "--no-rc", "-c", "set plugin.deadline 50ms", "-c", "plugin load '\(lib)'", "-c", "stuck tick", "-c",
                "run 3600s", "-c", "get stuck.calls",
            ], directory: dir, environment: isolated)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("stuck.calls = 216000"), "\(r)")
    }
}
