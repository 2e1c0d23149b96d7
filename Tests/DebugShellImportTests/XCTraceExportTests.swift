import BuiltInTools
import DebugShell
import DebugShellCore
import DebugShellImport
import DebugShellTesting
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `fps hitches --xctrace` read back: the simulation's hitches written as Instruments'
/// `hitches-summary` table and imported with `import xctrace` give the meter's hitches field by
/// field — start, duration, type, severity, refresh interval, buffers, swap id, acceptable
/// latency — and the `rec.*` metrics give the meter's hitch metrics. Each file is also read by
/// Foundation's XMLParser (libxml2), independently of debugsh's reader, to check Instruments'
/// arithmetic on every row and the ids and refs. Seeded: a failure prints its seed
/// (`DEBUGSH_TEST_SEED=<seed> swift test --filter XCTraceExportTests` replays it).
@Suite struct XCTraceExportTests {
    /// R-B's scenarios (one hitch of each type), each after `fps start; animate 1s` at 60 Hz.
    static let workedRB = [
        "after 500ms load frame 40ms\nafter 510ms load frame 0s",
        "after 500ms load layout 40ms\nafter 510ms load layout 0s",
        "run 300ms\nstall 50ms\nrun 700ms",
        "after 510ms load offscreen 40 500us\nafter 520ms load offscreen 0",
        "after 510ms load gpu 20ms\nafter 520ms load gpu 0s",
        "display buffers 3\nload gpu 20ms",
    ]

    @Test(arguments: workedRB)
    func workedExampleRB(_ lines: String) throws {
        let read = try check(["fps start", "animate 1s"] + lines.split(separator: "\n").map(String.init) + ["run 1s"])
        // The late render start (three buffers) hitches nine times; the others once.
        #expect(read.rows == (lines.hasPrefix("display buffers 3") ? 9 : 1), "\(lines)")
    }

    /// R-C with two buffers and three (a hitch, and none), and R-A steadily GPU-bound with each.
    @Test func workedExampleRC() throws {
        let rc = ["fps start", "load gpu 10ms", "animate 1s", "after 500ms load gpu 25ms", "after 510ms load gpu 10ms"]
        #expect(try check(rc + ["run 1s"]).rows == 1)
        #expect(try check(["display buffers 3"] + rc + ["run 1s"]).rows == 0)
        #expect(try check(["fps start", "animate 10s", "load gpu 20ms", "run 3s"]).rows == 89)
        #expect(try check(["display buffers 3", "fps start", "animate 10s", "load gpu 20ms", "run 3s"]).rows == 29)
    }

    /// R-D's frame 31, late only because frame 30 was, made late by its own render too: its
    /// hitch starts at R4's floor (the vsync after frame 30's present, 550 ms), not at its
    /// expected present (533.333 ms), and the acceptable latency runs from its earliest time (the
    /// tick of 500 ms) to that floor, so that Instruments' arithmetic still holds.
    @Test func aHitchAfterALateFrameStartsAtTheFloor() throws {
        let read = try check([
            "fps start", "load gpu 10ms", "animate 510ms", "after 500ms load gpu 25ms", "run 1s",
        ])
        #expect(read.rows == 2 && read.floorRows == 1)
        let last = try #require(read.timeline.hitches.last)
        #expect(
            last
                == RecordedHitch(
                    start: ns(550_000_000), duration: duration(16_666_666), description: "Commit to Render latency",
                    severity: "Low", refreshInterval: duration(16_666_667), acceptableLatency: duration(50_000_000),
                    bufferCount: 2, swapID: 31))
    }

    /// On an adaptive display each row carries the refresh interval its frame was presented at
    /// (8.333333 ms while scrolling at 120 Hz, 16.666667 ms at 60 Hz): each is graded against its
    /// own, and the recording's interval is their median, with a note. (The 60 Hz row is a stall
    /// in the animation: the scroll's last frame, which gave one before, now keeps 120 Hz until
    /// shown, V17.)
    @Test func anAdaptiveDisplayWritesEachRowsRate() throws {
        let read = try check([
            "display adaptive", "set app.high_frame_rates on", "fps start --range 10,120", "load gpu 12ms",
            "scroll 1s", "run 1500ms", "animate 500ms", "run 100ms", "stall 40ms", "run 900ms", "stall 40ms --ui",
            "run 1s",
        ])
        let rates = Set(read.timeline.hitches.compactMap(\.refreshInterval))
        #expect(rates == [duration(8_333_333), duration(16_666_667)])
        #expect(read.timeline.refreshInterval == duration(8_333_333))
        #expect(
            read.timeline.notes.contains(
                "the hitch rows' refresh intervals go from 8.333333ms to 16.666667ms: their median, 8.333333ms, is used"
            ))
    }

    /// No hitch: a table with no rows, which imports as a hitch list of none — zero hitches, not
    /// unknown ones (a recording without a hitch list has no value for them).
    @Test func noHitchIsATableWithNoRows() throws {
        let read = try check(["fps start", "animate 1s", "run 1s"])
        #expect(read.rows == 0 && read.timeline.hitches.isEmpty && read.timeline.hasHitchList)
        let scratch = try Scratch()
        let path = scratch.path("none.xml")
        let (stdout, stderr, outcome) = try Transcript.run(
            """
            fps start
            animate 1s
            run 1s
            fps hitches --xctrace \(path)
            import xctrace \(path)
            get rec.hitches rec.hitch_time rec.high_hitches rec.hitch_ratio
            expect rec.hitches == 0 and fps.hitches == 0
            """, tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        #expect(
            stdout.hasSuffix(
                "rec.hitches = 0\nrec.hitch_time = 0s\nrec.high_hitches = 0\nrec.hitch_ratio = none\n"), "\(stdout)")
        #expect(stdout.contains("imported xctrace (\(path)): 0 frames, 0 hitches over 0s"), "\(stdout)")
    }

    /// docs/FPSMeter.md's transcript ("Hitches as Instruments exports them"), its file's path
    /// written there as `hitches.xml`.
    @Test func theDocumentedRoundTrip() throws {
        let scratch = try Scratch()
        let path = scratch.path("hitches.xml")
        let (stdout, stderr, outcome) = try Transcript.run(
            """
            fps start
            animate 1s
            run 300ms
            stall 50ms
            run 700ms
            fps hitches --xctrace \(path)
            import xctrace \(path)
            recording hitches
            get fps.hitches rec.hitches fps.hitch_time rec.hitch_time
            """, tools: BuiltInTools.all)
        #expect(outcome == .finished, "\(stderr)")
        #expect(
            stdout.replacingOccurrences(of: path, with: "hitches.xml") == """
                wrote hitches.xml (2645 bytes): 1 hitch as Instruments' hitches-summary table
                imported xctrace (hitches.xml): 0 frames, 1 hitches over 383.333333ms, 60 Hz (the hitch rows' refresh interval), refresh interval 16.666667ms
                note: no TOC: the recording ends at its last event, 383.333333ms (`xctrace export --toc` gives Instruments' duration)
                #  start         duration  intervals  severity  recorded  stage   description
                1  333.333333ms  50ms      3.00       High      High      commit  Pre-Commit(s) latency
                fps.hitches = 1
                rec.hitches = 1
                fps.hitch_time = 50ms
                rec.hitch_time = 50ms

                """)
    }

    /// A random mix of stalls, GPU loads, commits, updates, offscreen passes, buffers and rates.
    @Test func randomScenarios() throws {
        let (generator, seed) = SplitMix.seeded()
        var rng = generator
        var rows = 0
        for round in 0..<10 {
            let lines = Self.scenario(&rng)
            rows += try check(lines, "seed \(seed), round \(round): \(lines.joined(separator: "; "))").rows
        }
        #expect(rows > 0, "seed \(seed)")
    }

    /// One random scenario: a refresh rate and buffer count, then loads, animations, scrolls,
    /// stalls and runs.
    static func scenario(_ rng: inout SplitMix) -> [String] {
        func r(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        var lines: [String] = []
        if r(0...3) == 0 { lines.append("display rate 120Hz") }
        if r(0...3) == 0 { lines.append("display buffers 3") }
        lines += ["fps start"]
        for _ in 0..<r(4...14) {
            switch r(0...11) {
            case 0: lines.append("animate \(r(100...2000))ms")
            case 1: lines.append("load gpu \(r(0...40))ms")
            case 2: lines.append("load commit \(r(0...20))ms")
            case 3: lines.append("load frame \(r(0...15))ms")
            case 4: lines.append("stall \(r(5...300))ms")
            case 5: lines.append("stall \(r(5...100))ms --ui")
            case 6: lines.append("scroll \(r(100...1500))ms")
            case 7: lines.append("after \(r(10...500))ms stall \(r(5...200))ms")
            case 8: lines.append("after \(r(10...500))ms load gpu \(r(0...40))ms")
            case 9: lines.append("load offscreen \(r(0...30)) \(r(100...900))us")
            case 10: lines.append("load layout \(r(0...25))ms")
            default: lines.append("run \(r(10...1500))ms")
            }
        }
        lines += ["animate \(r(500...3000))ms", "run \(r(500...3000))ms"]
        return lines
    }

    /// What one round trip read: the timeline, its rows, and how many start at R4's floor rather
    /// than at the frame's expected present.
    struct Read {
        var timeline: RecordedTimeline
        var rows: Int
        var floorRows: Int
    }

    /// Runs `lines`, writes the hitches with `--xctrace`, reads the file back three ways (debugsh's
    /// reader, Foundation's XMLParser, `import xctrace` in the session) and compares each with
    /// the meter: every field of every hitch, and the hitch metrics.
    @discardableResult
    func check(_ lines: [String], _ label: String = "") throws -> Read {
        let label = label.isEmpty ? lines.joined(separator: "; ") : label
        let scratch = try Scratch()
        let path = scratch.path("hitches.xml")
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(json: true), sink: sink)
        for line in ["set fps.frames-kept 100000"] + lines {
            #expect(
                session.runScript(line, origin: ScriptOrigin(name: "t")) == .finished,
                "\(label): \(line): \(sink.standardError)")
        }
        let meter = try Self.run("fps hitches --last 1000000", in: session, sink)
        let hitches = try #require(meter["hitches"] as? [[String: Any]], "\(label)")
        let show = try Self.run("fps", in: session, sink)
        let tally = try #require(show["hitches"] as? [String: Any])
        let written = try Self.run("fps hitches --xctrace \(path)", in: session, sink)
        #expect(written["hitches"] as? Int == hitches.count && written["total"] as? Int == hitches.count, "\(label)")
        #expect(tally["count"] as? Int == hitches.count, "\(label)")

        // debugsh's reader: the meter's hitches, field by field.
        let timeline = try XCTraceImport.read([path])
        #expect(timeline.hasHitchList, "\(label)")
        try #require(timeline.hitches.count == hitches.count, "\(label)")
        var floorRows = 0
        for (row, h) in zip(timeline.hitches, hitches) {
            func int(_ key: String) -> Int64 { Int64((h[key] as? Int) ?? -1) }
            let start = int("present_ns") - int("hitch_ns")
            if start != int("expected_ns") { floorRows += 1 }
            #expect(start >= int("expected_ns"), "\(label)")
            // The acceptable latency is the meter's where the hitch starts at the expected present.
            #expect((start == int("expected_ns")) == (start - int("earliest_ns") == int("latency_allowed_ns")))
            let expected = RecordedHitch(
                start: ns(start), duration: duration(int("hitch_ns")), description: h["type_label"] as? String ?? "?",
                severity: h["severity"] as? String, refreshInterval: duration(int("refresh_interval_ns")),
                acceptableLatency: duration(start - int("earliest_ns")), bufferCount: Int(int("buffers")),
                swapID: int("frame"))
            #expect(row == expected, "\(label)")
        }
        // debugsh's grade of each row is the meter's, and Instruments' column beside it.
        let analysis = TimelineAnalysis(timeline)
        #expect(analysis.hitches.map { $0.severity?.rawValue } == hitches.map { $0["severity"] as? String }, "\(label)")
        #expect(analysis.hitches.map(\.recordedSeverity) == hitches.map { $0["severity"] as? String }, "\(label)")
        #expect(analysis.hitchTime.nanoseconds == Int64((tally["time_ns"] as? Int) ?? -1), "\(label)")

        // Foundation's reading: the schema, Instruments' arithmetic, ids and refs.
        let table = try SummaryTable(path)
        #expect(table.problems.isEmpty, "\(label): \(table.problems)")
        #expect(table.schema == "hitches-summary")
        #expect(
            table.columns == [
                "start", "duration", "swap-id", "earliest-time", "presentation-time", "latency-allowed", "narrative",
                "severity", "color", "layout-qualifier", "hitch-id", "context-count", "buffer-count",
                "refresh-interval", "type-label",
            ])
        try #require(table.rows.count == hitches.count, "\(label)")
        for (k, (row, h)) in zip(table.rows, hitches).enumerated() {
            func cell(_ column: String) -> Int64? { row[column].flatMap { Int64($0.text) } }
            let start = try #require(cell("start"))
            #expect(start == cell("earliest-time").map { $0 + (cell("latency-allowed") ?? 0) }, "\(label)")
            #expect(cell("duration") == cell("presentation-time").map { $0 - start }, "\(label)")
            #expect(cell("presentation-time") == (h["present_ns"] as? Int).map(Int64.init), "\(label)")
            #expect(cell("earliest-time") == (h["earliest_ns"] as? Int).map(Int64.init), "\(label)")
            #expect(cell("hitch-id") == Int64(k + 1))
            #expect(row["narrative"]?.fmt == "\(k + 1) : Hitch Duration")
            #expect(row["severity"]?.element == "event-concept" && row["type-label"]?.element == "string")
            for unknown in ["color", "layout-qualifier", "context-count"] {
                #expect(row[unknown]?.element == "sentinel")
            }
        }

        // The session: `import xctrace` gives the meter's hitch metrics as rec.*.
        _ = try Self.run("import xctrace \(path)", in: session, sink)
        let rec = try Self.metrics(
            "rec.hitches rec.hitch_time rec.worst_hitch rec.high_hitches rec.refresh_interval", in: session, sink)
        let fps = try Self.metrics("fps.hitches fps.hitch_time", in: session, sink)
        #expect(rec["rec.hitches"] == fps["fps.hitches"], "\(label)")
        #expect(rec["rec.hitch_time"] == fps["fps.hitch_time"], "\(label)")
        let lengths = hitches.compactMap { $0["hitch_ns"] as? Int }
        #expect(rec["rec.worst_hitch"] == (lengths.max() ?? 0), "\(label)")
        #expect(rec["rec.high_hitches"] == hitches.count { $0["severity"] as? String == "High" }, "\(label)")
        let intervals = Set(hitches.compactMap { $0["refresh_interval_ns"] as? Int })
        if intervals.count == 1 { #expect(rec["rec.refresh_interval"] == intervals.first, "\(label)") }
        return Read(timeline: timeline, rows: hitches.count, floorRows: floorRows)
    }

    /// The `result` of a command run in JSON mode.
    static func run(_ line: String, in session: Session, _ sink: MemorySink) throws -> [String: Any] {
        sink.clear()
        #expect(session.runScript(line, origin: ScriptOrigin(name: "t")) == .finished, "\(line): \(sink.standardError)")
        let last = try #require(sink.standardOutput.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        return try #require(object["result"] as? [String: Any], "\(last)")
    }

    /// Metrics by name, as `get` gives them in JSON (integers and nanoseconds).
    static func metrics(_ names: String, in session: Session, _ sink: MemorySink) throws -> [String: Int] {
        let result = try run("get \(names)", in: session, sink)
        var values: [String: Int] = [:]
        for metric in (result["metrics"] as? [[String: Any]]) ?? [] {
            if let name = metric["metric"] as? String, let value = metric["value"] as? Int { values[name] = value }
        }
        return values
    }
}

/// A `hitches-summary` export read by Foundation's XMLParser: the schema's columns and each row's
/// cells by column, refs resolved, with any fault of the ids and refs: an id must be the next
/// number (Instruments numbers them 1, 2, 3, … in document order), a ref must name an id defined
/// before it, on an element of the same name.
final class SummaryTable: NSObject, XMLParserDelegate {
    struct Cell {
        var element: String
        /// The text of the element and everything inside it.
        var text: String
        var fmt: String?
    }

    private(set) var schema: String?
    private(set) var columns: [String] = []
    private(set) var rows: [[String: Cell]] = []
    private(set) var problems: [String] = []

    private var values: [Int: Cell] = [:]
    private var nextID = 1
    private var mnemonic: String?
    private var row: [Cell]?
    private var open: [(cell: Cell, id: Int?, ref: Int?)] = []

    init(_ path: String) throws {
        super.init()
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        parser.delegate = self
        let parsed = parser.parse()
        if !parsed { problems.append("not well-formed: \(String(describing: parser.parserError))") }
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if element == "schema" { schema = attributes["name"] }
        if element == "mnemonic" { mnemonic = "" }
        if element == "row" {
            row = []
            return
        }
        guard row != nil else { return }
        let id = attributes["id"].flatMap { Int($0) }
        let ref = attributes["ref"].flatMap { Int($0) }
        if let id {
            if id != nextID { problems.append("id \(id) where \(nextID) comes next") }
            nextID = id + 1
        }
        if let ref {
            if let value = values[ref] {
                if value.element != element { problems.append("ref \(ref) on <\(element)> names <\(value.element)>") }
            } else {
                problems.append("ref \(ref) before its id")
            }
        }
        open.append((Cell(element: element, text: "", fmt: attributes["fmt"]), id, ref))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if mnemonic != nil { mnemonic? += string }
        for k in open.indices { open[k].cell.text += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "mnemonic", let name = mnemonic {
            columns.append(name)
            mnemonic = nil
            return
        }
        if element == "row", let cells = row, open.isEmpty {
            if cells.count != columns.count { problems.append("a row of \(cells.count) cells") }
            rows.append(Dictionary(zip(columns, cells), uniquingKeysWith: { a, _ in a }))
            row = nil
            return
        }
        guard let last = open.popLast() else { return }
        var cell = last.cell
        if let ref = last.ref, let value = values[ref] { cell = value }
        if let id = last.id { values[id] = cell }
        if open.isEmpty { row?.append(cell) }
    }
}
