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
/// - a thread whose id is its process's id is the process's main thread.
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
        /// Whether the file wrote it as an instant (`i`).
        public var instant: Bool
        public var args: [String: Any]

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
        for (ts, order, event) in timed {
            let phase = event["ph"] as? String ?? ""
            let name = event["name"] as? String ?? "[No name]"
            let pid = event["pid"] as? Int ?? 0
            let tid = event["tid"] as? Int ?? pid
            let args = event["args"] as? [String: Any] ?? [:]
            switch phase {
            case "C":
                for (key, value) in args {
                    guard let number = value as? NSNumber else {
                        importErrors.append("counter \(name) has a value that is not a number")
                        continue
                    }
                    counters.append(CounterValue(track: "\(name) \(key)", ts: ts, value: number.doubleValue))
                }
            case "X", "i", "I":
                if phase != "X", let scope = event["s"] as? String, scope != "t" { continue }
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
        slices.filter { threadNames[$0.pid]?[$0.tid] == thread }
    }
}
