import BuiltInTools
import DebugShell
import DebugShellCore
import DebugShellImport
import DebugShellTesting
import Foundation
import Testing

/// The round trips: random scenarios run in a session with the FPS meter and a trace from t = 0;
/// `fps frames --csv` read back with ``CSVImport`` gives the meter's frames (present, expected,
/// phases, hitch, cause) and its hitch metrics; `trace save` read back with ``ChromeTraceImport``
/// gives the same presents, phases and hitches. Seeded: a failure prints its seed
/// (`DEBUGSH_TEST_SEED=<seed> swift test --filter RoundTripTests` replays it).
@Suite struct RoundTripTests {
    /// One random scenario: a refresh rate, then loads, animations, scrolls, stalls and runs. The
    /// last run outlasts every stall (`stalled`, an upper bound on the main thread's busy time),
    /// so a frame is always presented: a run shorter than the stalls left nothing to write (seed
    /// 6147427638512633984: 552 ms of stalls, then `run 550ms`).
    static func scenario(_ rng: inout SplitMix) -> [String] {
        func r(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        var lines: [String] = []
        var stalled = 0
        func stall(_ ms: Int, _ line: String) {
            stalled += ms
            lines.append(line)
        }
        if r(0...3) == 0 { lines.append("display rate 120Hz") }
        lines += ["set fps.frames-kept 100000", "trace start", "fps start"]
        for _ in 0..<r(4...12) {
            switch r(0...9) {
            case 0: lines.append("animate \(r(100...2000))ms")
            case 1: lines.append("load gpu \(r(0...40))ms")
            case 2: lines.append("load commit \(r(0...20))ms")
            case 3: lines.append("load frame \(r(0...15))ms")
            case 4:
                let ms = r(5...300)
                stall(ms, "stall \(ms)ms")
            case 5:
                let ms = r(5...100)
                stall(ms, "stall \(ms)ms --ui")
            case 6: lines.append("scroll \(r(100...1500))ms")
            case 7:
                let (delay, ms) = (r(10...500), r(5...200))
                stall(delay + ms, "after \(delay)ms stall \(ms)ms")
            default: lines.append("run \(r(10...1500))ms")
            }
        }
        lines += ["animate \(r(500...3000))ms", "run \(stalled + r(500...3000))ms"]
        return lines
    }

    @Test func theFramesCSVAndTheTraceGiveTheSimulationsFrames() throws {
        let (generator, seed) = SplitMix.seeded()
        var rng = generator
        for round in 0..<10 {
            let lines = Self.scenario(&rng)
            try check(lines, "seed \(seed), round \(round): \(lines.joined(separator: "; "))")
        }
    }

    /// The worked example R-A (GPU-bound: every present a render hitch), a stall's commit hitch
    /// and R-B's three buffers, whatever the seed.
    @Test func workedExamples() throws {
        try check(["trace start", "fps start", "animate 10s", "load gpu 20ms", "run 3s"], "R-A")
        try check(
            ["trace start", "fps start", "animate 1s", "load commit 2ms", "run 300ms", "stall 50ms", "run 700ms"],
            "stall")
        // R-B's late render start: with three buffers a render taken at a vsync starts its work
        // when the one before it ends (R7.2); the trace's slice is its work, `render_start_ns`
        // when it was taken, which the import reads as the render's start.
        try check(
            ["trace start", "display buffers 3", "fps start", "animate 1s", "load gpu 20ms", "run 1s"], "three buffers")
    }

    /// After a reset the trace goes on where the first simulation stopped (1 s here), its frame
    /// numbers start again, and the second simulation's frames are the meter's (which started
    /// again with it) moved by that offset.
    @Test func aResetInTheTrace() throws {
        let scratch = try Scratch()
        let csvPath = scratch.path("frames.csv")
        let tracePath = scratch.path("trace.json")
        let (stdout, stderr, outcome) = try Transcript.run(
            [
                "trace start", "fps start", "animate 2s", "load gpu 20ms", "run 1s", "reset", "fps start",
                "animate 500ms", "load commit 3ms", "stall 60ms", "run 1s", "fps frames --csv \(csvPath)",
                "trace save \(tracePath)",
            ].joined(separator: "\n"), tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stdout)\(stderr)")
        let csv = try readCSV(csvPath)
        let chrome = try readChrome(tracePath)
        let offset = SimDuration.seconds(1)
        let first = chrome.frames.filter { $0.present < SimTime.zero + offset }
        let second = chrome.frames.filter { $0.present >= SimTime.zero + offset }
        #expect(first.first?.number == 1 && second.first?.number == 1)
        #expect(first.allSatisfy { $0.hitch != nil && $0.cause == "render" })
        func moved(_ t: SimTime?) -> SimTime? { t.map { $0 + offset } }
        try #require(second.count == csv.frames.count)
        for (read, written) in zip(second, csv.frames) {
            #expect(read.number == written.number)
            #expect(read.present == written.present + offset)
            #expect(read.expectedPresent == moved(written.expectedPresent))
            #expect(read.commitStart == moved(written.commitStart))
            #expect(read.commitEnd == moved(written.commitEnd))
            #expect(read.renderStart == moved(written.renderStart))
            #expect(read.renderEnd == moved(written.renderEnd))
        }
        let secondHitches = chrome.hitches.filter { $0.start >= SimTime.zero + offset }
        #expect(
            secondHitches
                == csv.hitches.map {
                    RecordedHitch(start: $0.start + offset, duration: $0.duration, description: $0.description)
                })
        #expect(!secondHitches.isEmpty)
        #expect(chrome.notes.contains("2 simulations (1 reset): frame numbers start again at each, times run on"))
    }

    /// Runs `lines`, writes both files, reads them back and compares them with the meter.
    func check(_ lines: [String], _ label: String) throws {
        let scratch = try Scratch()
        let csvPath = scratch.path("frames.csv")
        let tracePath = scratch.path("trace.json")
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(json: true), sink: sink)
        for line in lines + ["fps frames --csv \(csvPath)", "trace save \(tracePath)"] {
            #expect(
                session.runScript(line, origin: ScriptOrigin(name: "t")) == .finished,
                "\(label): \(line): \(sink.standardError)")
        }
        sink.clear()
        _ = session.runLine("fps frames --last 1000000")
        let meterFrames = try #require(try Self.result(sink)["frames"] as? [[String: Any]], "\(label)")
        sink.clear()
        _ = session.runLine("fps")
        let show = try Self.result(sink)

        let csv = try readCSV(csvPath)
        let chrome = try readChrome(tracePath)

        // The CSV: the meter's frames, field by field.
        try #require(csv.frames.count == meterFrames.count, "\(label)")
        for (frame, meter) in zip(csv.frames, meterFrames) {
            func time(_ key: String) -> SimTime? { (meter[key] as? Int).map { SimTime(nanoseconds: Int64($0)) } }
            #expect(frame.number == (meter["frame"] as? Int).map(Int64.init), "\(label)")
            #expect(frame.present == time("present_ns"), "\(label)")
            #expect(frame.expectedPresent == time("expected_ns"), "\(label)")
            #expect(frame.commitEnd == time("commit_end_ns"), "\(label)")
            #expect(frame.renderStart == time("render_start_ns"), "\(label)")
            #expect(frame.renderEnd == time("render_end_ns"), "\(label)")
            #expect(frame.hitch == (meter["hitch_ns"] as? Int).map { SimDuration(nanoseconds: Int64($0)) }, "\(label)")
            #expect(frame.cause == meter["cause"] as? String, "\(label)")
            #expect((frame.commitStart ?? .never) <= (frame.commitEnd ?? .zero), "\(label)")
            if let tick = frame.vsync { #expect(tick <= (frame.commitStart ?? .zero), "\(label)") }
        }
        let expectedHitches = csv.frames.compactMap { f -> RecordedHitch? in
            guard let h = f.hitch, h > .zero else { return nil }
            return RecordedHitch(start: f.present - h, duration: h, description: f.cause ?? "")
        }
        #expect(csv.hitches == expectedHitches, "\(label)")

        // The meter's metrics from the CSV alone: hitch count and time, frame-time percentiles
        // over the intervals between counted presents.
        let hitchJSON = try #require(show["hitches"] as? [String: Any])
        #expect(csv.hitches.count == hitchJSON["count"] as? Int, "\(label)")
        #expect(csv.hitches.reduce(0) { $0 + Int($1.duration.nanoseconds) } == hitchJSON["time_ns"] as? Int, "\(label)")
        // A frame time: the interval since the previous counted present, at most the frame's own
        // refresh interval plus its lateness (never across idle time).
        // Each row's refresh interval, the CSV's last column, read from the file itself.
        let rows = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("frame,") }
        let refreshes = rows.compactMap { $0.split(separator: ",", omittingEmptySubsequences: false).last }
            .map { Int64($0) ?? 0 }
        try #require(refreshes.count == csv.frames.count, "\(label)")
        let counted = zip(csv.frames, refreshes).filter { $0.0.hitch != nil }
        let intervals = zip(counted.dropFirst(), counted).map { this, previous in
            let (frame, refresh) = this
            let late = max(0, (frame.present - (frame.expectedPresent ?? frame.present)).nanoseconds)
            return min((frame.present - previous.0.present).nanoseconds, refresh + late)
        }.sorted()
        let frameTime = try #require(show["frame_time"] as? [String: Any])
        #expect(intervals.count == frameTime["intervals"] as? Int, "\(label)")
        for p in [50, 95, 99] where !intervals.isEmpty {
            let rank = max(1, (p * intervals.count + 99) / 100)
            #expect(Int(intervals[rank - 1]) == frameTime["p\(p)_ns"] as? Int, "\(label) p\(p)")
        }

        // The trace: the same presents, phases and hitches.
        try #require(chrome.frames.count == csv.frames.count, "\(label)")
        for (read, written) in zip(chrome.frames, csv.frames) {
            #expect(read.present == written.present, "\(label)")
            #expect(read.number == written.number, "\(label)")
            #expect(read.expectedPresent == written.expectedPresent, "\(label)")
            #expect(read.commitStart == written.commitStart, "\(label) frame \(written.number ?? -1)")
            #expect(read.commitEnd == written.commitEnd, "\(label) frame \(written.number ?? -1)")
            #expect(read.renderStart == written.renderStart, "\(label)")
            #expect(read.renderEnd == written.renderEnd, "\(label)")
            let hitched = (written.hitch ?? .zero) > .zero
            #expect(read.hitch == (hitched ? written.hitch : nil), "\(label)")
            #expect(read.cause == (hitched ? written.cause : nil), "\(label)")
        }
        #expect(chrome.hitches == csv.hitches, "\(label)")
        // The refresh interval: declared by the CSV; from the trace's vsyncs, to within the grid's
        // rounding (vsync k is at floor(k · 1e9 / R)).
        let declared = try #require(csv.refreshInterval)
        #expect(csv.refreshSource == .declared)
        if let read = chrome.refreshInterval, chrome.refreshSource == .vsyncMedian {
            #expect(abs(read.nanoseconds - declared.nanoseconds) <= 1, "\(label)")
        }
    }

    /// The `result` of the last JSON line.
    static func result(_ sink: MemorySink) throws -> [String: Any] {
        let line = try #require(sink.standardOutput.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["result"] as? [String: Any], "\(line)")
    }
}
