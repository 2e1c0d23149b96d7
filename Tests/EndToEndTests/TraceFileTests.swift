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

    @Test func anUnwritableTraceIsAnError() throws {
        let r = try Binary.run(["--no-rc", "--trace", "/nonexistent/t.json", "-c", "run 10ms"])
        #expect(r.status == 1)
        #expect(r.stderr == "debugsh: --trace: cannot write '/nonexistent/t.json': No such file or directory\n")
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = try Binary.run(["--no-rc", "-c", "trace start", "-c", "trace save ."], directory: dir)
        #expect(folder.status == 1)
        #expect(folder.stderr == "<command-line>:2: error: cannot write '.': not a regular file\n")
    }
}
