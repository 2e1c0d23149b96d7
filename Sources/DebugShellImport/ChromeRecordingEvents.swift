import DebugShellCore

/// A recording's own trace (`recording save`), read back: `otherData` names its format, and each
/// event's arguments carry its fields whole, so the timeline read is the one saved — the same
/// frames, hitches, vsyncs, link callbacks, FPS samples, span, refresh interval and notes
/// (docs/Import.md, "Saving a recording").
struct ChromeRecordingEvents {
    /// What `otherData` says of the recording.
    let format: RecordedTimeline.Format
    let sources: [String]
    let start: Int64
    let end: Int64?
    let refresh: Int64?
    let source: RecordedTimeline.RefreshSource?
    let hasHitchList: Bool
    let notes: [String]

    private var vsyncs: [(time: Int64, index: Int64)] = []
    private var frames: [RecordedFrame] = []
    private var hitches: [RecordedHitch] = []
    private var callbacks: [RecordedLinkCallback] = []
    private var samples: [RecordedFPSSample] = []

    /// The recording `otherData` describes, or nil when it is not a recording's trace; throws
    /// when it is one whose description does not hold together.
    init?(otherData value: ChromeJSONValue, error: (String) -> ImportError) throws(ImportError) {
        guard let name = value["recording_format"] else { return nil }
        guard let word = name.string, let format = RecordedTimeline.Format(rawValue: word) else {
            throw error("otherData: recording_format is not one of xctrace, display-link csv, frames csv, chrome")
        }
        self.format = format
        var sources: [String] = []
        if case .array(let items)? = value["sources"] {
            for item in items {
                guard let text = item.string else { throw error("otherData: sources holds a value that is not text") }
                sources.append(text)
            }
        }
        self.sources = sources
        func time(_ key: String) throws(ImportError) -> Int64? {
            guard let field = value[key] else { return nil }
            guard let n = field.integer, n >= 0, n <= CSVDecimal.limit else {
                throw error("otherData: \(key) is not a time in ns from 0 to 2^62")
            }
            return n
        }
        start = try time("window_start_ns") ?? 0
        end = try time("recording_end_ns")
        refresh = try time("refresh_interval_ns")
        if let refresh, refresh == 0 { throw error("otherData: refresh_interval_ns is 0") }
        switch value["refresh_source"]?.string {
        case nil: source = nil
        case "device-display-info"?:
            guard let hertz = value["refresh_hz"]?.integer, hertz > 0, hertz <= 1_000_000 else {
                throw error("otherData: refresh_source device-display-info without its refresh_hz")
            }
            source = .displayInfo(hertz: Int(hertz))
        case "hitch-rows"?: source = .hitchRows
        case "vsync-median"?: source = .vsyncMedian
        case "declared"?: source = .declared
        case "assumed"?: source = .assumed
        case let other?:
            throw error(
                "otherData: refresh_source '\(other)' is not one of device-display-info, hitch-rows, vsync-median, declared, assumed"
            )
        }
        if case .bool(let flag)? = value["has_hitch_list"] { hasHitchList = flag } else { hasHitchList = true }
        var notes: [String] = []
        if case .array(let items)? = value["notes"] {
            for item in items {
                guard let text = item.string else { throw error("otherData: notes holds a value that is not text") }
                notes.append(text)
            }
        }
        self.notes = notes
    }

    /// One event of the trace; those it does not know (metadata, the counters) are skipped.
    mutating func add(
        cat: String, ph: String?, name: String, ts: Int64, args: ChromeJSONValue, what: String,
        error: (String) -> ImportError
    ) throws(ImportError) {
        func time(_ key: String) throws(ImportError) -> Int64? {
            guard let field = args[key] else { return nil }
            guard let n = field.integer, n >= 0, n <= CSVDecimal.limit else {
                throw error("\(what): \(key) is not a time in ns from 0 to 2^62")
            }
            return n
        }
        func required(_ key: String) throws(ImportError) -> Int64 {
            guard let n = try time(key) else { throw error("\(what) without its \(key) (a time in ns)") }
            return n
        }
        func integer(_ key: String) throws(ImportError) -> Int64? {
            guard let field = args[key] else { return nil }
            guard let n = field.integer else { throw error("\(what): \(key) is not a whole number") }
            return n
        }
        func text(_ key: String) throws(ImportError) -> String? {
            guard let field = args[key] else { return nil }
            guard let s = field.string else { throw error("\(what): \(key) is not text") }
            return s
        }
        func t(_ ns: Int64?) -> SimTime? { ns.map { SimTime(nanoseconds: $0) } }
        func d(_ ns: Int64?) -> SimDuration? { ns.map { SimDuration(nanoseconds: $0) } }

        switch (cat, ph) {
        case ("display", "i") where name == "vsync":
            vsyncs.append((ts, try integer("index") ?? 0))
        case ("display", "i") where name == "present":
            let present = try required("present_ns")
            let hitch = try time("hitch_ns")
            if let hitch, hitch > present { throw error("\(what): hitch_ns is longer than present_ns") }
            let commit = (try time("commit_start_ns"), try time("commit_end_ns"))
            if let start = commit.0, let end = commit.1, end < start {
                throw error("\(what): commit_end_ns is before commit_start_ns")
            }
            let render = (try time("render_start_ns"), try time("render_end_ns"))
            if let start = render.0, let end = render.1, end < start {
                throw error("\(what): render_end_ns is before render_start_ns")
            }
            frames.append(
                RecordedFrame(
                    present: SimTime(nanoseconds: present), onGlass: d(try time("on_glass_ns")),
                    vsync: t(try time("vsync_ns")), commitStart: t(commit.0), commitEnd: t(commit.1),
                    renderStart: t(render.0), renderEnd: t(render.1),
                    expectedPresent: t(try time("expected_present_ns")), cause: try text("cause"),
                    swapID: try integer("swap_id"), surfaceID: try integer("surface_id"), number: try integer("number"),
                    hitch: d(hitch)))
        case ("display", "X") where args["hitch_ns"] != nil:
            let start = try required("start_ns")
            let duration = try required("hitch_ns")
            guard duration <= CSVDecimal.limit - start else {
                throw error("\(what): start_ns + hitch_ns is past 2^62 ns")
            }
            var system: Bool?
            if let field = args["is_system"] {
                guard case .bool(let flag) = field else { throw error("\(what): is_system is not true or false") }
                system = flag
            }
            var buffers: Int?
            if let count = try integer("buffer_count") {
                guard count >= 0, count <= 1_000_000 else {
                    throw error("\(what): buffer_count \(count) is not a count")
                }
                buffers = Int(count)
            }
            hitches.append(
                RecordedHitch(
                    start: SimTime(nanoseconds: start), duration: SimDuration(nanoseconds: duration),
                    description: try text("description") ?? "", severity: try text("severity"),
                    refreshInterval: d(try time("refresh_interval_ns")),
                    acceptableLatency: d(try time("acceptable_latency_ns")), bufferCount: buffers,
                    swapID: try integer("swap_id"), isSystem: system, process: try text("process")))
        case ("link", "i") where name == "callback":
            let timestamp = try required("timestamp_ns")
            let target = try time("target_ns")
            if let target, target < timestamp { throw error("\(what): target_ns is before timestamp_ns") }
            let duration = try time("duration_ns")
            if duration == 0 { throw error("\(what): duration_ns is 0") }
            callbacks.append(
                RecordedLinkCallback(
                    timestamp: SimTime(nanoseconds: timestamp), targetTimestamp: t(target), duration: d(duration)))
        case ("fps", "X"):
            let start = try required("start_ns")
            let period = try required("period_ns")
            guard case .number(let fpsText)? = args["fps"], let fps = Double(fpsText), fps.isFinite else {
                throw error("\(what) without its fps (a number)")
            }
            var utilization: Double?
            if let field = args["device_utilization"] {
                guard case .number(let u) = field, let value = Double(u), value.isFinite else {
                    throw error("\(what): device_utilization is not a number")
                }
                utilization = value
            }
            samples.append(
                RecordedFPSSample(
                    start: SimTime(nanoseconds: start), period: SimDuration(nanoseconds: period), fps: fps,
                    deviceUtilization: utilization))
        default:
            break
        }
    }

    /// The recording, as it was saved.
    func timeline(last: Int64) -> RecordedTimeline {
        let byTime = ChromeTraceEvents.stable(vsyncs) { $0.time < $1.time }
        return RecordedTimeline(
            format: format, sources: sources, start: SimTime(nanoseconds: start),
            end: SimTime(nanoseconds: end ?? last), refreshInterval: refresh.map { SimDuration(nanoseconds: $0) },
            refreshSource: source, vsyncs: byTime.map { SimTime(nanoseconds: $0.time) },
            frames: ChromeTraceEvents.stable(frames) { $0.present < $1.present },
            hitches: ChromeTraceEvents.stable(hitches) { $0.start < $1.start }, hasHitchList: hasHitchList,
            linkCallbacks: ChromeTraceEvents.stable(callbacks) { $0.timestamp < $1.timestamp },
            fpsSamples: ChromeTraceEvents.stable(samples) { $0.start < $1.start }, notes: notes)
    }
}
