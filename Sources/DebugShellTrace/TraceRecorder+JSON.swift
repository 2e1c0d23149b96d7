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
        out.raw("\n]}\n")
        try out.flush(chunk)
        return (timeline.kept, writer.work)
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
    }

    /// `, "cat": "main", "ph": "X", "ts": ` — an event's category and phase: an instant on its
    /// thread (`"s": "t"`) for a vsync, a present and a tool's event, on the process for a reset, a
    /// slice otherwise.
    private static func head(_ category: StaticString, kind: TraceRecord.Kind) -> String {
        let phase: String
        switch kind {
        case .present, .vsync, .toolEvent: phase = "\"i\", \"s\": \"t\""
        case .reset: phase = "\"i\", \"s\": \"p\""
        default: phase = "\"X\""
        }
        return ", \"cat\": \"\(category)\", \"ph\": \(phase), \"ts\": "
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
        case .present, .vsync, .toolEvent:
            break
        case .reset:
            out.raw(", \"pid\": 1, \"args\": {\"simulation\": ")
            out.int(r.primary)
            out.raw(", \"offset_ns\": ")
            out.int(r.start)
            out.raw("}}")
            return
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
        case .mainItem:
            out.raw("\"kind\": \"")
            kindNames.write(Int(r.primary), to: &out)
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
            if out.last == UInt8(ascii: "{") {
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
    private static func isCommit(_ item: TraceRecord) -> Bool {
        item.kind == .mainItem && TraceTimeline.itemKinds[Int(item.primary)] == .commit
    }

    private static func isLate(_ item: TraceRecord) -> Bool { item.kind == .timerItem && item.start > item.primary }

    /// A merged slice's name says what it holds, so that a search finds it: `3 zero-cost items`,
    /// `3 zero-cost items: commit`, `4 zero-cost items: commit, 2 late`, `2 zero-cost items: 1 late`.
    private mutating func mergedName(_ r: TraceRecord, sequence: Int64, to out: inout JSONBytes) {
        let items = timeline.mergedItems[sequence] ?? []
        work &+= Int64(items.count)
        let commits = items.count { TraceWriter.isCommit($0) }
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
    private func name(_ r: TraceRecord, to out: inout JSONBytes) {
        let k = Int(r.name)
        guard k >= 0 && k < names.count else { return out.raw("\"item\"") }
        names.write(k, to: &out)
    }

    private func extraFields(_ sequence: Int64, leadingComma: Bool, to out: inout JSONBytes) {
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

/// Pieces of JSON made once per save and written for many events, one after another in one
/// array — piece `k` ends at `ends[k]` where piece `k − 1` ended — so that writing one costs its
/// bytes, without retaining and releasing an array of its own.
struct JSONPieces {
    private let bytes: [UInt8]
    private let ends: [Int]

    /// Pieces as they are.
    init(_ pieces: [String]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        for piece in pieces {
            bytes.append(contentsOf: piece.utf8)
            ends.append(bytes.count)
        }
        self.bytes = bytes
        self.ends = ends
    }

    /// Strings quoted and escaped (``JSONBytes/string(_:)``).
    init(quoting strings: [String]) {
        var out = JSONBytes(capacity: strings.reduce(0) { $0 + $1.utf8.count + 2 })
        var ends: [Int] = []
        ends.reserveCapacity(strings.count)
        for string in strings {
            out.string(string)
            ends.append(out.count)
        }
        bytes = out.array
        self.ends = ends
    }

    var count: Int { ends.count }

    @inline(__always)
    func write(_ k: Int, to out: inout JSONBytes) {
        let from = k == 0 ? 0 : ends[k - 1]
        let to = ends[k]
        bytes.withUnsafeBufferPointer { out.bytes(UnsafeBufferPointer(rebasing: $0[from..<to])) }
    }
}

/// A buffer of JSON bytes with fast writers of text, integers and time stamps, written in place;
/// a writer that streams hands it on a megabyte at a time (``flush(_:)``). Each write costs its
/// bytes and a bounds check: an event of a million-event trace is some thirty writes.
struct JSONBytes: ~Copyable {
    /// What a streaming writer hands on at a time.
    static let chunk = 1 << 20

    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written since the last flush.
    private(set) var count = 0

    init(capacity: Int = JSONBytes.chunk + 4096) {
        self.capacity = max(64, capacity)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Whether a streaming writer should hand the bytes on.
    var isFull: Bool { count >= JSONBytes.chunk }

    /// Hands the bytes written so far to `body`, then starts again empty.
    mutating func flush<E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        defer { count = 0 }
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes written so far, as an array.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `n` more bytes: where they go.
    @inline(__always)
    private mutating func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count + n > capacity { grow(count + n) }
        return base + count
    }

    private mutating func grow(_ needed: Int) {
        let grown = max(capacity * 2, needed)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity = grown
    }

    /// Bytes as they are.
    @inline(__always)
    mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress else { return }
        room(bytes.count).update(from: from, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func bytes(_ array: [UInt8]) {
        array.withUnsafeBufferPointer { bytes($0) }
    }

    /// The last byte written since the last flush.
    var last: UInt8? { count > 0 ? base[count - 1] : nil }

    /// Text known when compiled.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes($0) }
    }

    /// Text made at run time, as it is.
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
    }

    /// A string, quoted and escaped byte for byte as ``JSONValue/serialized`` writes it: `"` and
    /// `\` escaped, `\n`, `\r`, `\t`, other control characters and DEL as `\u00xx`, the rest
    /// (UTF-8 beyond ASCII too) as it is.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            // At most six bytes for each (`\u001f`), and the quotes.
            let p = room(utf8.count * 6 + 2)
            let hex: StaticString = "0123456789abcdef"
            var n = 0
            p[n] = UInt8(ascii: "\"")
            n += 1
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    p[n] = UInt8(ascii: "\\")
                    p[n + 1] = b
                    n += 2
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    p[n] = UInt8(ascii: "\\")
                    switch b {
                    case UInt8(ascii: "\n"): p[n + 1] = UInt8(ascii: "n")
                    case UInt8(ascii: "\r"): p[n + 1] = UInt8(ascii: "r")
                    default: p[n + 1] = UInt8(ascii: "t")
                    }
                    n += 2
                case 0..<0x20, 0x7F:
                    p[n] = UInt8(ascii: "\\")
                    p[n + 1] = UInt8(ascii: "u")
                    p[n + 2] = UInt8(ascii: "0")
                    p[n + 3] = UInt8(ascii: "0")
                    p[n + 4] = hex.utf8Start[Int(b >> 4)]
                    p[n + 5] = hex.utf8Start[Int(b & 15)]
                    n += 6
                default:
                    p[n] = b
                    n += 1
                }
            }
            p[n] = UInt8(ascii: "\"")
            count += n + 1
        }
    }

    mutating func int(_ value: Int64) {
        if value < 0 {
            room(1).pointee = UInt8(ascii: "-")
            count += 1
            unsigned(value.magnitude)
        } else {
            unsigned(UInt64(value))
        }
    }

    /// Digits, written in place from the right, two at a time.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var rest = value
        if rest >= 10_000_000_000_000_000 {
            digits += 16
            rest /= 10_000_000_000_000_000
        }
        if rest >= 100_000_000 {
            digits += 8
            rest /= 100_000_000
        }
        if rest >= 10_000 {
            digits += 4
            rest /= 10_000
        }
        if rest >= 100 {
            digits += 2
            rest /= 100
        }
        if rest >= 10 { digits += 1 }
        let p = room(digits)
        let pairs: StaticString =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        let pair = pairs.utf8Start
        var v = value
        var i = digits
        while v >= 100 {
            let r = Int(truncatingIfNeeded: v % 100) &* 2
            v /= 100
            i -= 2
            p[i] = pair[r]
            p[i + 1] = pair[r + 1]
        }
        if v >= 10 {
            let r = Int(truncatingIfNeeded: v) &* 2
            p[0] = pair[r]
            p[1] = pair[r + 1]
        } else {
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
        count += digits
    }

    /// Nanoseconds as microseconds with three decimals: `16666.667`.
    mutating func micros(_ ns: Int64) {
        let v = UInt64(max(0, ns))
        unsigned(v / 1000)
        let frac = v % 1000
        let p = room(4)
        p[0] = UInt8(ascii: ".")
        p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac / 100)
        p[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac / 10 % 10)
        p[3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: frac % 10)
        count += 4
    }
}
