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
    ///
    /// - Returns: the events written (``kept``).
    @discardableResult
    public func encode(generator: String, chunk: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Int {
        try TraceRecorder.encode(snapshot(), generator: generator, chunk: chunk).kept
    }

    /// Writes `timeline` (a ``snapshot()``) as ``encode(generator:chunk:)`` does.
    ///
    /// - Returns: the events written, and the writer's steps beyond a constant few per event
    ///   (``TraceWriter/work``).
    static func encode(
        _ timeline: TraceTimeline, generator: String, chunk: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> (kept: Int, work: Int64) {
        var writer = TraceWriter(timeline: timeline)
        var out = JSONBytes()
        out.raw("{\"displayTimeUnit\": \"ms\", \"otherData\": {\"generator\": ")
        out.string(generator)
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
            if out.isFull { try out.flush(chunk) }
        }
        writer.endMarker(to: &out)
        out.raw("\n]}\n")
        try out.flush(chunk)
        return (timeline.kept, writer.work)
    }

    /// The trace category of a record's kind, as `trace start --categories` names it.
    static func category(of kind: TraceRecord.Kind) -> StaticString {
        switch kind {
        case .mainItem, .timerItem, .mergedItems, .iteration, .hang: return "main"
        case .queueHandler: return "queues"
        case .render: return "render"
        case .present, .hitch, .vsync, .idle: return "display"
        case .mode: return "modes"
        case .counter: return "counters"
        case .toolEvent, .toolSlice: return "tools"
        case .reset: return "debugsh"
        case .expectedFrame, .actualFrame: return "frames"
        }
    }
}

/// Writes a timeline's records as trace events: the metadata first, then one event per record,
/// each as Perfetto's JSON importer reads it.
///
/// Its helpers are `mutating` even where they change nothing: a call passes the writer by
/// reference then, where a non-mutating call from ``write(_:sequence:to:)`` copied the whole
/// writer, timeline and all (some 700 bytes), for every event.
struct TraceWriter {
    let timeline: TraceTimeline
    /// The names, quoted and escaped for JSON once.
    let names: JSONPieces
    /// What follows an event's name up to its time stamp — its category and phase — by kind, then
    /// for the merged items of a background lane (category `queues`, not `main`).
    let heads: JSONPieces
    /// How a timer's arguments begin, by its item's kind (`"kind": "timer", "timer": `), then a
    /// background handler's.
    let timerHeads: JSONPieces
    /// How a cause ends them, by cause code (`, "cause": null, "data": `).
    let causes: JSONPieces
    /// The main thread's items' kinds, by index.
    let kindNames: JSONPieces
    var first = true
    /// Events written, and the items of merged slices named or described: the writer's steps
    /// beyond a constant few per event, as ``TraceTimeline/work`` counts the recorder's.
    private(set) var work: Int64 = 0
    /// Whether the frame timeline and its flows are recorded, and the stages they join.
    let frames: Bool
    let mainRecorded: Bool
    let renderRecorded: Bool
    /// The main-thread items that delayed a frame, by start (the trace's clock), and the next one
    /// to look for: the main thread's records come in the order of their starts, so finding them
    /// costs a comparison per record.
    let delaySources: [(start: Int64, end: Int64)]
    var nextDelaySource = 0
    /// Its start, or the largest time when none is left: most events compare with it alone.
    var nextDelayStart = Int64.max
    /// The flow the last commit began: two records of one instant (a commit of no length, then
    /// one with a length) begin it once.
    var lastCommitFlow: UInt64 = 0
    /// Whether the merged slice named last holds a commit (its name says so).
    var mergedHoldsCommit = false

    init(timeline: TraceTimeline) {
        self.timeline = timeline
        names = JSONPieces(quoting: timeline.names)
        heads = JSONPieces(
            TraceRecord.Kind.allCases.map { TraceWriter.head(TraceRecorder.category(of: $0), kind: $0) }
                + [TraceWriter.head("queues", kind: .mergedItems)])
        timerHeads = JSONPieces(
            (TraceTimeline.itemKinds.map(\.rawValue) + ["dispatch"]).map { "\"kind\": \"\($0)\", \"timer\": " })
        causes = JSONPieces(
            [", \"cause\": null, \"data\": "]
                + TraceTimeline.causes.map { ", \"cause\": \"\($0.rawValue)\", \"data\": " })
        kindNames = JSONPieces(TraceTimeline.itemKinds.map(\.rawValue))
        frames = timeline.categories.contains(.frames)
        mainRecorded = timeline.categories.contains(.main)
        renderRecorded = timeline.categories.contains(.render)
        var sources = timeline.delaySources
        sources.sort { $0.start < $1.start }
        delaySources = sources
        nextDelayStart = sources.first?.start ?? Int64.max
    }

    /// `, "cat": "main", "ph": "X", "ts": ` — an event's category and phase: an instant on its
    /// thread (`"s": "t"`) for a vsync, a present and a tool's event, on the process for a reset, a
    /// slice otherwise.
    private static func head(_ category: StaticString, kind: TraceRecord.Kind) -> String {
        let phase: String
        switch kind {
        case .vsync, .toolEvent: phase = "\"i\", \"s\": \"t\""
        case .reset: phase = "\"i\", \"s\": \"p\""
        default: phase = "\"X\""
        }
        return ", \"cat\": \"\(category)\", \"ph\": \(phase), \"ts\": "
    }

    mutating func open(_ out: inout JSONBytes) {
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
            out.string(name)
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
        work &+= 1
        if TraceWriter.isFixed(r.kind) { return writeFixed(r, sequence: sequence, start: start, to: &out) }
        if r.kind == .expectedFrame || r.kind == .actualFrame {
            return frame(r, sequence: sequence, start: start, to: &out)
        }
        // The comma before every event but the first, and the name's key.
        out.raw(first ? "{\"name\": " : ",\n{\"name\": ")
        first = false
        if r.kind == .counter {
            // Perfetto names a counter track by the event's name, a space and the argument's key:
            // `Presented FPS` is the event `Presented` with the key `FPS`.
            let text = r.name >= 0 && Int(r.name) < timeline.names.count ? timeline.names[Int(r.name)] : nil
            let space = text?.lastIndex(of: " ")
            if let text, let space {
                out.string(String(text[..<space]))
            } else {
                name(r, to: &out)
            }
            out.raw(", \"cat\": \"counters\", \"ph\": \"C\", \"ts\": ")
            out.micros(start)
            out.raw(", \"pid\": 1, \"args\": {")
            if let text, let space {
                out.string(String(text[text.index(after: space)...]))
            } else {
                out.raw("\"value\"")
            }
            out.raw(": ")
            out.text(MetricNumber(thousandths: r.primary).description)
            out.raw("}}")
            return
        }
        if r.kind == .mergedItems {
            mergedName(r, sequence: sequence, to: &out)
        } else {
            name(r, to: &out)
        }
        // Zero-cost handlers of a background lane, merged, are the queues' (not the main thread's).
        heads.write(
            r.kind == .mergedItems && r.track >= TraceTimeline.queueTrackBase
                ? TraceRecord.Kind.allCases.count : Int(r.kind.rawValue), to: &out)
        out.micros(start)
        switch r.kind {
        case .toolEvent:
            break
        default:
            out.raw(", \"dur\": ")
            out.micros(r.end - start)
        }
        if r.track == TraceTimeline.mainTrack {
            out.raw(", \"pid\": 1, \"tid\": 1, \"args\": {")
        } else {
            out.raw(", \"pid\": 1, \"tid\": ")
            out.int(Int64(r.track))
            out.raw(", \"args\": {")
        }
        switch r.kind {
        case .mergedItems:
            mergedFields(r, sequence: sequence, to: &out)
        case .render:
            out.raw("\"frame\": ")
            out.int(r.primary)
            // Taken at a vsync before its work began (R7.2): when.
            extraFields(sequence, leadingComma: true, to: &out)
        case .counter, .expectedFrame, .actualFrame:
            break
        case .mainItem, .timerItem, .queueHandler, .iteration, .vsync, .idle, .present, .hitch, .hang, .mode, .reset:
            break  // Of fixed shape: written by `writeFixed` (TraceWriter+Cursor.swift), never here.
        case .toolEvent, .toolSlice:
            extraFields(sequence, leadingComma: false, to: &out)
        }
        if r.start < windowStart {
            if out.last == UInt8(ascii: "{") {
                out.raw("\"truncated\": true")
            } else {
                out.raw(", \"truncated\": true")
            }
        }
        // The flow it begins, carries or ends, after its arguments (a key's place in an object
        // does not matter), so that the events with none cost a comparison or two.
        if frames && mayFlow(r), let flow = flow(r, sequence: sequence) {
            out.raw("}")
            flowFields(flow.id, in: flow.in, out: flow.out, to: &out)
            out.raw("}")
        } else {
            out.raw("}}")
        }
    }

    /// A timer's callback's or handler's arguments: its kind, the timer, when it was scheduled
    /// and how late it started (both on the trace's clock), why, and its data.
    private mutating func timerFields(_ r: TraceRecord, to out: inout JSONBytes) {
        timerHeads.write(r.kind == .queueHandler ? TraceTimeline.itemKinds.count : Int(r.code >> 8), to: &out)
        out.int(Int64(r.reference))
        out.raw(", \"scheduled_ns\": ")
        out.int(r.primary)
        out.raw(", \"lateness_ns\": ")
        out.int(max(0, r.start - r.primary))
        causes.write(Int(r.code & 0xFF), to: &out)
        out.int(r.secondary)
    }

    /// Whether a merged item is a commit, or a timer's callback that started late.
    static func isCommit(_ item: TraceRecord) -> Bool {
        item.kind == .mainItem && TraceTimeline.itemKinds[Int(item.primary)] == .commit
    }

    private static func isLate(_ item: TraceRecord) -> Bool { item.kind == .timerItem && item.start > item.primary }

    /// A merged slice's name says what it holds, so that a search finds it: `3 zero-cost items`,
    /// `3 zero-cost items: commit`, `4 zero-cost items: commit, 2 late`, `2 zero-cost items: 1 late`.
    private mutating func mergedName(_ r: TraceRecord, sequence: Int64, to out: inout JSONBytes) {
        let items = timeline.mergedItems[sequence] ?? []
        work &+= Int64(items.count)
        let commits = items.count { TraceWriter.isCommit($0) }
        mergedHoldsCommit = commits > 0
        let late = items.count { TraceWriter.isLate($0) }
        var text = "\(items.count) zero-cost items"
        var parts: [String] = []
        if commits > 0 { parts.append(commits == 1 ? "commit" : "\(commits) commits") }
        if late > 0 { parts.append("\(late) late") }
        if !parts.isEmpty { text += ": " + parts.joined(separator: ", ") }
        out.string(text)
    }

    /// A merged slice's arguments: how many items, their names (`items`, in the order they ran),
    /// and each late timer's callback with its arguments (`late`: name, kind, timer, scheduled
    /// and lateness in ns, cause, data) — on-time items are only named, to keep the trace small.
    private mutating func mergedFields(_ r: TraceRecord, sequence: Int64, to out: inout JSONBytes) {
        let items = timeline.mergedItems[sequence] ?? []
        work &+= Int64(items.count)
        out.raw("\"count\": ")
        out.int(Int64(items.count))
        out.raw(", \"items\": [")
        for (k, item) in items.enumerated() {
            if k > 0 { out.raw(", ") }
            name(item, to: &out)
        }
        out.raw("]")
        var first = true
        for item in items where TraceWriter.isLate(item) {
            out.raw(first ? ", \"late\": [{\"name\": " : ", {\"name\": ")
            first = false
            name(item, to: &out)
            out.raw(", ")
            timerFields(item, to: &out)
            out.raw("}")
        }
        if !first { out.raw("]") }
    }

    /// A record's name, quoted. A callback's item is named by the firing that follows it; one
    /// without is an `item`.
    private mutating func name(_ r: TraceRecord, to out: inout JSONBytes) {
        let k = Int(r.name)
        guard k >= 0 && k < names.count else { return out.raw("\"item\"") }
        names.write(k, to: &out)
    }

    private mutating func extraFields(_ sequence: Int64, leadingComma: Bool, to out: inout JSONBytes) {
        var comma = leadingComma
        for (key, value) in timeline.extra(sequence) ?? [] {
            if comma { out.raw(", ") }
            comma = true
            out.string(key)
            out.raw(": ")
            out.text(value.serialized)
        }
    }
}
