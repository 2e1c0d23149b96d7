import DebugShellTesting
import Foundation
import Testing

/// `--trace` and `trace save` on the built binary: the whole run recorded, written atomically,
/// and a clear error for a file that cannot be written.
@Suite struct TraceFileTests {
    @Test func traceRecordsTheWholeRun() throws {
        let dir = try Binary.folder([
            "s.dsh": "fps start\nanimate 1s\nload gpu 20ms\nrun 1s\nexpect render.presents == 29\n"
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(["--no-rc", "--trace", "t.json", "s.dsh"], directory: dir)
        #expect(r.status == 0, "\(r)")
        let data = try Data(contentsOf: dir.appendingPathComponent("t.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        #expect(events.filter { $0["name"] as? String == "present" }.count == 29)
        // A failing script still leaves its trace.
        let failed = try Binary.run(
            ["--no-rc", "--trace", "f.json", "-c", "stall 10ms", "-c", "run 5ms", "-c", "expect main.hangs == 9"],
            directory: dir)
        #expect(failed.status == 1)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("f.json").path))
    }

    /// A plugin's slice from a second before t = 0 to `.never` (issue 26) used to trap `trace save`
    /// and the `--trace` written at exit, losing the trace. The host clamps it (docs/Trace.md):
    /// it starts at its simulation's t = 0, and, not having ended, ends where the recording does
    /// — at the save, at the `reset` that ends its simulation, at exit — marked `unfinished`; a
    /// slice handed with its end before its start and its start in the future is one instant now.
    @Test func aPluginsSliceIsClampedNotATrap() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let isolated = [
            "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
        ]
        let commands = [
            "run 100ms", "careless trace-forever", "run 400ms", "trace save mid.json", "reset", "run 200ms",
            "careless trace-forever", "run 300ms",
        ]
        let r = try Binary.run(
            ["--no-rc", "--plugin", try CarelessPlugin.library.get(), "--trace", "t.json"]
                + commands.flatMap { ["-c", $0] }, directory: dir, environment: isolated)
        #expect(r.status == 0, "\(r)")
        func slices(_ file: String) throws -> [[String: Any]] {
            let data = try Data(contentsOf: dir.appendingPathComponent(file))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let events = try #require(json["traceEvents"] as? [[String: Any]])
            return events.filter { ["forever", "backwards"].contains($0["name"] as? String) }
        }
        func summary(_ e: [String: Any]) -> String {
            let args = e["args"] as? [String: Any] ?? [:]
            func micros(_ key: String) -> String { (e[key] as? Double).map { "\(Int64($0))" } ?? "?" }
            return "\(e["name"] as? String ?? "?") \(micros("ts")) \(micros("dur"))"
                + (args["unfinished"] as? Bool == true ? " unfinished" : "") + (args["n"] != nil ? " n" : "")
        }
        // Saved at 500 ms: the unfinished slice ends there.
        #expect(
            try slices("mid.json").map(summary).sorted() == ["backwards 100000 0", "forever 0 500000 unfinished n"])
        // At exit: the first simulation's ends at its reset; the second's (from 500 ms) at exit.
        #expect(
            try slices("t.json").map(summary).sorted() == [
                "backwards 100000 0", "backwards 700000 0", "forever 0 500000 unfinished n",
                "forever 500000 500000 unfinished n",
            ])
    }

    /// A trace that could not be written fails before the run, not after it.
    @Test func anUnwritableTraceIsAnError() throws {
        let r = try Binary.run(["--no-rc", "--trace", "/nonexistent/t.json", "-c", "echo ran"])
        #expect(r.status == 2 && r.stdout == "")
        #expect(
            r.stderr
                == "debugsh: --trace: cannot write '/nonexistent/t.json': the folder '/nonexistent' does not exist\n")
        let svg = try Binary.run(["--no-rc", "--trace", "out.svg", "-c", "echo ran"])
        #expect(svg.status == 2 && svg.stdout == "")
        #expect(
            svg.stderr
                == "debugsh: --trace: 'out.svg' is not a .json file: a trace is Chrome trace JSON (e.g. timeline.json)\n"
        )
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try Binary.run(["--no-rc", "-c", "trace start", "-c", "trace save ."], directory: dir)
        #expect(folder.status == 1)
        #expect(
            folder.stderr
                == "<command-line>:2: error: '.' is not a .json file: a trace is Chrome trace JSON (e.g. timeline.json)\n"
        )
        let directory = try Binary.run(["--no-rc", "-c", "trace start", "-c", "trace save d.json"], directory: dir)
        #expect(directory.status == 0, "\(directory)")
    }

    /// The trace's options on the command line, checked before anything runs.
    @Test func theTraceOptions() throws {
        let dir = try Binary.folder(["s.dsh": "stall 20ms\nanimate 1s\nrun 1s\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            ["--no-rc", "--trace", "t.json", "--trace-categories", "main", "--trace-limit", "50", "s.dsh"],
            directory: dir)
        #expect(r.status == 0, "\(r)")
        let data = try Data(contentsOf: dir.appendingPathComponent("t.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let other = try #require(json["otherData"] as? [String: Any])
        #expect(other["categories"] as? [String] == ["main"] && other["limit"] as? Int == 50)
        #expect(other["keep"] as? String == "first")
        let bad = try Binary.run(["--no-rc", "--trace", "t.json", "--trace-categories", "mian", "-c", "echo ran"])
        #expect(bad.status == 2 && bad.stdout == "")
        #expect(
            bad.stderr
                == "debugsh: --trace: unknown trace category 'mian' (categories: display, main, render, queues, modes, counters, tools, frames); did you mean 'main'?\n"
        )
        let keep = try Binary.run(["--no-rc", "--trace", "t.json", "--trace-keep", "oldest", "-c", "echo ran"])
        #expect(keep.stderr == "debugsh: --trace: --trace-keep: 'oldest' is not one of first, last\n")
        let alone = try Binary.run(["--no-rc", "--trace-limit", "5", "-c", "echo ran"])
        #expect(alone.status == 2 && alone.stderr == "debugsh: --trace-limit needs --trace <file.json>\n")
    }
}
