import DebugShellTesting
import Foundation
import Testing

/// Issue 22's acceptance: an outside plugin written from the docs alone — the example package's
/// second plugin, `budget` (libFrameBudget.so, built with the hang detector once per test run),
/// with two tools, settings, events, a chart and trace slices — loads into the built binary and
/// passes a scenario of `expect` lines. What it leaves behind is read back: the trace's slices,
/// counter and events, the chart's SVG, one command's JSON line, and a recording that replays.
@Suite(.serialized) struct OutsidePluginScenarioTests {
    /// Both tools and their settings; a GPU-bound stretch over budget, under a raised budget and
    /// back under one frame; a stall the second tool counts; the chart.
    static let scenario = """
        # The budget plugin, as its user would write a scenario.
        set budget.measure render
        set spans.over 40ms
        budget start
        spans start
        expect budget.frames == 0 and budget.worst == none and budget.over_ratio == none
        animate 1s
        load gpu 10ms
        run 200ms
        expect budget.over_frames == 0 and budget.worst == 10ms and spans.count == 0
        load gpu 20ms
        run until budget.over_frames == 3 --timeout 1s
        expect clock.now == 300ms
        expect budget.cause.render == 3 and budget.worst == 20ms and budget.last == 20ms
        set budget.limit 25ms
        stall 45ms
        run 300ms
        expect budget.over_frames == 3 and spans.count == 1
        set budget.limit 1f
        run 200ms
        expect budget.over_frames == 9 and budget.cause.commit == 0 and budget.cause.both == 0
        expect budget.frames == 28 and budget.over_ratio == 0.321
        budget stop
        spans stop
        budget plot out.svg
        """

    /// No plugins folder, no rc file: only what the test loads.
    static let environment = [
        "XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("debugsh-none").path
    ]

    /// The frames over budget, in the order they were presented.
    static let overFrames = [12, 14, 16, 33, 35, 37, 39, 41, 43]

    @Test func theBudgetPluginPassesAScenarioOfExpectLines() throws {
        let library = try ExamplePlugin.budget.get()
        let dir = try Binary.folder(["scenario.dsh": Self.scenario])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            ["--no-rc", "--plugin", library, "--trace", "t.json", "scenario.dsh"], directory: dir,
            environment: Self.environment)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")

        // The events, as they happened; the last two commands' text.
        let stamps = ["0.233", "0.267", "0.300", "0.600", "0.633", "0.667", "0.700", "0.733", "0.767"]
        var events = zip(stamps, Self.overFrames).map {
            "[\($0)s] budget: frame \($1) over budget: render 20ms > 16.666666ms"
        }
        events.insert("[0.300s] spans: main-queue block 'stall 45ms' runs 45ms (over 40ms)", at: 3)
        var lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "", "\(r)")
        lines = lines.dropLast()
        #expect(Array(lines.prefix(events.count)) == events, "\(r)")
        #expect(lines.dropFirst(events.count).first == "stopped at 800ms: 28 frames, 9 over budget", "\(r)")
        let svgData = try Data(contentsOf: dir.appendingPathComponent("out.svg"))
        #expect(
            lines.dropFirst(events.count + 1) == ["wrote out.svg (\(svgData.count) bytes): 28 frames, 9 over budget"],
            "\(r)")

        try checkTrace(dir.appendingPathComponent("t.json"))
        try checkChart(String(decoding: svgData, as: UTF8.self))
    }

    /// The trace has the tool's own track with a slice `over budget` for each frame over budget
    /// (its render: 20 ms), the counter `budget: over` stepping up with them, and both tools'
    /// events.
    func checkTrace(_ file: URL) throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        func args(_ event: [String: Any]) -> [String: Any] { event["args"] as? [String: Any] ?? [:] }
        let track = try #require(
            events.first { $0["name"] as? String == "thread_name" && args($0)["name"] as? String == "Tool budget" }?[
                "tid"] as? Int)
        let slices = events.filter { $0["name"] as? String == "over budget" }
        #expect(slices.map { args($0)["frame"] as? Int } == Self.overFrames, "\(slices)")
        for slice in slices {
            #expect(slice["ph"] as? String == "X" && slice["cat"] as? String == "tools", "\(slice)")
            #expect(slice["tid"] as? Int == track && slice["dur"] as? Double == 20_000, "\(slice)")
            #expect(args(slice)["cause"] as? String == "render" && args(slice)["cost_ns"] as? Int == 20_000_000)
        }
        let counter = events.filter { $0["name"] as? String == "budget:" && $0["ph"] as? String == "C" }
        #expect(counter.map { args($0)["over"] as? Int } == Array(0...9), "\(counter)")
        #expect(events.filter { $0["name"] as? String == "budget.over" && $0["ph"] as? String == "i" }.count == 9)
        let spans = try #require(events.first { $0["name"] as? String == "spans.long" })
        #expect(args(spans)["length_ns"] as? Int == 45_000_000 && spans["ts"] as? Double == 300_000, "\(spans)")
    }

    /// The chart is an SVG that parses and draws: one panel of costs in ms, the frames within
    /// and over budget as bars of their two colours, the budget as a rule that steps from one
    /// frame up to 25 ms and back, tagged `limit`.
    func checkChart(_ svg: String) throws {
        #expect(try SVGCheck.parseXML(svg).root == "{http://www.w3.org/2000/svg}svg")
        #expect(SVGCheck.pngSize(try SVGCheck.renderPNG(svg))?.width == 960)
        let chart = SVGChart(svg)
        #expect(chart.title == "budget: frame costs and the limit")
        let panel = try #require(chart.panels.first)
        #expect(chart.panels.count == 1 && panel.label == "cost (ms)")
        let bars = chart.elements.filter { $0.name == "rect" && $0.attributes["fill"] == nil }
        #expect(bars.filter { $0["fill"] == "#78909c" }.count == 19)
        #expect(bars.filter { $0["fill"] == "#e53935" }.count == 9)
        for text in ["within budget", "over budget", "budget.limit", "limit"] {
            #expect(chart.texts(text).count == 1, "\(text)")
        }
        let rule = try #require(chart.elements.first { $0.name == "path" && $0["stroke-dasharray"] != nil })
        let oneFrame = try #require(panel.y(16.666666))
        let raised = try #require(panel.y(25))
        let levels = (rule["d"] ?? "").split { "MHV ".contains($0) }.compactMap { Double($0) }
        // M x y H x V y H x V y H x: the levels are the 2nd, 4th and 6th numbers.
        #expect(levels.count == 7, "\(rule)")
        if levels.count == 7 {
            #expect(abs(levels[1] - oneFrame) < 0.5 && abs(levels[3] - raised) < 0.5, "\(rule)")
            #expect(abs(levels[5] - oneFrame) < 0.5, "\(rule)")
        }
    }

    /// `--json`: one command's result as a JSON line, in the shape the tool declares.
    @Test func aCommandsJSONLine() throws {
        let library = try ExamplePlugin.budget.get()
        let r = try Binary.run(
            [
                "--no-rc", "--plugin", library, "--json", "-c",
                "budget start --quiet; animate 100ms; load gpu 20ms; run 100ms", "-c", "budget list",
            ], environment: Self.environment)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        let last = try #require(r.stdout.split(separator: "\n").last.map(String.init))
        func frame(_ n: Int, _ present: Int) -> String {
            "{\"frame\": \(n), \"present_ns\": \(present), \"commit_ns\": 0, \"render_ns\": 20000000, "
                + "\"cost_ns\": 20000000, \"limit_ns\": 16666666, \"cause\": \"render\"}"
        }
        #expect(
            last == "{\"command\": \"budget list\", \"ok\": true, \"result\": {\"frames\": [\(frame(1, 50_000_000)), "
                + "\(frame(3, 83_333_333))]}}", "\(r)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let result = try #require(object["result"] as? [String: Any])
        #expect((result["frames"] as? [Any])?.count == 2)
    }

    /// A session with the plugin loaded records a file that starts by requiring it from where it
    /// was loaded; replayed without `--plugin`, it loads the plugin and prints the same events
    /// and values; with the plugin already loaded, the requirement is met as it stands.
    @Test func aRecordingWithThePluginReplays() throws {
        let library = try ExamplePlugin.budget.get()
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = """
            set budget.limit 20ms; set spans.over 50ms; budget start; spans start
            animate 200ms; load gpu 25ms; stall 60ms; run 300ms
            get budget.over_frames; get spans.count; budget
            """
        let original = try Binary.run(
            ["--no-rc", "--plugin", library, "-c", "record r.dsh", "-c", session, "-c", "record stop"],
            directory: dir, environment: Self.environment)
        #expect(original.status == 0 && original.stderr.isEmpty, "\(original)")
        let recording = try String(contentsOf: dir.appendingPathComponent("r.dsh"), encoding: .utf8)
        let resolved = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
        let commands = recording.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(commands.first == "plugin require budget --from \(resolved)", "\(recording)")

        // What the session printed, without the recording's own two lines.
        let printed = original.stdout.split(separator: "\n").filter { !$0.hasPrefix("record") }
        #expect(printed.contains("budget.over_frames = 5") && printed.contains("spans.count = 1"), "\(original)")
        for arguments in [["r.dsh"], ["--plugin", library, "r.dsh"]] {
            let replay = try Binary.run(["--no-rc"] + arguments, directory: dir, environment: Self.environment)
            #expect(replay.status == 0 && replay.stderr.isEmpty, "\(replay)")
            #expect(replay.stdout.split(separator: "\n") == printed, "\(arguments): \(replay)")
        }
    }
}
