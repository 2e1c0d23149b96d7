import DebugShellCore

/// Reads debugsh's own Chrome trace (`trace save`, docs/Trace.md) back into a
/// ``RecordedTimeline``: the vsyncs the device processed, every present with its render and
/// commit where the trace has them, the hitches as its Hitches track marks them, and the
/// refresh interval from the vsyncs' spacing. docs/Import.md ("Chrome traces") says what is
/// read from which event, and what a trace cannot give.
///
/// Streaming: the file is read a chunk at a time, one event at a time, with a small JSON reader
/// of its own (``ChromeJSONReader``); memory is what the timeline keeps. All or nothing: the
/// first fault throws an ``ImportError`` at its `file:line:column:`. `interrupted` is polled
/// every 4,096 events and every megabyte read (an event is at most a few: ``ChromeJSONReader``).
public enum ChromeTraceImport {
    public static func read(_ path: String, interrupted: () -> Bool) throws(ImportError) -> RecordedTimeline {
        var reader = try ChromeJSONReader(path: path)
        var trace = ChromeTraceEvents(path: path)
        var poll = Poll()
        guard let first = try reader.peek() else {
            if reader.source.offset == 0 {
                throw ImportError("the file is empty: a Chrome trace is a JSON object with traceEvents", file: path)
            }
            throw ImportError("only white space: a Chrome trace is a JSON object with traceEvents", file: path)
        }
        switch first {
        case UInt8(ascii: "{"):
            _ = try reader.take(first)
            if !(try reader.take(UInt8(ascii: "}"))) {
                repeat {
                    guard try reader.peek() == UInt8(ascii: "\"") else {
                        throw reader.error(describe(try reader.peek(), wanted: "a key in quotes"))
                    }
                    let line = reader.line
                    let key = try reader.string()
                    try reader.expect(UInt8(ascii: ":"), "':' after a key")
                    if key == "traceEvents" {
                        try events(&reader, into: &trace, poll: &poll, interrupted: interrupted)
                    } else {
                        _ = try reader.peek()
                        let column = reader.column
                        let value = try reader.value()
                        if key == "otherData" {
                            try trace.otherData(value) { message in
                                ImportError(message, file: path, line: line, column: column)
                            }
                        }
                        try poll.tick(reader.source.offset, line: line, path: path, interrupted)
                    }
                } while try reader.more(UInt8(ascii: "}"), "the trace object")
            }
        case UInt8(ascii: "["):
            try events(&reader, into: &trace, poll: &poll, interrupted: interrupted)
        default:
            throw reader.error(
                "\(CSVRecordReader.describe(first)) where a Chrome trace starts: '{' (an object with traceEvents) or '[' (an array of events)"
            )
        }
        if let after = try reader.peek() {
            throw reader.error("\(CSVRecordReader.describe(after)) after the trace's end")
        }
        return try trace.timeline()
    }

    /// The `traceEvents` array, one event at a time.
    private static func events(
        _ reader: inout ChromeJSONReader, into trace: inout ChromeTraceEvents, poll: inout Poll,
        interrupted: () -> Bool
    ) throws(ImportError) {
        guard try reader.peek() == UInt8(ascii: "[") else {
            throw reader.error(describe(try reader.peek(), wanted: "the traceEvents array"))
        }
        try reader.expect(UInt8(ascii: "["), "the traceEvents array")
        if try reader.take(UInt8(ascii: "]")) { return }
        repeat {
            _ = try reader.peek()
            let line = reader.line
            let column = reader.column
            let event = try reader.value()
            try poll.tick(reader.source.offset, line: line, path: reader.path, interrupted)
            let path = reader.path
            try trace.add(event) { message in ImportError(message, file: path, line: line, column: column) }
        } while try reader.more(UInt8(ascii: "]"), "the traceEvents array")
    }

    /// Polls `interrupted` every 4,096 elements and every megabyte read.
    struct Poll {
        private var count = 0
        private var polledAt: Int64 = 0

        mutating func tick(
            _ offset: Int64, line: Int, path: String, _ interrupted: () -> Bool
        ) throws(ImportError) {
            count += 1
            guard count == 4096 || offset - polledAt >= 1 << 20 else { return }
            count = 0
            polledAt = offset
            if interrupted() { throw ImportError("interrupted: nothing was imported", file: path, line: line) }
        }
    }

    private static func describe(_ byte: UInt8?, wanted: String) -> String {
        guard let byte else { return "the file ends where \(wanted) should be: it is cut short" }
        return "\(CSVRecordReader.describe(byte)) where \(wanted) should be"
    }
}

/// What a trace's events add up to, event by event (docs/Trace.md names each).
struct ChromeTraceEvents {
    /// A frame of one simulation: frame numbers start again after a `reset`.
    struct FrameKey: Hashable {
        var simulation: Int
        var frame: Int64
    }

    struct Present {
        var key: FrameKey
        var time: Int64
        var expected: Int64?
    }

    struct Render {
        var key: FrameKey
        /// nil when the trace's window cut its start (`truncated`).
        var start: Int64?
        var at: Int64
        var end: Int64
    }

    struct Commit {
        var simulation: Int
        var start: Int64?
        var end: Int64
    }

    struct Hitch {
        var key: FrameKey?
        var start: Int64
        var duration: Int64
        var cause: String
    }

    let path: String
    private var windowStart: Int64?
    /// Resets seen so far: the simulation the next events belong to.
    private var simulation = 0
    private var presents: [Present] = []
    private var renders: [Render] = []
    private var commits: [Commit] = []
    private var hitches: [Hitch] = []
    /// The display's instants (vsyncs and presents), with their vsync index where known.
    private var instants: [(time: Int64, index: Int64?)] = []
    private var idleVsyncs: Int64 = 0
    private var first: Int64?
    private var last: Int64 = 0
    private var mainEvents = 0
    /// A recording's own trace, read whole by its own rules.
    private var recording: ChromeRecordingEvents?

    init(path: String) { self.path = path }

    /// `otherData`: where the kept window starts; whether the trace is a recording's
    /// (`recording save`), which must say so before its events.
    mutating func otherData(_ value: ChromeJSONValue, error: (String) -> ImportError) throws(ImportError) {
        if let start = value["window_start_ns"]?.integer, start >= 0 { windowStart = start }
        if let saved = try ChromeRecordingEvents(otherData: value, error: error) {
            guard first == nil && recording == nil else {
                throw error("otherData names a recording after the trace's events: 'recording save' writes it first")
            }
            recording = saved
        }
    }

    /// The names of the Hitches track's slices, by cause (`hitch`: neither stage was late — the
    /// frame waited for the render server, which the FPS meter counts as a render hitch).
    static let hitchCauses = [
        "commit hitch": "commit", "render hitch": "render", "commit+render hitch": "both", "hitch": "render",
    ]

    mutating func add(_ event: ChromeJSONValue, error: (String) -> ImportError) throws(ImportError) {
        guard case .object = event else { throw error("an event that is not an object") }
        let ph = event["ph"]?.string
        if ph == "M" { return }
        let name = event["name"]?.string ?? ""
        let cat = event["cat"]?.string ?? ""
        let args = event["args"] ?? .object([])
        let what = name.isEmpty ? "an event" : "'\(name)'"
        var ts: Int64 = 0
        if let value = event["ts"] {
            guard let t = value.scaled(by: 3), t >= 0 else { throw error("\(what): its ts is not a time in µs from 0") }
            ts = t
        }
        var end = ts
        if ph == "X" {
            guard let dur = event["dur"]?.scaled(by: 3), dur >= 0 else {
                throw error("\(what): a slice (ph X) without a dur in µs from 0")
            }
            guard dur <= CSVDecimal.limit - ts else { throw error("\(what): ts + dur is past 2^62 ns") }
            end = ts + dur
        }
        first = min(first ?? ts, ts)
        last = max(last, end)
        func integer(_ key: String) throws(ImportError) -> Int64 {
            guard let n = args[key]?.integer else { throw error("\(what) without its \(key) (a whole number)") }
            return n
        }
        if recording != nil {
            try recording?.add(cat: cat, ph: ph, name: name, ts: ts, args: args, what: what, error: error)
            return
        }
        let truncated = args["truncated"].map { if case .bool(true) = $0 { true } else { false } } ?? false
        switch (cat, ph) {
        case ("display", "i") where name == "present", ("display", "X") where name == "present":
            let key = FrameKey(simulation: simulation, frame: try integer("frame"))
            let index = args["vsync"]?.integer
            let expected = args["expected_present_ns"]?.integer
            if let expected, expected < 0 || expected > CSVDecimal.limit {
                throw error("\(what): expected_present_ns \(expected) is not a time in ns from 0")
            }
            presents.append(Present(key: key, time: ts, expected: expected))
            instants.append((ts, index.flatMap { $0 >= 0 ? $0 : nil }))
        case ("display", "i") where name == "vsync":
            instants.append((ts, args["index"]?.integer))
        case ("display", "X") where name == "idle":
            // Saturating: a count past 2^62 says nothing more.
            idleVsyncs = min(CSVDecimal.limit, idleVsyncs + min(CSVDecimal.limit, max(0, args["vsyncs"]?.integer ?? 0)))
        case ("display", "X") where ChromeTraceEvents.hitchCauses[name] != nil:
            let cause = ChromeTraceEvents.hitchCauses[name] ?? "render"
            let frame = try integer("frame")
            // The slice's own arguments, exact even where the window cut its start.
            let present = try integer("present_ns")
            let hitch = try integer("hitch_ns")
            guard hitch >= 0, present >= hitch, present <= CSVDecimal.limit else {
                throw error("\(what): hitch_ns \(hitch) does not fit before present_ns \(present)")
            }
            hitches.append(
                Hitch(
                    key: FrameKey(simulation: simulation, frame: frame), start: present - hitch, duration: hitch,
                    cause: cause))
        case ("render", "X") where name == "render":
            let key = FrameKey(simulation: simulation, frame: try integer("frame"))
            // With three buffers a render taken at a vsync may start its work later (R7.2): the
            // slice is its work, `render_start_ns` when it was taken.
            let taken = args["render_start_ns"]?.integer
            renders.append(Render(key: key, start: truncated ? nil : (taken ?? ts), at: taken ?? ts, end: end))
        case ("main", "X"):
            mainEvents += 1
            if args["kind"]?.string == "commit" {
                commits.append(Commit(simulation: simulation, start: truncated ? nil : ts, end: end))
            } else if case .array(let items)? = args["items"] {
                // Zero-cost items of one instant, written as one slice that names them.
                for item in items where item.string == "commit" {
                    commits.append(Commit(simulation: simulation, start: ts, end: ts))
                }
            }
        case ("debugsh", _) where name == "reset":
            simulation += 1
        default:
            break
        }
    }

    func timeline() throws(ImportError) -> RecordedTimeline {
        if let recording { return recording.timeline(last: last) }
        guard !presents.isEmpty || !instants.isEmpty || !hitches.isEmpty || idleVsyncs > 0 else {
            throw ImportError(
                "no display events (vsync, present, idle, hitch): not a trace that 'trace save' wrote with its display category",
                file: path)
        }
        var notes: [String] = []
        let phases = phasesByFrame()
        var hitchByFrame: [FrameKey: Hitch] = [:]
        for hitch in hitches {
            if let key = hitch.key { hitchByFrame[key] = hitch }
        }
        var frames: [RecordedFrame] = []
        frames.reserveCapacity(presents.count)
        for p in presents {
            let phase = phases[p.key]
            let hitch = hitchByFrame[p.key]
            func t(_ ns: Int64?) -> SimTime? { ns.map { SimTime(nanoseconds: $0) } }
            frames.append(
                RecordedFrame(
                    present: SimTime(nanoseconds: p.time), commitStart: t(phase?.commit?.start),
                    commitEnd: t(phase?.commit?.end), renderStart: t(phase?.render.start),
                    renderEnd: t(phase?.render.end), expectedPresent: t(p.expected), cause: hitch?.cause,
                    number: p.key.frame, hitch: hitch.map { SimDuration(nanoseconds: $0.duration) }))
        }
        frames = ChromeTraceEvents.stable(frames) { $0.present < $1.present }
        let recordedHitches = ChromeTraceEvents.stable(hitches) { $0.start < $1.start }.map {
            RecordedHitch(
                start: SimTime(nanoseconds: $0.start), duration: SimDuration(nanoseconds: $0.duration),
                description: $0.cause)
        }

        // The display's instants: the vsyncs it processed; the spacing of two with consecutive
        // indices is one refresh interval.
        let sorted = ChromeTraceEvents.stable(instants) { $0.time < $1.time }
        var vsyncs: [SimTime] = []
        vsyncs.reserveCapacity(sorted.count)
        var gaps: [Int64] = []
        for (i, instant) in sorted.enumerated() {
            if vsyncs.last?.nanoseconds != instant.time { vsyncs.append(SimTime(nanoseconds: instant.time)) }
            guard i > 0, let index = instant.index, let before = sorted[i - 1].index, index == before + 1 else {
                continue
            }
            let gap = instant.time - sorted[i - 1].time
            if gap > 0 { gaps.append(gap) }
        }
        var refresh = CSVImport.assumedRefresh
        var source = RecordedTimeline.RefreshSource.assumed
        if let median = CSVImport.median(gaps) {
            refresh = SimDuration(nanoseconds: median)
            source = .vsyncMedian
        } else {
            notes.append("no two consecutive vsyncs in the trace: the refresh interval is assumed, 60 Hz")
        }

        if idleVsyncs > 0 {
            notes.append(
                "\(idleVsyncs) vsyncs of idle stretches are counted in the trace, not listed: they are not among the vsyncs"
            )
        }
        if !frames.isEmpty && mainEvents == 0 {
            notes.append("no main thread in the trace (its main category was off): frames have no commit phase")
        }
        if simulation > 0 {
            notes.append(
                "\(simulation + 1) simulations (\(simulation) \(simulation == 1 ? "reset" : "resets")): frame numbers start again at each, times run on"
            )
        }
        notes.append(
            "a frame without a hitch slice was on time or not counted for hitches (A2): the trace does not say which; nor which vsync a frame's update began at"
        )
        return RecordedTimeline(
            format: .chrome, sources: [path], start: SimTime(nanoseconds: windowStart ?? first ?? 0),
            end: SimTime(nanoseconds: last), refreshInterval: refresh, refreshSource: source, vsyncs: vsyncs,
            frames: frames, hitches: recordedHitches, hasHitchList: true, notes: notes)
    }

    /// Each rendered frame's render and its commit (R1): the render server starts at a vsync s
    /// and takes the newest frame whose commit ended before s, so a frame's commit is the last
    /// that ended in `[s′, s)`, s′ the render before it — none when the trace does not have it.
    private func phasesByFrame() -> [FrameKey: (render: Render, commit: Commit?)] {
        var out: [FrameKey: (render: Render, commit: Commit?)] = [:]
        var commitsBySimulation: [Int: [Commit]] = [:]
        for commit in commits { commitsBySimulation[commit.simulation, default: []].append(commit) }
        for (simulation, list) in commitsBySimulation {
            commitsBySimulation[simulation] = ChromeTraceEvents.stable(list) { $0.end < $1.end }
        }
        var previous: (simulation: Int, at: Int64)?
        for render in ChromeTraceEvents.stable(renders, by: { $0.at < $1.at }) {
            let s = render.at
            let floor = previous.flatMap { $0.simulation == render.key.simulation ? $0.at : nil } ?? Int64.min
            previous = (render.key.simulation, s)
            var commit: Commit?
            if render.start != nil, let list = commitsBySimulation[render.key.simulation] {
                // The last commit ending before s.
                var lo = 0
                var hi = list.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if list[mid].end < s { lo = mid + 1 } else { hi = mid }
                }
                if lo > 0, list[lo - 1].end >= floor { commit = list[lo - 1] }
            }
            out[render.key] = (render, commit)
        }
        return out
    }

    /// Sorted by `less`, equal elements in their order.
    static func stable<T>(_ items: [T], by less: (T, T) -> Bool) -> [T] {
        items.enumerated().sorted { a, b in
            less(a.element, b.element) ? true : less(b.element, a.element) ? false : a.offset < b.offset
        }.map(\.element)
    }
}
