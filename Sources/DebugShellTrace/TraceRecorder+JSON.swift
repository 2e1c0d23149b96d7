import DebugShellCore

/// The Chrome Trace Event Format, written as bytes (a million events is a file of ~150 MB, so no
/// intermediate strings per event).
extension TraceRecorder {
    /// The trace as a JSON object: `displayTimeUnit`, `otherData` and `traceEvents`, with
    /// metadata events naming the process and its threads first. Time stamps are microseconds
    /// with the nanoseconds kept as three decimals. The same recording gives the same bytes.
    public func json(generator: String) -> [UInt8] {
        var all: [UInt8] = []
        encode(generator: generator) { all.append(contentsOf: $0) }
        return all
    }

    /// Writes the trace as ``json(generator:)`` does, handing it to `chunk` a megabyte at a time:
    /// saving a full trace costs its file's bytes on disk, not in memory.
    public func encode(generator: String, chunk: ([UInt8]) throws -> Void) rethrows {
        let timeline = snapshot()
        var writer = TraceWriter(timeline: timeline)
        var out = JSONBytes()
        out.raw("{\"displayTimeUnit\": \"ms\", \"otherData\": {\"generator\": ")
        out.text(JSONValue.string(generator).serialized)
        out.raw(", \"categories\": ")
        out.text(JSONValue.array(timeline.categories.words.map { .string($0) }).serialized)
        out.raw(", \"keep\": \"")
        out.text(timeline.keep.rawValue)
        out.raw("\", \"events_recorded\": ")
        out.int(timeline.recorded)
        out.raw(", \"events_dropped\": ")
        out.int(timeline.dropped)
        out.raw(", \"limit\": ")
        out.int(Int64(timeline.limit))
        out.raw(", \"limit_reached\": ")
        out.raw(timeline.limitReached ? "true" : "false")
        out.raw(", \"window_start_ns\": ")
        out.int(timeline.windowStart)
        if let full = timeline.fullAt {
            out.raw(", \"window_end_ns\": ")
            out.int(full)
        }
        out.raw("},\n\"traceEvents\": [\n")
        writer.metadata(to: &out)
        try timeline.forEachRecord { sequence, r in
            writer.write(r, sequence: sequence, to: &out)
            if out.bytes.count >= 1 << 20 {
                try chunk(out.bytes)
                out.bytes.removeAll(keepingCapacity: true)
            }
        }
        out.raw("\n]}\n")
        try chunk(out.bytes)
    }

    /// The trace category of a record's kind, as `trace start --categories` names it.
    static func category(of kind: TraceRecord.Kind) -> StaticString {
        switch kind {
        case .mainItem, .timerItem, .mergedItems, .iteration: return "main"
        case .queueHandler: return "queues"
        case .render: return "render"
        case .present, .hitch, .vsync, .idle: return "display"
        case .mode: return "modes"
        case .counter: return "counters"
        case .toolEvent, .toolSlice: return "tools"
        case .reset: return "debugsh"
        }
    }
}

/// Writes a timeline's records as trace events: the metadata first, then one event per record,
/// each as Perfetto's JSON importer reads it.
struct TraceWriter {
    let timeline: TraceTimeline
    /// The names, escaped for JSON once.
    let names: [String]
    /// Counter names split in two, `Presented` and `FPS`: Perfetto names a counter track by the
    /// event's name, a space and the argument's key.
    let counterNames: [(event: String, key: String)?]
    var first = true

    init(timeline: TraceTimeline) {
        self.timeline = timeline
        names = timeline.names.map { JSONValue.string($0).serialized }
        counterNames = timeline.names.map { name in
            guard let space = name.lastIndex(of: " ") else { return nil }
            return (
                JSONValue.string(String(name[..<space])).serialized,
                JSONValue.string(String(name[name.index(after: space)...])).serialized
            )
        }
    }

    private mutating func open(_ out: inout JSONBytes) {
        if !first { out.raw(",\n") }
        first = false
    }

    /// The process's name and its threads' names and order. The main thread's id is the
    /// process's: Perfetto marks that thread as the process's main thread.
    mutating func metadata(to out: inout JSONBytes) {
        open(&out)
        out.raw(
            "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": \"debugsh simulated device\"}}"
        )
        for (track, name) in timeline.trackNames.sorted(by: { $0.key < $1.key }) {
            open(&out)
            out.raw("{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": ")
            out.int(Int64(track))
            out.raw(", \"args\": {\"name\": ")
            out.text(JSONValue.string(name).serialized)
            out.raw("}}")
            open(&out)
            out.raw("{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": ")
            out.int(Int64(track))
            out.raw(", \"args\": {\"sort_index\": ")
            out.int(Int64(track))
            out.raw("}}")
        }
    }

    /// One record as an event. A record outside the kept window (a full ring dropped what came
    /// before it) is left out, and a slice that began before the window starts at it.
    mutating func write(_ r: TraceRecord, sequence: Int64, to out: inout JSONBytes) {
        let windowStart = timeline.windowStart
        if r.end < windowStart || (r.start == r.end && r.start < windowStart) { return }
        let start = max(r.start, windowStart)
        open(&out)
        if r.kind == .counter {
            let split = r.name >= 0 && Int(r.name) < counterNames.count ? counterNames[Int(r.name)] : nil
            out.raw("{\"name\": ")
            out.text(split?.event ?? name(r))
            out.raw(", \"cat\": \"counters\", \"ph\": \"C\", \"ts\": ")
            out.micros(start)
            out.raw(", \"pid\": 1, \"args\": {")
            out.text(split?.key ?? "\"value\"")
            out.raw(": ")
            out.text(MetricNumber(thousandths: r.primary).description)
            out.raw("}}")
            return
        }
        out.raw("{\"name\": ")
        if r.kind == .mergedItems {
            mergedName(r, sequence: sequence, to: &out)
        } else {
            out.text(name(r))
        }
        out.raw(", \"cat\": \"")
        // Zero-cost handlers of a background lane, merged, are the queues' (not the main thread's).
        out.raw(
            r.kind == .mergedItems && r.track >= TraceTimeline.queueTrackBase
                ? "queues" : TraceRecorder.category(of: r.kind))
        switch r.kind {
        case .present, .vsync, .toolEvent:
            out.raw("\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ")
            out.micros(start)
        case .reset:
            out.raw("\", \"ph\": \"i\", \"s\": \"p\", \"ts\": ")
            out.micros(start)
            out.raw(", \"pid\": 1, \"args\": {\"simulation\": ")
            out.int(r.primary)
            out.raw(", \"offset_ns\": ")
            out.int(r.start)
            out.raw("}}")
            return
        default:
            out.raw("\", \"ph\": \"X\", \"ts\": ")
            out.micros(start)
            out.raw(", \"dur\": ")
            out.micros(r.end - start)
        }
        out.raw(", \"pid\": 1, \"tid\": ")
        out.int(Int64(r.track))
        out.raw(", \"args\": {")
        switch r.kind {
        case .mainItem:
            out.raw("\"kind\": \"")
            out.text(TraceTimeline.itemKinds[Int(r.primary)].rawValue)
            out.raw("\", \"iteration\": ")
            out.int(r.secondary)
        case .timerItem, .queueHandler:
            timerFields(r, to: &out)
        case .mergedItems:
            mergedFields(r, sequence: sequence, to: &out)
        case .iteration:
            out.raw("\"iteration\": ")
            out.int(r.primary)
            if r.secondary > r.primary {
                // An iteration of no length that the items of later ones at its instant joined.
                out.raw(", \"through_iteration\": ")
                out.int(r.secondary)
            }
        case .render:
            out.raw("\"frame\": ")
            out.int(r.primary)
        case .present:
            out.raw("\"frame\": ")
            out.int(Int64(r.reference))
            out.raw(", \"vsync\": ")
            out.int(r.primary)
            out.raw(", \"expected_present_ns\": ")
            out.int(r.secondary)
            out.raw(", \"merged_frames\": ")
            out.int(Int64(r.code))
        case .hitch:
            out.raw("\"frame\": ")
            out.int(r.primary)
            out.raw(", \"cause\": \"")
            out.raw(["none", "commit", "render", "both"][Int(r.reference & 3)])
            out.raw("\", \"expected_present_ns\": ")
            out.int(r.secondary)
            out.raw(", \"present_ns\": ")
            out.int(r.end)
            out.raw(", \"hitch_ns\": ")
            out.int(r.end - r.start)
        case .vsync:
            out.raw("\"index\": ")
            out.int(r.primary)
        case .idle:
            out.raw("\"vsyncs\": ")
            out.int(r.primary)
        case .mode, .counter, .reset:
            break
        case .toolEvent, .toolSlice:
            extraFields(sequence, leadingComma: false, to: &out)
        }
        if r.start < windowStart {
            if out.bytes.last == UInt8(ascii: "{") {
                out.raw("\"truncated\": true")
            } else {
                out.raw(", \"truncated\": true")
            }
        }
        out.raw("}}")
    }

    /// A timer's callback's or handler's arguments: its kind, the timer, when it was scheduled
    /// and how late it started (both on the trace's clock), why, and its data.
    private func timerFields(_ r: TraceRecord, to out: inout JSONBytes) {
        out.raw("\"kind\": \"")
        out.text(r.kind == .queueHandler ? "dispatch" : TraceTimeline.itemKinds[Int(r.code >> 8)].rawValue)
        out.raw("\", \"timer\": ")
        out.int(Int64(r.reference))
        out.raw(", \"scheduled_ns\": ")
        out.int(r.primary)
        out.raw(", \"lateness_ns\": ")
        out.int(max(0, r.start - r.primary))
        out.raw(", \"cause\": ")
        let cause = Int(r.code & 0xFF)
        if cause == 0 {
            out.raw("null")
        } else {
            out.raw("\"")
            out.text(TraceTimeline.causes[cause - 1].rawValue)
            out.raw("\"")
        }
        out.raw(", \"data\": ")
        out.int(r.secondary)
    }

    /// Whether a merged item is a commit, or a timer's callback that started late.
    private static func isCommit(_ item: TraceRecord) -> Bool {
        item.kind == .mainItem && TraceTimeline.itemKinds[Int(item.primary)] == .commit
    }

    private static func isLate(_ item: TraceRecord) -> Bool { item.kind == .timerItem && item.start > item.primary }

    /// A merged slice's name says what it holds, so that a search finds it: `3 zero-cost items`,
    /// `3 zero-cost items: commit`, `4 zero-cost items: commit, 2 late`, `2 zero-cost items: 1 late`.
    private func mergedName(_ r: TraceRecord, sequence: Int64, to out: inout JSONBytes) {
        let items = timeline.mergedItems[sequence] ?? []
        let commits = items.count { TraceWriter.isCommit($0) }
        let late = items.count { TraceWriter.isLate($0) }
        var text = "\(items.count) zero-cost items"
        var parts: [String] = []
        if commits > 0 { parts.append(commits == 1 ? "commit" : "\(commits) commits") }
        if late > 0 { parts.append("\(late) late") }
        if !parts.isEmpty { text += ": " + parts.joined(separator: ", ") }
        out.text(JSONValue.string(text).serialized)
    }

    /// A merged slice's arguments: how many items, their names (`items`, in the order they ran),
    /// and each late timer's callback with its arguments (`late`: name, kind, timer, scheduled
    /// and lateness in ns, cause, data) — on-time items are only named, to keep the trace small.
    private func mergedFields(_ r: TraceRecord, sequence: Int64, to out: inout JSONBytes) {
        let items = timeline.mergedItems[sequence] ?? []
        out.raw("\"count\": ")
        out.int(Int64(items.count))
        out.raw(", \"items\": [")
        for (k, item) in items.enumerated() {
            if k > 0 { out.raw(", ") }
            out.text(name(item))
        }
        out.raw("]")
        var first = true
        for item in items where TraceWriter.isLate(item) {
            out.raw(first ? ", \"late\": [{\"name\": " : ", {\"name\": ")
            first = false
            out.text(name(item))
            out.raw(", ")
            timerFields(item, to: &out)
            out.raw("}")
        }
        if !first { out.raw("]") }
    }

    private func name(_ r: TraceRecord) -> String {
        // A callback's item is named by the firing that follows it; one without is an `item`.
        r.name >= 0 && Int(r.name) < names.count ? names[Int(r.name)] : "\"item\""
    }

    private func extraFields(_ sequence: Int64, leadingComma: Bool, to out: inout JSONBytes) {
        var comma = leadingComma
        for (key, value) in timeline.extra(sequence) ?? [] {
            if comma { out.raw(", ") }
            comma = true
            out.text(JSONValue.string(key).serialized)
            out.raw(": ")
            out.text(value.serialized)
        }
    }
}

/// A growing buffer of JSON bytes with fast integer and time-stamp writers.
struct JSONBytes {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 20 + 4096) }

    /// Text known when compiled.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Text made at run time.
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func int(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(value.magnitude)
        } else {
            unsigned(UInt64(value))
        }
    }

    /// Digits written from the right into a small buffer, then appended at once.
    mutating func unsigned(_ value: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var v = value
            var i = 20
            repeat {
                i -= 1
                digits[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i...]))
        }
    }

    /// Nanoseconds as microseconds with three decimals: `16666.667`.
    mutating func micros(_ ns: Int64) {
        let v = UInt64(max(0, ns))
        unsigned(v / 1000)
        let frac = v % 1000
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { out in
            out[0] = UInt8(ascii: ".")
            out[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac / 100)
            out[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac / 10 % 10)
            out[3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac % 10)
            bytes.append(contentsOf: UnsafeBufferPointer(out))
        }
    }
}
