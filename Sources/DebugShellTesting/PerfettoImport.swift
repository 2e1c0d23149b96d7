import Foundation

/// A Chrome trace JSON file read as Perfetto's JSON importer reads it, so that tests check what a
/// user sees in Perfetto — which slice nests in which, what is dropped, how tracks and counters
/// are named — not only what the file says.
///
/// The rules are those of Perfetto's trace processor (src/trace_processor/importers/json/ and
/// importers/common/slice_tracker.cc):
/// - events are sorted by time stamp, events of one time stamp keeping their order in the file;
/// - a thread's slices (`X`, and `i` with scope `t` as slices of no length) nest on a stack:
///   before a slice begins, each open slice that ended before it is closed, and one that ends
///   where it begins too — unless both have no length (instants stack on instants);
/// - a slice that begins inside an open one and ends after it is dropped (an import error);
/// - a counter event names its track by the event's name, a space, and each argument's key;
/// - a thread whose id is its process's id is the process's main thread;
/// - async events (`b`, `e`, `n`) are packed onto tracks by its track compressor
///   (track_compressor.cc, v52): an event's cookie is its category and id (`id`, or `id2`'s
///   `local` or `global`); the first event of a cookie names its *set*; within a set, a cookie
///   keeps the track it has, else adopts one with no slice open, else gets a new track, named by
///   the event that made it. A `b` opens a slice on its track, an `e` ends the innermost open
///   slice of its name (or the innermost, if it has none) — an `e` that ends nothing is dropped
///   without a word — and an `n` is a slice of no length (json_trace_parser_impl.cc,
///   slice_tracker.cc); the UI shows the async tracks of one name in a process as one track;
/// - flows (v2: `bind_id` with `flow_out`, `flow_in` or both, on `X`, `b` and `n` events) bind
///   the slice the event makes: `flow_out` begins a flow (an id begun twice is an error), both
///   carry it on (from the slice that last carried it), `flow_in` ends one — and another `flow_in`
///   of that id ends another, from the same slice (flow_tracker.cc); one that finds no start is
///   noted, not an error (stats `flow_step_without_start`, `flow_end_without_start`: info);
/// - an instant of global scope (`"s": "g"`) goes on one global track.
public struct PerfettoImport {
    /// A slice as Perfetto stores it.
    public struct Slice: CustomStringConvertible {
        public var name: String
        public var category: String
        public var ts: Int64
        public var dur: Int64
        public var pid: Int
        public var tid: Int
        /// 0 at the top of its track.
        public var depth: Int
        /// The enclosing slice, by index in ``slices``.
        public var parent: Int?
        /// Whether the file wrote it as an instant (`i`, or an async `n`).
        public var instant: Bool
        public var args: [String: Any]
        /// An async slice's track: its key (process, category, id); nil for a thread's slice.
        public var asyncKey: String?

        public var end: Int64 { ts + dur }
        public var description: String { "\(name) [\(ts), \(end)) tid \(tid) depth \(depth)" }
    }

    /// A counter value.
    public struct CounterValue {
        public var track: String
        public var ts: Int64
        public var value: Double
    }

    public private(set) var slices: [Slice] = []
    /// Flows, from slice to slice (indices in ``slices``).
    public private(set) var flows: [(from: Int, to: Int)] = []
    /// The names of async tracks by key (the event's that made the track).
    public private(set) var asyncTrackNames: [String: String] = [:]
    /// Global instants (`"s": "g"`), in time order.
    public private(set) var globalInstants: [Slice] = []
    /// What the importer noted without calling it an error (stats of severity info): a flow that
    /// found no start.
    public private(set) var importNotes: [String] = []
    public private(set) var counters: [CounterValue] = []
    /// What the importer could not take, each with why.
    public private(set) var importErrors: [String] = []
    /// Process names by pid, thread names by (pid, tid).
    public private(set) var processNames: [Int: String] = [:]
    public private(set) var threadNames: [Int: [Int: String]] = [:]
    /// The file's `otherData`.
    public private(set) var otherData: [String: Any] = [:]

    /// Reads a trace file's bytes.
    ///
    /// - Throws: when the bytes are not a JSON object with a `traceEvents` array.
    public init(_ data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let events = root["traceEvents"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        otherData = root["otherData"] as? [String: Any] ?? [:]
        // Time stamps are microseconds with three decimals: nanoseconds, exactly.
        func nanoseconds(_ value: Any?) -> Int64? {
            guard let number = value as? NSNumber else { return nil }
            return Int64((number.doubleValue * 1000).rounded())
        }
        var timed: [(ts: Int64, order: Int, event: [String: Any])] = []
        for (order, event) in events.enumerated() {
            guard let phase = event["ph"] as? String else {
                importErrors.append("event \(order) has no phase")
                continue
            }
            let pid = event["pid"] as? Int ?? 0
            if phase == "M" {
                let args = event["args"] as? [String: Any] ?? [:]
                if event["name"] as? String == "process_name", let name = args["name"] as? String {
                    processNames[pid] = name
                }
                if event["name"] as? String == "thread_name", let name = args["name"] as? String {
                    threadNames[pid, default: [:]][event["tid"] as? Int ?? pid] = name
                }
                continue
            }
            guard let ts = nanoseconds(event["ts"]) else {
                importErrors.append("event \(order) (\(event["name"] ?? "")) has no time stamp")
                continue
            }
            timed.append((ts, order, event))
        }
        timed.sort { $0.ts != $1.ts ? $0.ts < $1.ts : $0.order < $1.order }
        var stacks: [String: [Int]] = [:]
        var asyncStacks: [String: [Int]] = [:]
        // The track compressor: each cookie's set (named by its first event), and each set's
        // tracks with the cookie each serves and how many slices are open on it.
        var cookieSets: [String: String] = [:]
        var setTracks: [String: [(cookie: String, open: Int, key: String)]] = [:]
        var asyncTrackCount = 0
        var flowStarts: [UInt64: Int] = [:]
        /// Binds the slice `slice` (just made) to the event's flow, if it names one.
        func flow(_ event: [String: Any], slice: Int, order: Int) {
            guard let raw = event["bind_id"] else { return }
            let id: UInt64?
            if let text = raw as? String {
                id = UInt64(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text, radix: 16)
            } else {
                id = (raw as? NSNumber)?.uint64Value
            }
            guard let id else {
                importErrors.append("event \(order) has a bind_id that is not an id")
                return
            }
            let flowIn = event["flow_in"] as? Bool ?? false
            let flowOut = event["flow_out"] as? Bool ?? false
            switch (flowIn, flowOut) {
            case (false, true):
                if flowStarts[id] != nil {
                    importErrors.append("flow \(id) begins twice (event \(order)): flow_duplicate_id")
                } else {
                    flowStarts[id] = slice
                }
            case (true, true):
                if let from = flowStarts[id] {
                    flows.append((from, slice))
                    flowStarts[id] = slice
                } else {
                    importNotes.append("flow \(id) carried on by event \(order) never began: flow_step_without_start")
                }
            case (true, false):
                if let from = flowStarts[id] {
                    flows.append((from, slice))
                } else {
                    importNotes.append("flow \(id) ended by event \(order) never began: flow_end_without_start")
                }
            case (false, false):
                importErrors.append("event \(order) has a bind_id and no direction: flow_without_direction")
            }
        }
        for (ts, order, event) in timed {
            let phase = event["ph"] as? String ?? ""
            let name = event["name"] as? String ?? "[No name]"
            let pid = event["pid"] as? Int ?? 0
            let tid = event["tid"] as? Int ?? pid
            let args = event["args"] as? [String: Any] ?? [:]
            switch phase {
            case "b", "e", "n":
                let id2 = event["id2"] as? [String: Any]
                func text(_ value: Any?) -> String? {
                    if let s = value as? String { return s }
                    return (value as? NSNumber)?.stringValue
                }
                guard event["pid"] != nil,
                    let id = text(event["id"]) ?? text(id2?["global"]) ?? text(id2?["local"])
                else {
                    importErrors.append("async event \(order) (\(name)) has no pid or no id: json_parser_failure")
                    continue
                }
                let category = event["cat"] as? String ?? ""
                let scope = id2?["local"] != nil && event["id"] == nil ? "local" : "global"
                let cookie = "\(scope == "local" ? "\(pid)" : "-")|\(category)|\(id)"
                let named = event["name"] as? String
                let set = "\(pid)|\(scope)|" + (cookieSets[cookie] ?? named ?? "")
                if cookieSets[cookie] == nil { cookieSets[cookie] = named ?? "" }
                var tracks = setTracks[set] ?? []
                var k = tracks.firstIndex { $0.cookie == cookie }
                if k == nil, let free = tracks.firstIndex(where: { $0.open == 0 }) {
                    tracks[free].cookie = cookie
                    k = free
                }
                if k == nil {
                    asyncTrackCount += 1
                    let made = "async \(asyncTrackCount)"
                    asyncTrackNames[made] = named ?? ""
                    tracks.append((cookie, 0, made))
                    k = tracks.count - 1
                }
                let t = k ?? 0
                switch phase {
                case "b": tracks[t].open += 1
                case "e": tracks[t].open = max(0, tracks[t].open - 1)
                default: break
                }
                setTracks[set] = tracks
                let key = tracks[t].key
                var stack = asyncStacks[key] ?? []
                // Slices already ended (instants) leave the stack when a later event comes.
                while let top = stack.last, slices[top].dur >= 0,
                    slices[top].end < ts || (slices[top].end == ts && !(slices[top].dur == 0 && phase == "n"))
                {
                    stack.removeLast()
                }
                if phase == "e" {
                    // The innermost open slice of its name (and category), if any; else nothing.
                    if let k = stack.lastIndex(where: {
                        slices[$0].dur < 0 && (named == nil || slices[$0].name == named)
                            && slices[$0].category == category
                    }) {
                        slices[stack[k]].dur = ts - slices[stack[k]].ts
                        if k == stack.count - 1 { stack.removeLast() }
                    }
                    asyncStacks[key] = stack
                    continue
                }
                slices.append(
                    Slice(
                        name: name, category: category, ts: ts, dur: phase == "n" ? 0 : -1, pid: pid, tid: -1,
                        depth: stack.count, parent: stack.last, instant: phase == "n", args: args, asyncKey: key))
                stack.append(slices.count - 1)
                asyncStacks[key] = stack
                flow(event, slice: slices.count - 1, order: order)
            case "C":
                for (key, value) in args {
                    guard let number = value as? NSNumber else {
                        importErrors.append("counter \(name) has a value that is not a number")
                        continue
                    }
                    counters.append(CounterValue(track: "\(name) \(key)", ts: ts, value: number.doubleValue))
                }
            case "X", "i", "I":
                if phase != "X", let scope = event["s"] as? String, scope != "t" {
                    if scope == "g" {
                        globalInstants.append(
                            Slice(
                                name: name, category: event["cat"] as? String ?? "", ts: ts, dur: 0, pid: 0, tid: 0,
                                depth: 0, parent: nil, instant: true, args: args))
                    }
                    continue
                }
                var dur: Int64 = 0
                if phase == "X" {
                    guard let d = nanoseconds(event["dur"]) else {
                        importErrors.append("event \(order) (\(name)) is complete but has no duration")
                        continue
                    }
                    dur = d
                }
                let key = "\(pid)/\(tid)"
                var stack = stacks[key] ?? []
                var dropped = false
                while let top = stack.last {
                    let open = slices[top]
                    if open.end < ts || (open.end == ts && !(open.dur == 0 && dur == 0)) {
                        stack.removeLast()
                        continue
                    }
                    if ts < open.end && ts + dur > open.end {
                        importErrors.append(
                            "\(name) [\(ts), \(ts + dur)) begins inside \(open.name) [\(open.ts), \(open.end)) and ends after it: dropped"
                        )
                        dropped = true
                    }
                    break
                }
                guard !dropped else { continue }
                slices.append(
                    Slice(
                        name: name, category: event["cat"] as? String ?? "", ts: ts, dur: dur, pid: pid, tid: tid,
                        depth: stack.count, parent: stack.last, instant: phase != "X", args: args))
                stack.append(slices.count - 1)
                stacks[key] = stack
                if phase == "X" { flow(event, slice: slices.count - 1, order: order) }
            default:
                continue
            }
        }
    }

    /// Reads a trace file.
    public init(contentsOf path: String) throws {
        try self.init(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The process's main thread as Perfetto marks it: the thread whose id is the process's.
    public func mainThreadName(pid: Int) -> String? { threadNames[pid]?[pid] }

    /// Slices of no length written as complete events that nest in another slice of no length at
    /// the same time: a staircase of nothing, drawn one under another.
    public var zeroLengthStaircases: [Slice] {
        slices.filter { slice in
            guard slice.dur == 0, !slice.instant, let parent = slice.parent else { return false }
            return slices[parent].dur == 0 && slices[parent].ts == slice.ts
        }
    }

    /// The slices on a thread named `thread`.
    public func slices(onThread thread: String) -> [Slice] {
        slices.filter { $0.asyncKey == nil && threadNames[$0.pid]?[$0.tid] == thread }
    }

    /// The slices on the async tracks named `name` — one track in the UI, whatever their ids.
    public func slices(onAsyncTrack name: String) -> [Slice] {
        slices.filter { $0.asyncKey.map { asyncTrackNames[$0] == name } ?? false }
    }

    /// Async slices never ended (Perfetto leaves them open, drawn to the trace's end).
    public var unendedAsyncSlices: [Slice] { slices.filter { $0.asyncKey != nil && $0.dur < 0 } }
}
