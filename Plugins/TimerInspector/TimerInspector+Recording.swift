import DebugShellCore

/// `timer show --recording`: the cadence and lateness of a display link a real device recorded
/// (`import csv` of a display-link log), read from the imported ``RecordedTimeline`` on demand
/// (docs/TimerInspector.md, "A recorded display link").
///
/// A recording has, for each callback, the vsync it was for (`timestamp`), the next one
/// (`targetTimestamp`) and the frame interval (`duration`), not when the callback ran: a
/// callback's lateness is how far its vsync came after the vsync it was due — the previous
/// callback's target — which is the time the main thread kept the link from firing.
struct RecordedLink {
    /// Where the link's interval was read.
    enum IntervalSource: String {
        /// The lower median of `targetTimestamp − timestamp`: the link's own frame interval.
        case target = "target − timestamp"
        /// The lower median of `duration`.
        case duration = "duration"
        /// The recording's refresh interval (a log without targets or durations: its median gap).
        case refresh = "the refresh interval"
        /// The lower median of the positive gaps between timestamps.
        case gap = "the median gap"

        /// The source in one word, for JSON.
        var word: String {
            switch self {
            case .target: "target"
            case .duration: "duration"
            case .refresh: "refresh"
            case .gap: "gap"
            }
        }
    }

    /// How the vsync a callback was due is read from the callback before it.
    enum DueRule: String, CaseIterable {
        case target = "previous target"
        case duration = "previous timestamp + duration"
        case refresh = "previous timestamp + refresh interval"

        /// The rule in one word, for JSON.
        var word: String {
            switch self {
            case .target: "target"
            case .duration: "duration"
            case .refresh: "refresh"
            }
        }
    }

    /// One callback, as the report reads it; nil fields for the first callback (nothing before it).
    struct Row {
        var number: Int
        var timestamp: SimTime
        var target: SimTime?
        var interval: SimDuration?
        var due: SimTime?
        var lateness: SimDuration?
        var skipped: Int64?
        /// The callback came before the vsync it was due: the link's rate changed (lateness 0).
        var early: Bool
    }

    let timeline: RecordedTimeline
    /// The link's interval and where it was read; nil when nothing says (one callback, no
    /// target, duration or refresh interval).
    let interval: SimDuration?
    let intervalSource: IntervalSource?
    /// Totals over every callback after the first.
    private(set) var skipped: Int64 = 0
    private(set) var maxLate = SimDuration.zero
    private(set) var early = 0
    /// Intervals between callbacks by how many link intervals they span: under one (rounded to
    /// 0), one, two, three or more.
    private(set) var under = 0
    private(set) var once = 0
    private(set) var twice = 0
    private(set) var more = 0
    private(set) var medianInterval: SimDuration?
    /// The rules the due vsyncs were read by, in ``DueRule`` order.
    private(set) var rules: [DueRule] = []

    var callbacks: [RecordedLinkCallback] { timeline.linkCallbacks }

    init(_ timeline: RecordedTimeline) {
        self.timeline = timeline
        let callbacks = timeline.linkCallbacks
        var targets: [Int64] = []
        var durations: [Int64] = []
        var gaps: [Int64] = []
        for (k, c) in callbacks.enumerated() {
            if let t = c.targetTimestamp, t > c.timestamp { targets.append((t - c.timestamp).nanoseconds) }
            if let d = c.duration, d > .zero { durations.append(d.nanoseconds) }
            if k > 0 { gaps.append((c.timestamp - callbacks[k - 1].timestamp).nanoseconds) }
        }
        let read: (SimDuration, IntervalSource)? =
            if let m = Self.lowerMedian(targets) {
                (SimDuration(nanoseconds: m), .target)
            } else if let m = Self.lowerMedian(durations) {
                (SimDuration(nanoseconds: m), .duration)
            } else if let r = timeline.refreshInterval, r > .zero {
                (r, .refresh)
            } else if let m = Self.lowerMedian(gaps.filter { $0 > 0 }) {
                (SimDuration(nanoseconds: m), .gap)
            } else {
                nil
            }
        interval = read?.0
        intervalSource = read?.1
        medianInterval = Self.lowerMedian(gaps).map { SimDuration(nanoseconds: $0) }
        var used = Set<DueRule>()
        for k in callbacks.indices.dropFirst() {
            let r = row(k)
            if let rule = dueRule(k) { used.insert(rule) }
            skipped += r.skipped ?? 0
            maxLate = max(maxLate, r.lateness ?? .zero)
            if r.early { early += 1 }
            switch multiple(r.interval ?? .zero) {
            case 0: under += 1
            case 1: once += 1
            case 2: twice += 1
            default: more += 1
            }
        }
        rules = DueRule.allCases.filter(used.contains)
    }

    /// `values`' lower median: of an even count, the smaller middle value.
    static func lowerMedian(_ values: [Int64]) -> Int64? {
        values.isEmpty ? nil : values.sorted()[(values.count - 1) / 2]
    }

    /// How many link intervals `d` spans, rounded half away from zero (1 without an interval).
    func multiple(_ d: SimDuration) -> Int64 {
        guard let interval, interval > .zero else { return 1 }
        return Int64(clamping: SimFormat.roundedDivide(Int128(d.nanoseconds), by: Int128(interval.nanoseconds)))
    }

    /// How callback `k`'s due vsync is read from the one before it; nil for the first, or when
    /// nothing says.
    func dueRule(_ k: Int) -> DueRule? {
        guard k > 0 else { return nil }
        let previous = callbacks[k - 1]
        if previous.targetTimestamp != nil { return .target }
        if previous.duration != nil { return .duration }
        return timeline.refreshInterval.map { _ in .refresh }
    }

    /// Callback `k` (0-based) with its interval, due vsync, lateness and skipped vsyncs.
    func row(_ k: Int) -> Row {
        let c = callbacks[k]
        var row = Row(number: k + 1, timestamp: c.timestamp, target: c.targetTimestamp, early: false)
        guard k > 0 else { return row }
        let previous = callbacks[k - 1]
        row.interval = c.timestamp - previous.timestamp
        let due: SimTime? =
            switch dueRule(k) {
            case .target: previous.targetTimestamp
            case .duration: previous.duration.map { previous.timestamp + $0 }
            case .refresh: timeline.refreshInterval.map { previous.timestamp + $0 }
            case nil: nil
            }
        row.due = due
        guard let due else { return row }
        // A timestamp before the vsync it was due is a change of rate, not a negative lateness.
        row.early = c.timestamp < due
        let lateness = row.early ? .zero : c.timestamp - due
        row.lateness = lateness
        // The vsyncs that passed without a callback; unknown without the link's interval.
        row.skipped = lateness == .zero ? 0 : interval.map { _ in multiple(lateness) }
        return row
    }

    /// `50 Hz`, `59.94 Hz`: 1 s over `d`, to the thousandth of a hertz.
    static func hertz(_ d: SimDuration) -> String {
        let millihertz = SimFormat.roundedDivide(1_000_000_000_000, by: Int128(max(1, d.nanoseconds)))
        return "\(SimFormat.decimal(Int64(clamping: millihertz), scaleDigits: 3, minFraction: 0)) Hz"
    }
}

extension TimerInspector {
    /// `timer show --recording [--last n]`.
    func recordedLinkReport(last wanted: Int) throws(CommandError) -> CommandOutput {
        guard let timeline = host.recording else {
            throw CommandError(
                "no recording: timer show --recording reads a recording's display-link callbacks "
                    + "(a display-link log, 'import csv', has them)")
        }
        guard !timeline.linkCallbacks.isEmpty else {
            throw CommandError(
                "the recording has no display-link callbacks: timer show --recording reads callbacks "
                    + "(a display-link log, 'import csv', has them)")
        }
        let link = RecordedLink(timeline)
        let count = link.callbacks.count
        let first = link.callbacks[0].timestamp
        let lastTimestamp = link.callbacks[count - 1].timestamp

        var header =
            "recording: displaylink, \(count) \(count == 1 ? "callback" : "callbacks"), \(first) to \(lastTimestamp)"
        if let interval = link.interval, let source = link.intervalSource {
            header += ", every \(Format.duration(interval)) (\(RecordedLink.hertz(interval)), \(source.rawValue))"
        } else {
            header += ", interval unknown"
        }
        var lines = [header]
        if let refresh = timeline.refreshInterval {
            let source = timeline.refreshSource.map { ", \($0.text)" } ?? ""
            lines.append("display: refresh \(Format.duration(refresh)) (\(RecordedLink.hertz(refresh))\(source))")
        }
        var stats = ["fires \(count)", "skipped \(link.skipped)"]
        if count > 1 { stats.append("max late \(Format.duration(link.maxLate))") }
        if link.early > 0 { stats.append("early \(link.early) (the rate changed)") }
        lines.append(stats.joined(separator: " · "))
        if count > 1 {
            var groups = ["1×: \(link.once)", "2×: \(link.twice)", "3+×: \(link.more)"]
            if link.under > 0 { groups.insert("under 1×: \(link.under)", at: 0) }
            if let median = link.medianInterval { groups.append("median \(Format.duration(median))") }
            lines.append("cadence: " + groups.joined(separator: " · "))
            let due = link.rules.isEmpty ? "unknown" : link.rules.map(\.rawValue).joined(separator: ", or ")
            lines.append("late: timestamp − due (\(due)); when callbacks ran is not recorded")
        }
        let shownFrom = max(0, count - wanted)
        let rows = (shownFrom..<count).map(link.row)
        if rows.count < count {
            lines.append("the last \(rows.count) of \(count) callbacks; --last n shows more")
        }
        lines.append(
            Format.table(
                ["#", "timestamp", "target", "interval", "late", "skipped"],
                rows.map { r in
                    [
                        String(r.number), Format.time(r.timestamp), r.target.map(Format.time) ?? "-",
                        r.interval.map(Format.duration) ?? "-",
                        r.lateness.map { Format.duration($0) + (r.early ? " early" : "") } ?? "-",
                        r.skipped.map { String($0) } ?? "-",
                    ]
                }))

        func optional<T>(_ value: T?, _ json: (T) -> JSONValue) -> JSONValue { value.map(json) ?? .null }
        let json = JSONValue.fields([
            "recording": .fields([
                "format": .string(timeline.format.rawValue), "sources": .array(timeline.sources.map { .string($0) }),
                "from_ns": JSONValue(first), "to_ns": JSONValue(lastTimestamp),
                "interval_ns": optional(link.interval) { JSONValue($0) },
                "interval_source": optional(link.intervalSource) { .string($0.word) },
                "refresh_interval_ns": optional(timeline.refreshInterval) { JSONValue($0) },
                "refresh_source": optional(timeline.refreshSource) { .string($0.word) },
            ]),
            "fires": JSONValue(count), "skipped": .int(link.skipped),
            "max_late_ns": count > 1 ? JSONValue(link.maxLate) : .null, "early": JSONValue(link.early),
            "cadence": .fields([
                "under": JSONValue(link.under), "once": JSONValue(link.once), "twice": JSONValue(link.twice),
                "more": JSONValue(link.more), "median_interval_ns": optional(link.medianInterval) { JSONValue($0) },
            ]),
            "due": .array(link.rules.map { .string($0.word) }),
            "total": JSONValue(count),
            "callbacks": .array(
                rows.map { r in
                    .fields([
                        "n": JSONValue(r.number), "timestamp_ns": JSONValue(r.timestamp),
                        "target_ns": optional(r.target) { JSONValue($0) },
                        "interval_ns": optional(r.interval) { JSONValue($0) },
                        "due_ns": optional(r.due) { JSONValue($0) },
                        "lateness_ns": optional(r.lateness) { JSONValue($0) },
                        "skipped": optional(r.skipped) { .int($0) }, "early": .bool(r.early),
                    ])
                }),
        ])
        return CommandOutput(text: lines.joined(separator: "\n"), json: json)
    }
}
