import DebugShellCore

/// The Chrome Trace Event Format, written as bytes (a million events is a file of ~150 MB, so no
/// intermediate strings per event).
extension TraceRecorder {
    /// The trace as a JSON object: `displayTimeUnit`, `otherData` and `traceEvents`, with
    /// metadata events naming the processes and threads first. Time stamps are microseconds with
    /// the nanoseconds kept as three decimals. The same recording gives the same bytes.
    public func json(generator: String) -> [UInt8] {
        var all: [UInt8] = []
        encode(generator: generator) { all.append(contentsOf: $0) }
        return all
    }

    /// Writes the trace as ``json(generator:)`` does, handing it to `chunk` a megabyte at a time:
    /// saving a full trace costs its file's bytes on disk, not in memory.
    public func encode(generator: String, chunk: ([UInt8]) throws -> Void) rethrows {
        flush()
        var out = JSONBytes()
        let escaped = names.map { JSONValue.string($0).serialized }
        out.raw("{\"displayTimeUnit\": \"ms\", \"otherData\": {\"generator\": ")
        out.raw(JSONValue.string(generator).serialized)
        out.raw(", \"categories\": ")
        out.raw(JSONValue.array(categories.words.map { .string($0) }).serialized)
        out.raw(", \"events_recorded\": ")
        out.int(recorded)
        out.raw(", \"events_dropped\": ")
        out.int(dropped)
        out.raw(", \"limit\": ")
        out.int(Int64(limit))
        out.raw("},\n\"traceEvents\": [\n")
        var first = true
        func open() {
            if !first { out.raw(",\n") }
            first = false
        }
        for process in trackNames.keys.sorted() {
            open()
            out.raw("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": ")
            out.int(Int64(process))
            out.raw(", \"args\": {\"name\": \"debugsh simulated device")
            if process > 1 { out.raw(" (after reset \(process - 1))") }
            out.raw("\"}}")
            open()
            out.raw("{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": ")
            out.int(Int64(process))
            out.raw(", \"args\": {\"sort_index\": ")
            out.int(Int64(process))
            out.raw("}}")
            for (track, name) in (trackNames[process] ?? [:]).sorted(by: { $0.key < $1.key }) {
                for (key, value) in [
                    ("thread_name", JSONValue.string(name)), ("thread_sort_index", .int(Int64(track))),
                ] {
                    open()
                    out.raw("{\"name\": \"\(key)\", \"ph\": \"M\", \"pid\": ")
                    out.int(Int64(process))
                    out.raw(", \"tid\": ")
                    out.int(Int64(track))
                    out.raw(", \"args\": {\"\(key == "thread_name" ? "name" : "sort_index")\": ")
                    out.raw(value.serialized)
                    out.raw("}}")
                }
            }
        }
        try forEachRecord { sequence, r in
            open()
            write(r, sequence: sequence, names: escaped, to: &out)
            if out.bytes.count >= 1 << 20 {
                try chunk(out.bytes)
                out.bytes.removeAll(keepingCapacity: true)
            }
        }
        out.raw("\n]}\n")
        try chunk(out.bytes)
    }

    static let categoryNames: [TraceRecord.Kind: String] = [
        .mainItem: "main", .timerItem: "main", .iteration: "main", .queueHandler: "queues", .render: "render",
        .present: "display", .hitch: "display", .vsync: "display", .mode: "modes", .counter: "counters",
        .toolEvent: "tools", .toolSlice: "tools",
    ]

    private func write(_ r: TraceRecord, sequence: Int64, names: [String], to out: inout JSONBytes) {
        out.raw("{\"name\": ")
        // A callback's item is named by the firing that follows it; one without is an `item`.
        out.raw(r.name >= 0 && Int(r.name) < names.count ? names[Int(r.name)] : "\"item\"")
        out.raw(", \"cat\": \"")
        out.raw(TraceRecorder.categoryNames[r.kind] ?? "debugsh")
        switch r.kind {
        case .counter:
            out.raw("\", \"ph\": \"C\", \"ts\": ")
            out.micros(r.start)
            out.raw(", \"pid\": ")
            out.int(Int64(r.process))
            out.raw(", \"args\": {\"value\": ")
            out.raw(MetricNumber(thousandths: r.primary).description)
            out.raw("}}")
            return
        case .present, .vsync, .toolEvent:
            out.raw("\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ")
            out.micros(r.start)
        default:
            out.raw("\", \"ph\": \"X\", \"ts\": ")
            out.micros(r.start)
            out.raw(", \"dur\": ")
            out.micros(r.end - r.start)
        }
        out.raw(", \"pid\": ")
        out.int(Int64(r.process))
        out.raw(", \"tid\": ")
        out.int(Int64(r.track))
        out.raw(", \"args\": {")
        switch r.kind {
        case .mainItem:
            out.raw("\"kind\": \"\(TraceTimeline.itemKinds[Int(r.primary)].rawValue)\", \"iteration\": ")
            out.int(r.secondary)
        case .timerItem, .queueHandler:
            let itemKind = r.kind == .queueHandler ? "dispatch" : TraceTimeline.itemKinds[Int(r.code >> 8)].rawValue
            out.raw("\"kind\": \"\(itemKind)\", \"timer\": ")
            out.int(Int64(r.reference))
            out.raw(", \"scheduled_ns\": ")
            out.int(r.primary)
            out.raw(", \"lateness_ns\": ")
            out.int(max(0, r.start - r.primary))
            out.raw(", \"cause\": ")
            let cause = Int(r.code & 0xFF)
            out.raw(cause == 0 ? "null" : "\"\(TraceTimeline.causes[cause - 1].rawValue)\"")
            out.raw(", \"data\": ")
            out.int(r.secondary)
        case .iteration:
            out.raw("\"iteration\": ")
            out.int(r.primary)
        case .render:
            out.raw("\"frame\": ")
            out.int(r.primary)
        case .present:
            out.raw("\"frame\": ")
            out.int(r.primary)
            out.raw(", \"expected_present_ns\": ")
            out.int(r.secondary)
            out.raw(", \"merged_frames\": ")
            out.int(Int64(r.reference))
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
        case .mode, .counter:
            break
        case .toolEvent, .toolSlice:
            var first = true
            for (key, value) in extra(sequence) ?? [] {
                if !first { out.raw(", ") }
                first = false
                out.raw(JSONValue.string(key).serialized)
                out.raw(": ")
                out.raw(value.serialized)
            }
        }
        out.raw("}}")
    }
}

/// A growing buffer of JSON bytes with fast integer and time-stamp writers.
struct JSONBytes {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 16) }

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func int(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            unsigned(value == Int64.min ? UInt64(Int64.max) + 1 : UInt64(-value))
        } else {
            unsigned(UInt64(value))
        }
    }

    mutating func unsigned(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        } while divisor > 0
    }

    /// Nanoseconds as microseconds with three decimals: `16666.667`.
    mutating func micros(_ ns: Int64) {
        let v = max(0, ns)
        unsigned(UInt64(v / 1000))
        bytes.append(UInt8(ascii: "."))
        let frac = Int(v % 1000)
        bytes.append(UInt8(ascii: "0") + UInt8(frac / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(frac / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(frac % 10))
    }
}
