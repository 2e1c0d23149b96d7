import DebugShellCharts
import DebugShellCore

/// What a frame costs, for its budget.
public enum BudgetMeasure: String, CommandLineChoice {
    /// The longer of the frame's commit and its render.
    case worst
    /// The render server's time for the frame (R1).
    case render
    /// The main thread's Core Animation commit that made the frame (RL4.2).
    case commit
}

/// A frame-budget watcher: every frame the display presents is measured — its commit, its
/// render, or the longer of the two (`budget.measure`) — against a budget (`budget.limit`, one
/// refresh period by default), and the frames over it are counted by cause, reported as events,
/// marked in the trace and drawn.
public final class BudgetWatcher: DebugTool, DeviceObserver {
    // MARK: Declarations

    /// The budget: `1f` by default, which the host resolves at the rate in force whenever it is
    /// read (the typed default, one frame at 60 Hz, is what `limit.defaultValue` says).
    static let limit = SettingSpec.duration(
        "budget.limit", abstract: "A frame that costs more than this is over budget; 1f follows the refresh rate.",
        default: .nanoseconds(16_666_667), defaultText: "1f")
    static let measure = SettingSpec.choice(
        "budget.measure", abstract: "What a frame costs: the longer of commit and render, the render, or the commit.",
        default: BudgetMeasure.worst)

    static let quiet = OptionSpec.flag("quiet", abstract: "Count frames over budget without printing events.")
    static let all = OptionSpec.flag("all", abstract: "List every frame measured, not only those over budget.")
    static let last = OptionSpec.integer(
        "last", in: 1...1_000_000, abstract: "Only the last n frames listed.", defaultText: "all kept")
    static let file = ArgumentSpec.optional(
        "file", .path, abstract: "An SVG file to write; without one the chart is drawn here.", as: String.self)
    static let width = OptionSpec.integer(
        "width", in: 24...1000, abstract: "The text chart's width in columns.", defaultText: "the display's")

    /// Frames kept for `budget list` and `budget plot`; the counts cover every frame.
    public static let keptFrames = 10_000

    public static let descriptor = ToolDescriptor(
        name: "budget", abstract: "Watches each presented frame's cost against a frame budget.",
        commands: [
            CommandSpec(
                "budget", abstract: "Watch frames against a budget: start, stop, show, list, plot.",
                discussion: """
                    Each frame the display presents costs its commit's time, its render's time, or the \
                    longer of the two ('budget.measure'); a frame that costs more than 'budget.limit' (1f, \
                    one refresh period at the rate in force, by default) is over budget. Frames over budget \
                    are events ('budget.over'), slices 'over budget' on the tool's track of a trace, and \
                    the trace counter 'budget: over'. The last 10000 frames are kept for 'budget list' and \
                    'budget plot'.
                    """,
                verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)
        ],
        metrics: [
            MetricSpec("budget.frames", .integer, abstract: "Frames measured since 'budget start'."),
            MetricSpec("budget.over_frames", .integer, abstract: "Frames over budget since 'budget start'."),
            MetricSpec("budget.over_ratio", .number, abstract: "The share of frames over budget, 0 to 1."),
            MetricSpec("budget.worst", .duration, abstract: "The highest cost of a frame measured."),
            MetricSpec("budget.last", .duration, abstract: "The cost of the last frame measured."),
            MetricSpec(
                "budget.cause.*", .integer,
                abstract: "Frames over budget by the part that was over it: commit, render or both."),
        ],
        settings: [limit, measure],
        events: [EventSpec("budget.over", abstract: "A frame cost more than the budget.")])

    /// The command's verbs: `run(_:)` switches over them, so a verb declared without behaviour
    /// does not compile. Help lists them in this order.
    enum Verb: String, ToolVerbs {
        case start, stop, show, list, plot

        var declaration: VerbSpec {
            switch self {
            case .start:
                return VerbSpec(
                    "start", abstract: "Start measuring presented frames, from zero.", options: [quiet],
                    examples: [
                        Example(
                            """
                            > budget start
                            > animate 100ms
                            > load gpu 20ms
                            > run 100ms
                            [0.050s] budget: frame 1 over budget: render 20ms > 16.666666ms
                            [0.083s] budget: frame 3 over budget: render 20ms > 16.666666ms
                            > get budget.over_frames
                            budget.over_frames = 2
                            """),
                        Example(
                            """
                            > set budget.limit 25ms
                            > budget start --quiet
                            > animate 100ms
                            > load gpu 20ms
                            > run 200ms
                            > budget
                            watching since 0s
                            frames 4 · over 0 (0%) · limit 25ms · measure worst
                            worst 20ms (frame 1, render) · last 20ms
                            > budget start
                            error: budget is already watching (since 0s): 'budget stop' first
                            """),
                    ])
            case .stop:
                return VerbSpec(
                    "stop", abstract: "Stop measuring; the counts stay.",
                    examples: [
                        Example(
                            """
                            > budget start --quiet
                            > animate 1s
                            > run 100ms
                            > budget stop
                            stopped at 100ms: 4 frames, 0 over budget
                            > run 1s
                            > get budget.frames
                            budget.frames = 4
                            > budget stop
                            error: budget is not watching: 'budget start' starts it
                            """)
                    ])
            case .show:
                return VerbSpec(
                    "show", abstract: "What has been measured, in three lines.",
                    examples: [
                        Example(
                            """
                            > budget
                            not watching: 'budget start' starts
                            frames 0 · over 0 · limit 16.666666ms · measure worst
                            """),
                        Example(
                            """
                            > set budget.measure commit
                            > budget start --quiet
                            > animate 100ms
                            > load commit 20ms
                            > run 100ms
                            > budget show
                            watching since 0s
                            frames 3 · over 3 (100%) · limit 16.666666ms · measure commit
                            worst 20ms (frame 1, commit) · last 20ms
                            > get budget.cause.commit
                            budget.cause.commit = 3
                            """),
                    ])
            case .list:
                return VerbSpec(
                    "list", abstract: "The frames over budget, or every frame kept, one a line.",
                    options: [all, last],
                    examples: [
                        Example(
                            """
                            > budget start --quiet
                            > animate 100ms
                            > load gpu 20ms
                            > run 100ms
                            > budget list
                            frame  present      commit  render  cost  limit        cause
                            1      50ms         0s      20ms    20ms  16.666666ms  render
                            3      83.333333ms  0s      20ms    20ms  16.666666ms  render
                            """),
                        Example(
                            """
                            > budget start --quiet
                            > animate 50ms
                            > run 100ms
                            > budget list --all --last 2
                            frame  present      commit  render  cost  limit        cause
                            2      50ms         0s      0s      0s    16.666666ms  -
                            3      66.666666ms  0s      0s      0s    16.666666ms  -
                            > budget list
                            no frames over budget
                            """),
                    ])
            case .plot:
                return VerbSpec(
                    "plot", abstract: "Draw each frame's cost against the budget, here or as an SVG.",
                    arguments: [file], options: [width],
                    examples: [
                        Example(
                            """
                            > budget start --quiet
                            > animate 200ms
                            > load gpu 10ms
                            > run 100ms
                            > load gpu 20ms
                            > run 100ms
                            > budget plot --width 50
                            budget: frame costs and the limit
                            cost (ms)
                              40 ┤
                                 │
                              30 ┤
                                 │
                              20 ┤╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌██████╌╌╌██████ limit
                                 │                       ██████   ██████
                              10 ┤███ ████ ████████ ████ ██████   ██████
                                 │███ ████ ████████ ████ ██████   ██████
                               0 ┼──────────────────────────────────────
                            over │                       !!!!!!   !!!!!!
                                 └─────────┬─────────────┬─────────────┬
                                           0.05s         0.1s      0.15s
                                                 time (s)
                            █ within budget  ! over budget  ╌ budget.limit
                            cost: the longer of the commit and the render
                            (budget.measure worst)
                            7 frames, 2 over budget
                            """),
                        Example(
                            """
                            > budget plot chart.png
                            error: the chart is written as SVG: name the file <name>.svg (got 'chart.png')
                            """),
                    ])
            }
        }
    }

    // MARK: State

    /// Which part of a frame was measured or went over budget.
    enum Part: String, CaseIterable {
        case commit, render, both
    }

    /// One frame measured.
    struct Frame {
        var number: Int64
        var present: SimTime
        var commitStart: SimTime
        var commitEnd: SimTime
        var renderStart: SimTime
        var renderEnd: SimTime
        /// The part the cost is (commit or render).
        var measured: Part
        var cost: SimDuration
        var limit: SimDuration
        /// The part over budget; nil when within it.
        var over: Part?

        var commit: SimDuration { commitEnd - commitStart }
        var render: SimDuration { renderEnd - renderStart }
        /// The span of the part measured.
        var span: (start: SimTime, end: SimTime) {
            measured == .render ? (renderStart, renderEnd) : (commitStart, commitEnd)
        }
    }

    private let host: any ToolHost
    private var token: ObserverToken?
    private var quietly = false
    private var since: SimTime?
    private var stoppedAt: SimTime?
    private var kept = Ring<Frame>(capacity: keptFrames)
    private var measuredCount: Int64 = 0
    private var overCount: Int64 = 0
    private var overByPart: [Part: Int64] = [:]
    private var worst: Frame?
    private var lastCost: SimDuration?

    public init(host: any ToolHost) { self.host = host }

    // MARK: Commands

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch try invocation.verb(Verb.self) {
        case .start: return try start(quietly: invocation[Self.quiet])
        case .stop: return try stop()
        case .show: return show()
        case .list: return list(all: invocation[Self.all], last: invocation[Self.last])
        case .plot: return try plot(file: invocation[Self.file], columns: invocation[Self.width].map { Int($0) })
        }
    }

    private func start(quietly: Bool) throws(CommandError) -> CommandOutput {
        let device = host.device
        if let since, token != nil {
            throw CommandError("budget is already watching (since \(since)): 'budget stop' first")
        }
        self.quietly = quietly
        since = device.now
        stoppedAt = nil
        kept = Ring(capacity: Self.keptFrames)
        measuredCount = 0
        overCount = 0
        overByPart = [:]
        worst = nil
        lastCost = nil
        token = device.addObserver(self, kinds: .present)
        host.traceCounter("over", MetricNumber(0), at: device.now)
        return CommandOutput(
            json: .fields([
                "since_ns": JSONValue(device.now), "limit_ns": JSONValue(self.host.setting(Self.limit)),
                "measure": .string(self.host.setting(Self.measure).rawValue),
            ]))
    }

    private func stop() throws(CommandError) -> CommandOutput {
        guard let token else { throw CommandError("budget is not watching: 'budget start' starts it") }
        host.device.removeObserver(token)
        self.token = nil
        stoppedAt = host.device.now
        return CommandOutput(
            text: "stopped at \(host.device.now): \(measuredCount) frames, \(overCount) over budget",
            json: .fields(["frames": .int(self.measuredCount), "over": .int(self.overCount)]))
    }

    private func show() -> CommandOutput {
        let limit = host.setting(Self.limit)
        let measure = host.setting(Self.measure)
        var lines: [String] = []
        if let since, token != nil {
            lines.append("watching since \(since)")
        } else if let since, let stoppedAt {
            lines.append("stopped at \(stoppedAt) (watched from \(since))")
        } else {
            lines.append("not watching: 'budget start' starts")
        }
        var counts = "frames \(measuredCount) · over \(overCount)"
        if measuredCount > 0 {
            counts += " (\(MetricNumber(numerator: Int128(overCount) * 100, denominator: Int128(measuredCount)))%)"
        }
        lines.append(counts + " · limit \(limit) · measure \(measure.rawValue)")
        if let worst, let lastCost {
            lines.append("worst \(worst.cost) (frame \(worst.number), \(worst.measured.rawValue)) · last \(lastCost)")
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .fields([
                "watching": .bool(self.token != nil), "since_ns": self.since.map { JSONValue($0) } ?? .null,
                "limit_ns": JSONValue(limit), "measure": .string(measure.rawValue),
                "frames": .int(self.measuredCount), "over": .int(self.overCount),
                "worst_ns": self.worst.map { JSONValue($0.cost) } ?? .null,
                "last_ns": self.lastCost.map { JSONValue($0) } ?? .null,
                "over_by_cause": .object(Part.allCases.map { ($0.rawValue, .int(self.overByPart[$0] ?? 0)) }),
            ]))
    }

    private func list(all: Bool, last: Int64?) -> CommandOutput {
        var shown = all ? kept.elements : kept.elements.filter { $0.over != nil }
        if let last, shown.count > Int(last) { shown = Array(shown.suffix(Int(last))) }
        var rows = [["frame", "present", "commit", "render", "cost", "limit", "cause"]]
        for f in shown {
            rows.append([
                String(f.number), f.present.description, f.commit.description, f.render.description,
                f.cost.description, f.limit.description, f.over?.rawValue ?? "-",
            ])
        }
        let text = shown.isEmpty ? (all ? "no frames measured" : "no frames over budget") : Table.text(rows)
        return CommandOutput(
            text: text,
            json: .fields([
                "frames": .array(
                    shown.map { f in
                        .fields([
                            "frame": .int(f.number), "present_ns": JSONValue(f.present),
                            "commit_ns": JSONValue(f.commit), "render_ns": JSONValue(f.render),
                            "cost_ns": JSONValue(f.cost), "limit_ns": JSONValue(f.limit),
                            "cause": JSONValue(f.over?.rawValue),
                        ])
                    })
            ]))
    }

    private func plot(file: String?, columns: Int?) throws(CommandError) -> CommandOutput {
        func seconds(_ t: SimTime) -> Double { Double(t.nanoseconds) / 1e9 }
        func seconds(_ d: SimDuration) -> Double { Double(d.nanoseconds) / 1e9 }
        let frames = kept.elements
        var within = ChartSeries("within budget", style: .bars, color: RGB(120, 144, 156))
        var over = ChartSeries("over budget", style: .bars, color: RGB(229, 57, 53), mark: "!")
        var rule = ChartRule(
            y: seconds(frames.first?.limit ?? host.setting(Self.limit)), label: "budget.limit", color: RGB(90, 90, 90),
            tag: "limit")
        var previousLimit = frames.first?.limit
        for f in frames {
            let point = ChartPoint(x: seconds(f.span.end), y: seconds(f.cost), start: seconds(f.span.start))
            if f.over == nil { within.points.append(point) } else { over.points.append(point) }
            if f.limit != previousLimit {
                rule.changes.append(ChartRule.Change(x: seconds(f.span.start), y: seconds(f.limit)))
                previousLimit = f.limit
            }
        }
        let measure = host.setting(Self.measure)
        let chart = Chart(
            title: "budget: frame costs and the limit",
            xAxis: ChartAxis(label: "time (s)", unit: "s"),
            panels: [
                ChartPanel(
                    yAxis: ChartAxis(label: "cost ({unit})", lower: 0, quantity: .duration), series: [within, over],
                    rules: [rule], markLabel: "over",
                    emptyNote: "no frames measured:\n'budget start', then animate")
            ],
            notes: ["cost: \(Self.meaning(of: measure)) (budget.measure \(measure.rawValue))"])
        let summary =
            frames.isEmpty ? "no frames measured" : "\(frames.count) frames, \(over.points.count) over budget"
        return try chart.commandOutput(
            file: file, display: host.display, columns: columns, rows: 8, summary: summary,
            json: [("frames", JSONValue(frames.count)), ("over", JSONValue(over.points.count))])
    }

    /// What a frame's cost is under a measure, for people.
    static func meaning(of measure: BudgetMeasure) -> String {
        switch measure {
        case .worst: return "the longer of the commit and the render"
        case .render: return "the render"
        case .commit: return "the commit"
        }
    }

    // MARK: Watching

    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        guard case .presented(let info) = observation else { return }
        let limit = host.setting(Self.limit)
        let measure = host.setting(Self.measure)
        let commit = info.commitEnd - info.commitStart
        let render = info.renderEnd - info.renderStart
        let measured: Part
        var over: Part?
        switch measure {
        case .render:
            measured = .render
            if render > limit { over = .render }
        case .commit:
            measured = .commit
            if commit > limit { over = .commit }
        case .worst:
            measured = render >= commit ? .render : .commit
            switch (commit > limit, render > limit) {
            case (true, true): over = .both
            case (true, false): over = .commit
            case (false, true): over = .render
            case (false, false): over = nil
            }
        }
        let frame = Frame(
            number: info.frame, present: info.present, commitStart: info.commitStart, commitEnd: info.commitEnd,
            renderStart: info.renderStart, renderEnd: info.renderEnd, measured: measured,
            cost: measured == .render ? render : commit, limit: limit, over: over)
        kept.append(frame)
        measuredCount += 1
        lastCost = frame.cost
        if frame.cost > (worst?.cost ?? SimDuration(nanoseconds: -1)) { worst = frame }
        guard let over else { return }
        overCount += 1
        overByPart[over, default: 0] += 1
        if host.isTracing {
            let span = frame.span
            host.traceSlice(
                "over budget", from: span.start, to: span.end,
                args: [
                    ("frame", .int(frame.number)), ("cost_ns", JSONValue(frame.cost)),
                    ("limit_ns", JSONValue(limit)), ("cause", .string(over.rawValue)),
                ])
            host.traceCounter("over", MetricNumber(overCount), at: device.now)
        }
        if !quietly {
            let parts: String
            switch over {
            case .both: parts = "commit \(commit), render \(render)"
            case .commit: parts = "commit \(commit)"
            case .render: parts = "render \(render)"
            }
            host.emit(
                ToolEvent(
                    name: "budget.over", time: device.now,
                    message: "frame \(frame.number) over budget: \(parts) > \(limit)",
                    fields: [
                        ("frame", .int(frame.number)), ("cost_ns", JSONValue(frame.cost)),
                        ("limit_ns", JSONValue(limit)), ("cause", .string(over.rawValue)),
                    ]))
        }
    }

    // MARK: Metrics and status

    public func metric(_ name: String) -> MetricValue? {
        switch name {
        case "budget.frames": return .integer(measuredCount)
        case "budget.over_frames": return .integer(overCount)
        case "budget.over_ratio":
            guard measuredCount > 0 else { return MetricValue.none }
            return .number(MetricNumber(numerator: Int128(overCount), denominator: Int128(measuredCount)))
        case "budget.worst": return worst.map { .duration($0.cost) } ?? MetricValue.none
        case "budget.last": return lastCost.map { .duration($0) } ?? MetricValue.none
        default:
            let prefix = "budget.cause."
            guard name.hasPrefix(prefix), let part = Part(rawValue: String(name.dropFirst(prefix.count))) else {
                return nil
            }
            return .integer(overByPart[part] ?? 0)
        }
    }

    public func metricNames() -> [String] {
        ["budget.frames", "budget.over_frames", "budget.over_ratio", "budget.worst", "budget.last"]
            + Part.allCases.map { "budget.cause.\($0.rawValue)" }
    }

    public func statusLine() -> StyledText? {
        guard token != nil else { return nil }
        var line = StyledText()
        line.append("budget ", .bold)
        line.append("\(host.setting(Self.limit)) · \(measuredCount) frame\(measuredCount == 1 ? "" : "s") · ")
        line.append("\(overCount) over", overCount > 0 ? .color(RGB(229, 57, 53)) : .plain)
        if let worst { line.append(" · worst \(worst.cost)", .dim) }
        return line
    }
}

/// Columns of text, each as wide as its widest cell and two spaces apart.
enum Table {
    static func text(_ rows: [[String]]) -> String {
        var widths: [Int] = []
        for row in rows {
            for (i, cell) in row.enumerated() {
                if i == widths.count { widths.append(0) }
                widths[i] = max(widths[i], cell.count)
            }
        }
        return rows.map { row in
            var line = ""
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            return line
        }.joined(separator: "\n")
    }
}

/// The last `capacity` values appended, oldest first.
struct Ring<Element> {
    let capacity: Int
    private var storage: [Element] = []
    /// Where the oldest value is, once the ring is full.
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ value: Element) {
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[head] = value
            head = (head + 1) % capacity
        }
    }

    var elements: [Element] { Array(storage[head...] + storage[..<head]) }
}
