import BuiltInTools
import DebugShell
import DebugShellCore
import DebugShellImport
import DebugShellTesting
import DebugShellTrace
import Foundation
import Testing

/// `recording save` writes a recording as a Chrome trace, and `import chrome` reads it back whole:
/// random timelines (every field present or not, text with quotes, line ends and non-ASCII) come
/// back equal; every fixture and a simulation's frame log give the same `recording` report and
/// `rec.*` metrics after the round trip; a hostile recording trace is refused at its place.
/// Seeded: a failure prints its seed (`DEBUGSH_TEST_SEED=<seed> swift test --filter RecordingSaveTests`).
@Suite struct RecordingSaveTests {
    static func encode(_ t: RecordedTimeline) -> [UInt8] {
        var bytes: [UInt8] = []
        RecordingTrace.encode(t, generator: "test") { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// A random timeline: sorted times, each optional field there or not.
    static func timeline(_ rng: inout SplitMix) -> RecordedTimeline {
        func r(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &rng) }
        func maybe<T>(_ make: () -> T) -> T? { r(0...2) == 0 ? nil : make() }
        let texts = ["", "Potentially expensive app update(s)", "a \"quoted\"\nline\\end", "émoji 🎞 tab\t", "commit"]
        func text() -> String { texts[Int(r(0...Int64(texts.count - 1)))] }
        let formats: [RecordedTimeline.Format] = [.xctrace, .displayLinkCSV, .framesCSV, .chrome]
        let sources: [RecordedTimeline.RefreshSource] = [
            .displayInfo(hertz: Int(r(1...240))), .hitchRows, .vsyncMedian, .declared, .assumed,
        ]
        let start = r(0...1_000_000_000)
        var now = start
        func later(_ most: Int64 = 50_000_000) -> Int64 {
            now += r(0...most)
            return now
        }
        let vsyncs = (0..<r(0...40)).map { _ in SimTime(nanoseconds: later()) }
        now = start
        var frames: [RecordedFrame] = []
        for _ in 0..<r(0...40) {
            let vsync = later()
            let commitStart = later(5_000_000)
            let commitEnd = later(20_000_000)
            let renderStart = later(5_000_000)
            let renderEnd = later(20_000_000)
            let present = later()
            frames.append(
                RecordedFrame(
                    present: SimTime(nanoseconds: present),
                    onGlass: maybe { SimDuration(nanoseconds: r(0...50_000_000)) },
                    vsync: maybe { SimTime(nanoseconds: vsync) },
                    commitStart: maybe { SimTime(nanoseconds: commitStart) },
                    commitEnd: maybe { SimTime(nanoseconds: commitEnd) },
                    renderStart: maybe { SimTime(nanoseconds: renderStart) },
                    renderEnd: maybe { SimTime(nanoseconds: renderEnd) },
                    expectedPresent: maybe { SimTime(nanoseconds: r(0...present)) }, cause: maybe { text() },
                    swapID: maybe { r(-5...Int64.max) }, surfaceID: maybe { r(0...1 << 40) },
                    number: maybe { r(-1...1_000_000) }, hitch: maybe { SimDuration(nanoseconds: r(0...present)) }))
        }
        now = start
        let hitches = (0..<r(0...20)).map { _ in
            RecordedHitch(
                start: SimTime(nanoseconds: later()), duration: SimDuration(nanoseconds: r(0...300_000_000)),
                description: text(), severity: maybe { ["Low", "Moderate", "High"][Int(r(0...2))] },
                refreshInterval: maybe { SimDuration(nanoseconds: r(1...50_000_000)) },
                acceptableLatency: maybe { SimDuration(nanoseconds: r(0...50_000_000)) },
                bufferCount: maybe { Int(r(0...4)) }, swapID: maybe { r(0...1 << 40) },
                isSystem: maybe { r(0...1) == 0 },
                process: maybe { text() })
        }
        now = start
        let callbacks = (0..<r(0...40)).map { _ in
            let timestamp = later()
            return RecordedLinkCallback(
                timestamp: SimTime(nanoseconds: timestamp),
                targetTimestamp: maybe { SimTime(nanoseconds: timestamp + r(0...20_000_000)) },
                duration: maybe { SimDuration(nanoseconds: r(1...20_000_000)) })
        }
        now = start
        let samples = (0..<r(0...10)).map { _ in
            RecordedFPSSample(
                start: SimTime(nanoseconds: later()), period: SimDuration(nanoseconds: r(0...1_000_000_000)),
                fps: Double(r(0...120_000_000)) / Double(r(1...1_000_000)),
                deviceUtilization: maybe { Double(r(0...100_000)) / 1000 })
        }
        return RecordedTimeline(
            format: formats[Int(r(0...3))], sources: (0..<r(0...3)).map { _ in text() },
            start: SimTime(nanoseconds: start), end: SimTime(nanoseconds: now + r(0...1_000_000_000)),
            refreshInterval: maybe { SimDuration(nanoseconds: r(1...50_000_000)) },
            refreshSource: maybe { sources[Int(r(0...4))] }, vsyncs: vsyncs, frames: frames, hitches: hitches,
            hasHitchList: r(0...1) == 0, linkCallbacks: callbacks, fpsSamples: samples,
            notes: (0..<r(0...3)).map { _ in text() })
    }

    @Test func aRandomTimelineComesBackEqual() throws {
        let scratch = try Scratch()
        let (generator, seed) = SplitMix.seeded()
        var rng = generator
        for round in 0..<200 {
            let original = Self.timeline(&rng)
            let path = try scratch.write("r\(round).json", bytes: Self.encode(original))
            let back = try readChrome(path)
            #expect(back == original, "seed \(seed), round \(round)")
            if back != original { return }
        }
    }

    /// The file is JSON as any reader takes it, and Perfetto's tracks are named.
    @Test func theFileIsJSONWithNamedTracks() throws {
        var rng = SplitMix(state: 7)
        let bytes = Self.encode(Self.timeline(&rng))
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        let events = object?["traceEvents"] as? [[String: Any]] ?? []
        let threads = events.filter { $0["name"] as? String == "thread_name" }.compactMap {
            ($0["args"] as? [String: Any])?["name"] as? String
        }
        #expect(
            threads == [
                "Main thread", "Render server", "Display", "Hitches", "Display link (recorded)", "Core Animation FPS",
            ])
        let other = object?["otherData"] as? [String: Any]
        #expect(other?["recording_format"] != nil)
    }

    /// What a session says of a recording — the summary, every hitch, every frame, the metrics,
    /// as JSON lines — before and after `recording save` and `import chrome`.
    static func report(of importLine: String, in scratch: Scratch) throws -> (before: [String], after: [String]) {
        let saved = scratch.path("saved-\(UUID().uuidString).json")
        let reads = [
            "recording", "recording hitches", "recording frames --last 1000000",
            "get rec.duration rec.refresh_interval rec.frames rec.fps rec.frame_p50 rec.frame_p95 rec.frame_p99",
            "get rec.hitches rec.hitch_time rec.hitch_ratio rec.worst_hitch rec.high_hitches rec.callbacks",
        ]
        let script =
            ([importLine] + reads + ["recording save \(saved)", "import chrome \(saved)"] + reads).joined(
                separator: "\n")
        let (stdout, stderr, outcome) = try Transcript.run(
            script, tools: BuiltInTools.all, options: SessionOptions(json: true))
        #expect(outcome == .finished, "\(stderr)")
        let lines = stdout.split(separator: "\n").map(String.init)
        guard lines.count == 2 * reads.count + 3 else {
            Issue.record("\(lines.count) lines:\n\(stdout)\n\(stderr)")
            return ([], [])
        }
        return (Array(lines[1...reads.count]), Array(lines[(reads.count + 3)...]))
    }

    @Test(arguments: ["folder"] + Fixtures.names)
    func everyFixtureReadsTheSameAfterTheRoundTrip(_ name: String) throws {
        let scratch = try Scratch()
        let path = name == "folder" ? Fixtures.folder : Fixtures.path(name)
        let (before, after) = try Self.report(of: "import xctrace \(path)", in: scratch)
        #expect(!before.isEmpty)
        #expect(before == after)
    }

    /// A display-link log (no frames, no hitch list) and a simulation's frame log.
    @Test func csvLogsReadTheSameAfterTheRoundTrip() throws {
        let scratch = try Scratch()
        var csv = "timestamp,targetTimestamp,duration\n"
        for ms in Array(stride(from: 0, through: 500, by: 20)) + Array(stride(from: 560, through: 2000, by: 20)) {
            csv += "\(10 + Double(ms) / 1000),\(10 + Double(ms + 20) / 1000),0.020\n"
        }
        let link = try scratch.write("link.csv", csv)
        let (before, after) = try Self.report(of: "import csv \(link)", in: scratch)
        #expect(
            before.last?.hasSuffix(#"{"metric": "rec.callbacks", "type": "integer", "value": 99}]}}"#) == true,
            "\(before)")
        #expect(before == after)

        let frames = scratch.path("frames.csv")
        let (_, stderr, outcome) = try Transcript.run(
            "set fps.frames-kept 100000\nfps start\nanimate 3s\nload commit 2ms\nrun 1s\nstall 120ms\nload gpu 20ms\nrun 2s\nfps frames --csv \(frames)",
            tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        let (b, a) = try Self.report(of: "import csv \(frames)", in: scratch)
        #expect(b.last?.contains(#"{"metric": "rec.hitches", "type": "integer", "value": "#) == true, "\(b)")
        #expect(b.last?.contains(#"{"metric": "rec.hitches", "type": "integer", "value": 0}"#) == false, "\(b)")
        #expect(b == a)
    }

    /// A recording's trace read back keeps its own format, and the import says where it came from.
    @Test func theImportSaysTheRecordingsFormat() throws {
        let scratch = try Scratch()
        let saved = scratch.path("x.json")
        let (stdout, stderr, _) = try Transcript.run(
            "import xctrace \(Fixtures.path("hitches.xml"))\nrecording save \(saved)\nimport chrome \(saved)",
            tools: BuiltInTools.all)
        let lines = stdout.split(separator: "\n").map(String.init)
        #expect(stderr.isEmpty, "\(stderr)")
        #expect(lines.contains { $0.hasPrefix("saved the recording to \(saved): 0 frames, 11 hitches, 0 vsyncs") })
        #expect(lines.contains { $0.hasPrefix("imported chrome (\(saved), saved from xctrace): 0 frames, 11 hitches") })
    }

    @Test func withoutARecordingThereIsNothingToSave() throws {
        let (_, stderr, _) = try Transcript.run("recording save x.json", tools: BuiltInTools.all)
        #expect(stderr == "test.dsh:1: error: no recording to save: 'import xctrace|csv|chrome <file>' reads one\n")
        let (_, stderr2, _) = try Transcript.run(
            "import xctrace \(Fixtures.path("hitches.xml"))\nrecording save x.txt", tools: BuiltInTools.all)
        #expect(stderr2.contains("test.dsh:2: error: "), "\(stderr2)")
    }

    /// A hostile recording trace: each fault refused at its place, nothing imported.
    @Test(arguments: [
        (
            #"{"otherData": {"recording_format": "video"}, "traceEvents": []}"#,
            "1:15: otherData: recording_format is not one of xctrace, display-link csv, frames csv, chrome"
        ),
        (
            #"{"traceEvents": [{"name": "vsync", "cat": "display", "ph": "i", "ts": 1, "args": {"index": 0}}], "otherData": {"recording_format": "xctrace"}}"#,
            "1:111: otherData names a recording after the trace's events: 'recording save' writes it first"
        ),
        (
            #"{"otherData": {"recording_format": "xctrace", "refresh_source": "guess"}, "traceEvents": []}"#,
            "1:15: otherData: refresh_source 'guess' is not one of device-display-info, hitch-rows, vsync-median, declared, assumed"
        ),
        (
            #"{"otherData": {"recording_format": "xctrace", "recording_end_ns": -4}, "traceEvents": []}"#,
            "1:15: otherData: recording_end_ns is not a time in ns from 0 to 2^62"
        ),
        (
            "{\"otherData\": {\"recording_format\": \"xctrace\"}, \"traceEvents\": [\n{\"name\": \"present\", \"cat\": \"display\", \"ph\": \"i\", \"ts\": 1, \"args\": {\"frame\": 1}}]}",
            "2:1: 'present' without its present_ns (a time in ns)"
        ),
        (
            "{\"otherData\": {\"recording_format\": \"xctrace\"}, \"traceEvents\": [\n{\"name\": \"present\", \"cat\": \"display\", \"ph\": \"i\", \"ts\": 1, \"args\": {\"present_ns\": 5, \"hitch_ns\": 9}}]}",
            "2:1: 'present': hitch_ns is longer than present_ns"
        ),
        (
            "{\"otherData\": {\"recording_format\": \"xctrace\"}, \"traceEvents\": [\n{\"name\": \"x\", \"cat\": \"display\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"args\": {\"start_ns\": 4611686018427387905, \"hitch_ns\": 1}}]}",
            "2:1: 'x': start_ns is not a time in ns from 0 to 2^62"
        ),
        (
            "{\"otherData\": {\"recording_format\": \"display-link csv\"}, \"traceEvents\": [\n{\"name\": \"callback\", \"cat\": \"link\", \"ph\": \"i\", \"ts\": 1, \"args\": {\"timestamp_ns\": 9, \"target_ns\": 3}}]}",
            "2:1: 'callback': target_ns is before timestamp_ns"
        ),
        (
            "{\"otherData\": {\"recording_format\": \"xctrace\"}, \"traceEvents\": [\n{\"name\": \"60 fps\", \"cat\": \"fps\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"args\": {\"start_ns\": 1, \"period_ns\": 1, \"fps\": \"60\"}}]}",
            "2:1: '60 fps' without its fps (a number)"
        ),
    ])
    func aHostileRecordingTraceIsRefused(_ text: String, _ message: String) throws {
        let scratch = try Scratch()
        let path = try scratch.write("bad.json", text)
        #expect(failure({ () throws(ImportError) in try readChrome(path) }, in: scratch) == "<dir>/bad.json:\(message)")
    }
}
