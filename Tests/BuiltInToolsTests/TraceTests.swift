import BuiltInTools
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellTrace

/// The Chrome trace of the simulated timeline, read back as JSON and checked against the
/// simulation: what the trace shows is what the metrics say.
@Suite struct TraceTests {
    /// A scenario with every track: animation with a GPU load (render hitches), a stall and a
    /// scroll (commit hitches, mode spans), timers of every kind, a background queue, the layout
    /// checker's events.
    static let scenario = [
        "trace start", "fps start --window 250ms", "fps watch hitches", "animate 3s", "load gpu 20ms",
        "load frame 3ms", "timer nstimer poll --interval 50ms --repeats --cost 5ms",
        "timer nstimer late --interval 120ms --repeats --cost 30ms --mode default",
        "timer gcd bg --interval 30ms --queue background --cost 40ms", "timer gcd mq --interval 70ms --cost 2ms",
        "timer displaylink link --fps 30 --cost 1ms", "timer after once 400ms --cost 1ms",
        "view add cell --frame 0,0,100,44", "view animate cell --frame 0,0,200,44 --over 300ms", "layout watch",
        "after 500ms stall 150ms", "after 1s scroll 400ms", "run 2s", "view add late --frame 0,0,10,10", "run 1s",
    ]

    /// Runs the scenario; returns the session and its trace as parsed JSON and as bytes.
    func traced(_ lines: [String] = TraceTests.scenario) throws -> (Session, [String: Any], [UInt8]) {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        for line in lines {
            #expect(
                session.runScript(line, origin: ScriptOrigin(name: "t")) == .finished, "\(line): \(sink.standardError)")
        }
        let bytes = try #require(session.trace).json(generator: "test")
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        return (session, try #require(object), bytes)
    }

    func events(_ json: [String: Any]) -> [[String: Any]] { json["traceEvents"] as? [[String: Any]] ?? [] }

    func metric(_ session: Session, _ name: String) -> Int64 {
        if case .integer(let v) = session.metricValueOrNone(name) { return v }
        return -1
    }

    @Test func presentsAndHitchesMatchTheMetrics() throws {
        let (session, json, _) = try traced()
        let all = events(json)
        let presents = all.filter { $0["name"] as? String == "present" && $0["ph"] as? String == "i" }
        #expect(presents.count == Int(metric(session, "render.presents")))
        #expect(presents.count > 50)
        // R4: one hitch slice per hitch the meter counted, with the same causes.
        let hitches = all.filter { $0["tid"] as? Int == Int(TraceTimeline.hitchTrack) && $0["ph"] as? String == "X" }
        #expect(hitches.count == Int(metric(session, "fps.hitches")))
        let sink = MemorySink()
        let probe = try Session(tools: BuiltInTools.all, options: SessionOptions(json: true), sink: sink)
        for line in TraceTests.scenario { _ = probe.runScript(line, origin: ScriptOrigin(name: "t")) }
        sink.clear()
        _ = probe.runLine("fps frames --hitches --last 1000")
        let frames = try JSONSerialization.jsonObject(with: Data(sink.standardOutput.utf8)) as? [String: Any]
        let rows = ((frames?["result"] as? [String: Any])?["frames"] as? [[String: Any]]) ?? []
        let fromMeter = rows.compactMap { row -> String? in
            guard let present = row["present_ns"] as? Int, let cause = row["cause"] as? String else { return nil }
            return "\(present) \(cause)"
        }.sorted()
        let fromTrace = hitches.compactMap { h -> String? in
            let args = h["args"] as? [String: Any]
            guard let present = args?["present_ns"] as? Int, let cause = args?["cause"] as? String else { return nil }
            return "\(present) \(cause)"
        }.sorted()
        #expect(!fromTrace.isEmpty)
        #expect(fromTrace == fromMeter)
        #expect(Set(fromTrace.map { $0.split(separator: " ")[1] }).count >= 2, "more than one cause: \(fromTrace)")
    }

    @Test func callbacksPerTimerMatchItsFires() throws {
        let (session, json, _) = try traced()
        let all = events(json)
        for name in ["poll", "late", "bg", "mq", "link", "once"] {
            let slices = all.filter {
                $0["name"] as? String == name && $0["ph"] as? String == "X"
                    && ($0["args"] as? [String: Any])?["timer"] != nil
            }
            let fires = metric(session, "timer.\(name).fires")
            #expect(fires > 0, "\(name)")
            #expect(slices.count == Int(fires), "\(name): \(slices.count) slices, \(fires) fires")
        }
        // The background timer's handlers are on its own queue's track, the others on the main thread.
        let bg = all.filter { $0["name"] as? String == "bg" && $0["ph"] as? String == "X" }
        #expect(Set(bg.compactMap { $0["tid"] as? Int }).count == 1)
        #expect(bg.first?["tid"] as? Int != Int(TraceTimeline.mainTrack))
        // Tool events are instants with their fields as arguments.
        let settled = all.filter { $0["name"] as? String == "layout.settled" }
        #expect(settled.count == 1)
        #expect((settled.first?["args"] as? [String: Any])?["message"] as? String != nil)
    }

    /// Slices on one track never overlap (they may nest: an iteration encloses its items), and
    /// every event has the fields its phase needs.
    @Test func slicesNestAndEventsAreComplete() throws {
        let (_, json, _) = try traced()
        let all = events(json)
        var byTrack: [String: [(Double, Double)]] = [:]
        for e in all {
            let ph = try #require(e["ph"] as? String)
            #expect(e["name"] is String, "\(e)")
            #expect(e["pid"] is Int, "\(e)")
            switch ph {
            case "X":
                let ts = try #require(e["ts"] as? Double ?? (e["ts"] as? Int).map(Double.init), "\(e)")
                let dur = try #require(e["dur"] as? Double ?? (e["dur"] as? Int).map(Double.init), "\(e)")
                #expect(dur >= 0 && e["tid"] is Int && e["cat"] is String && e["args"] is [String: Any], "\(e)")
                byTrack["\(e["pid"]!)/\(e["tid"]!)", default: []].append((ts, ts + dur))
            case "i":
                #expect(e["ts"] != nil && e["s"] as? String == "t" && e["tid"] is Int, "\(e)")
            case "C":
                let args = try #require(e["args"] as? [String: Any], "\(e)")
                #expect(e["ts"] != nil && args["value"] != nil, "\(e)")
            case "M":
                #expect((e["args"] as? [String: Any])?.isEmpty == false, "\(e)")
            default:
                Issue.record("unexpected phase \(ph)")
            }
        }
        #expect(json["displayTimeUnit"] as? String == "ms")
        for (track, slices) in byTrack {
            // Sorted by start, longest first: each slice must end before the next starts or
            // contain it.
            var stack: [Double] = []
            for (start, end) in slices.sorted(by: { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 > $1.1 }) {
                while let top = stack.last, top <= start { stack.removeLast() }
                if let top = stack.last { #expect(end <= top, "track \(track): [\(start), \(end)) overlaps") }
                stack.append(end)
            }
        }
        let named = Set(
            all.filter { $0["name"] as? String == "thread_name" }.compactMap { e in
                (e["args"] as? [String: Any])?["name"] as? String
            })
        for track in ["Main thread", "Render server", "Display", "Hitches", "Run loop mode", "Tool events", "Queue bg"]
        {
            #expect(named.contains(track), "\(track) in \(named)")
        }
        let counters = Set(all.filter { $0["ph"] as? String == "C" }.compactMap { $0["name"] as? String })
        #expect(counters == ["Presented FPS", "Main thread busy", "fps: label reading"])
    }

    @Test func theSameScenarioGivesTheSameBytes() throws {
        let (_, _, a) = try traced()
        let (_, _, b) = try traced()
        #expect(a == b)
        #expect(a.count > 10_000)
    }

    /// Time stamps are microseconds with the nanoseconds kept: vsync 1 at 16,666,666 ns.
    @Test func timeStampsKeepTheNanoseconds() throws {
        let (_, _, bytes) = try traced(["trace start --categories display", "animate 20ms", "run 20ms"])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(
            text.contains(#""ph": "i", "s": "t", "ts": 16666.666, "pid": 1, "tid": 3, "args": {"index": 1}}"#),
            "\(text)")
    }

    /// A reset starts a new process in the trace; the limit drops the oldest and says so once.
    @Test func resetsAndTheLimit() throws {
        let (_, json, _) = try traced(["trace start", "stall 10ms", "run 20ms", "reset", "stall 5ms", "run 20ms"])
        let processes = Set(events(json).compactMap { $0["pid"] as? Int })
        #expect(processes == [1, 2])
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        for line in ["trace start --limit 100 --categories display", "run 5s", "run 1s"] {
            _ = session.runScript(line, origin: ScriptOrigin(name: "t"))
        }
        #expect(
            sink.standardError
                == "warning: trace: 100 events reached: the oldest are dropped from now on ('trace start --limit <n>' keeps more)\n"
        )
        let trace = try #require(session.trace)
        // Idle, the display track has the vsyncs alone: 0…359 in 6 s, the last 100 kept.
        #expect(trace.kept == 100 && trace.recorded == 360 && trace.dropped == 260)
        let parsed = try JSONSerialization.jsonObject(with: Data(trace.json(generator: "t"))) as? [String: Any]
        let vsyncs = events(parsed ?? [:]).filter { $0["name"] as? String == "vsync" }
        #expect(vsyncs.count == 100)
        #expect((vsyncs.first?["args"] as? [String: Any])?["index"] as? Int == 260)
    }
}
