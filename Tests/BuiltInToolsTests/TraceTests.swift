import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellTrace

/// The Chrome trace of the simulated timeline, read back as Perfetto's JSON importer reads it
/// (``PerfettoImport``) and checked against the simulation: what a user sees in Perfetto is what
/// the metrics say, nested as the device ran it.
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

    /// The issue's mixed scenario: a GPU-bound animation, a stall, an NSTimer with a cost, a
    /// background GCD timer, a scroll, `layout watch`, and two resets.
    static let mixed = [
        "trace start", "fps start", "animate 2s", "load gpu 20ms",
        "timer nstimer tick --interval 100ms --repeats --cost 4ms",
        "timer gcd sync --interval 50ms --queue background --cost 10ms", "view add a --frame 0,0,10,10",
        "layout watch", "after 300ms stall 200ms", "after 800ms scroll 300ms", "run 1500ms", "reset",
        "animate 500ms", "stall 60ms", "run 1s", "reset", "timer nstimer again --interval 40ms --repeats --cost 1ms",
        "run 300ms",
    ]

    /// Runs a scenario; returns the session, its trace as Perfetto would import it, and the bytes.
    func traced(_ lines: [String] = TraceTests.scenario) throws -> (Session, PerfettoImport, [UInt8]) {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        for line in lines {
            #expect(
                session.runScript(line, origin: ScriptOrigin(name: "t")) == .finished, "\(line): \(sink.standardError)")
        }
        let bytes = try #require(session.tracing.recorder).json(generator: "test")
        let imported = try PerfettoImport(Data(bytes))
        expectReadsRight(imported)
        return (session, imported, bytes)
    }

    /// What every trace must be in Perfetto: imported without an error, the main thread marked as
    /// the process's, no staircase of zero-length slices (an iteration of no length enclosing its
    /// items of no length is nesting, not a staircase), and each item of the main thread inside its
    /// run-loop iteration — those of no length at an iteration's end too (issue 32).
    func expectReadsRight(_ trace: PerfettoImport, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(trace.importErrors.isEmpty, "\(trace.importErrors.prefix(5))", sourceLocation: sourceLocation)
        #expect(trace.processNames[1] == "debugsh simulated device", sourceLocation: sourceLocation)
        #expect(trace.mainThreadName(pid: 1) == "Main thread", sourceLocation: sourceLocation)
        let staircases = trace.zeroLengthStaircases.filter { slice in
            slice.parent.map { trace.slices[$0].name != "run loop iteration" } ?? true
        }
        #expect(staircases.isEmpty, "\(staircases.prefix(5))", sourceLocation: sourceLocation)
        for slice in trace.slices(onThread: "Main thread") where slice.name != "run loop iteration" {
            let iteration = slice.parent.map { trace.slices[$0] }
            #expect(
                iteration?.name == "run loop iteration", "\(slice) is not in its iteration",
                sourceLocation: sourceLocation)
            if let iteration, let number = slice.args["iteration"] as? Int {
                let first = iteration.args["iteration"] as? Int ?? -1
                let last = iteration.args["through_iteration"] as? Int ?? first
                #expect(first <= number && number <= last, "\(slice) in \(iteration)", sourceLocation: sourceLocation)
            }
        }
        #expect(
            !trace.counters.contains { $0.track.hasSuffix(" value") }, "a counter named '… value'",
            sourceLocation: sourceLocation)
        // Frames' lanes: two tracks by name, every slice ended, every flow whole.
        #expect(
            Set(trace.asyncTrackNames.values).isSubset(of: ["Expected frames", "Actual frames"]),
            "\(Set(trace.asyncTrackNames.values))", sourceLocation: sourceLocation)
        #expect(
            trace.unendedAsyncSlices.isEmpty, "\(trace.unendedAsyncSlices.prefix(3))", sourceLocation: sourceLocation)
        #expect(trace.importNotes.isEmpty, "\(trace.importNotes.prefix(3))", sourceLocation: sourceLocation)
    }

    func metric(_ session: Session, _ name: String) -> Int64 {
        if case .integer(let v) = session.metricValueOrNone(name) { return v }
        return -1
    }

    @Test func presentsAndHitchesMatchTheMetrics() throws {
        let (session, trace, _) = try traced()
        let presents = trace.slices(onThread: "Display").filter { $0.name == "present" }
        #expect(presents.count == Int(metric(session, "render.presents")))
        #expect(presents.count > 50)
        // R4: one hitch slice per hitch the meter counted, with the same causes.
        let hitches = trace.slices(onThread: "Hitches")
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
            guard let present = h.args["present_ns"] as? Int, let cause = h.args["cause"] as? String else { return nil }
            return "\(present) \(cause)"
        }.sorted()
        #expect(!fromTrace.isEmpty)
        #expect(fromTrace == fromMeter)
        #expect(Set(fromTrace.map { $0.split(separator: " ")[1] }).count >= 2, "more than one cause: \(fromTrace)")
        // A present stands at its vsync: the two are one instant, with the vsync's index.
        for present in presents.prefix(20) {
            #expect(present.args["vsync"] as? Int ?? -1 >= 0, "\(present)")
            #expect(!trace.slices(onThread: "Display").contains { $0.name == "vsync" && $0.ts == present.ts })
        }
    }

    @Test func callbacksPerTimerMatchItsFires() throws {
        let (session, trace, _) = try traced()
        for name in ["poll", "late", "bg", "mq", "link", "once"] {
            let slices = trace.slices.filter { $0.name == name && $0.args["timer"] != nil }
            let fires = metric(session, "timer.\(name).fires")
            #expect(fires > 0, "\(name)")
            #expect(slices.count == Int(fires), "\(name): \(slices.count) slices, \(fires) fires")
        }
        // The background timer's handlers are on the background queues' track, the others on the
        // main thread.
        let bg = trace.slices.filter { $0.name == "bg" }
        #expect(Set(bg.map(\.tid)).count == 1)
        #expect(trace.threadNames[1]?[bg.first?.tid ?? 0] == "Background queues")
        // Tool events are instants with their fields as arguments.
        let settled = trace.slices.filter { $0.name == "layout.settled" }
        #expect(settled.count == 1)
        #expect(settled.first?.args["message"] as? String != nil)
    }

    /// Background GCD handlers share lanes (issue 32): 2,000 zero-cost timers are one track; two
    /// timers whose handlers overlap take lanes of their own, and no slice of theirs overlaps
    /// another on its lane (Perfetto would drop it).
    @Test func backgroundHandlersShareLanes() throws {
        var lines = ["trace start --categories queues"]
        for k in 0..<2_000 { lines.append("timer gcd g\(k) --interval \(10 + k % 7)ms --queue background") }
        lines.append("run 200ms")
        let (session, many, _) = try traced(lines)
        let tracks = Set(many.slices.map(\.tid))
        #expect(tracks.count == 1, "\(tracks.count) tracks")
        #expect(many.threadNames[1]?[tracks.first ?? 0] == "Background queues")
        // Every handler is there: in a slice of its own, or named in a merged one's `items`.
        var fires: Int64 = 0
        for k in 0..<2_000 { fires += metric(session, "timer.g\(k).fires") }
        let handlers = many.slices.reduce(0) { $0 + (($1.args["items"] as? [Any])?.count ?? 1) }
        #expect(Int64(handlers) == fires)
        #expect(many.slices.contains { $0.name.hasSuffix("zero-cost items") && $0.category == "queues" })

        let (pair, two, _) = try traced([
            "trace start --categories queues", "timer gcd a --interval 10ms --queue background --cost 15ms",
            "timer gcd b --interval 10ms --queue background --cost 15ms", "run 100ms",
        ])
        let lanes = Dictionary(grouping: two.slices, by: \.tid)
        #expect(lanes.count >= 2, "\(lanes.keys)")
        let names = Set(lanes.keys.compactMap { two.threadNames[1]?[$0] })
        #expect(names.contains("Background queues") && names.contains("Background queues (2)"), "\(names)")
        // No two slices of a lane overlap: Perfetto would drop the second.
        for (_, slices) in lanes {
            let sorted = slices.sorted { $0.ts < $1.ts }
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.ts + a.dur <= b.ts, "\(a) \(b)") }
        }
        for name in ["a", "b"] {
            #expect(Int64(two.slices.filter { $0.name == name }.count) == metric(pair, "timer.\(name).fires"))
        }
    }

    /// The tracks and counters are named as Perfetto shows them, without a `value` series.
    @Test func tracksAndCountersAreNamed() throws {
        let (_, trace, _) = try traced()
        let named = Set(trace.threadNames[1, default: [:]].values)
        for track in [
            "Main thread", "Render server", "Display", "Hitches", "Run loop mode", "Tool events", "Background queues",
        ] {
            #expect(named.contains(track), "\(track) in \(named)")
        }
        #expect(Set(trace.counters.map(\.track)) == ["Presented FPS", "Main thread busy", "fps: label reading"])
        // A counters-only trace names its process too.
        let (_, counters, _) = try traced(["trace start --categories counters", "animate 1s", "run 2s"])
        #expect(counters.processNames[1] == "debugsh simulated device")
    }

    /// An iteration that starts and ends with its only item encloses it: it is written first.
    @Test func anIterationEnclosesItsOnlyItem() throws {
        let (_, trace, bytes) = try traced(["trace start --categories main", "stall 150ms", "run 200ms"])
        let stall = try #require(trace.slices.first { $0.name == "stall 150ms" })
        let iteration = try #require(stall.parent.map { trace.slices[$0] })
        #expect(iteration.name == "run loop iteration" && iteration.ts == stall.ts && iteration.dur == stall.dur)
        let text = String(decoding: bytes, as: UTF8.self)
        let iterationAt = try #require(text.range(of: "\"run loop iteration\""))
        let stallAt = try #require(text.range(of: "\"stall 150ms\""))
        #expect(iterationAt.lowerBound < stallAt.lowerBound)
    }

    /// Zero-cost callbacks of one instant are one slice naming them, not a staircase.
    @Test func zeroCostCallbacksOfOneInstantAreOneSlice() throws {
        let (_, trace, _) = try traced([
            "trace start --categories main", "fps start", "timer displaylink a", "timer displaylink b", "animate 100ms",
            "run 100ms",
        ])
        let merged = trace.slices.filter { $0.name.contains("zero-cost items") }
        #expect(!merged.isEmpty)
        let first = try #require(merged.first)
        #expect(first.dur == 0)
        let items = try #require(first.args["items"] as? [String])
        #expect(items.count == first.args["count"] as? Int && items.count >= 3 && items.contains("a"), "\(items)")
    }

    @Test func theMixedScenarioReadsRight() throws {
        let (_, trace, _) = try traced(TraceTests.mixed)
        // Two resets: one process, the simulations one after another on one axis.
        #expect(Set(trace.slices.map(\.pid)) == [1])
        let resets = trace.slices.filter { $0.name == "reset" }
        #expect(resets.isEmpty, "reset markers are process instants, not a thread's slices")
        let ticks = trace.slices.filter { $0.name == "tick" }
        let again = trace.slices.filter { $0.name == "again" }
        let lastTick = try #require(ticks.map(\.end).max())
        let firstAgain = try #require(again.map(\.ts).min())
        #expect(lastTick <= 1_500_000_000 && firstAgain >= 2_500_000_000, "\(lastTick) \(firstAgain)")
        #expect(trace.slices.contains { $0.name == "stall 200ms" } && trace.slices.contains { $0.name == "stall 60ms" })
        let stall60 = try #require(trace.slices.first { $0.name == "stall 60ms" })
        #expect(stall60.ts == 1_500_000_000, "the second simulation starts where the first stopped")
        #expect(trace.slices(onThread: "Run loop mode").contains { $0.name == "tracking" })
        #expect(trace.slices(onThread: "Background queues").filter { $0.name == "sync" }.count > 10)
    }

    /// Issue 26: trace processes were once numbered in a byte, so that simulation 257 shared pid 1
    /// with the first and their slices shared tracks. A trace is now one process whose
    /// simulations follow one another on its axis (docs/Trace.md, "Resets"): after 300 resets
    /// each simulation's slices lie in its own stretch, in order, and the `reset` markers number
    /// the simulations 2…301 with their offsets.
    @Test func threeHundredResetsStayApartAndInOrder() throws {
        var lines = ["trace start --categories main"]
        for k in 0...300 {
            // Simulation k + 1: a stall of k + 1 µs at its t = 0, well inside its 10 ms.
            lines += ["stall \(k + 1)us", "run 10ms"]
            if k < 300 { lines.append("reset") }
        }
        let (_, trace, bytes) = try traced(lines)
        #expect(Set(trace.slices.map(\.pid)) == [1])
        let ms: Int64 = 1_000_000
        // Every stall in its own simulation's stretch, one after another: simulation k + 1 starts
        // at k · 10 ms on the trace's axis, the 257th after the 256th as the 2nd after the 1st.
        let stalls = trace.slices.filter { $0.name.hasPrefix("stall ") }.sorted { $0.ts < $1.ts }
        #expect(stalls.count == 301)
        #expect(stalls.map(\.ts) == (0...300).map { Int64($0) * 10 * ms })
        #expect(stalls.map(\.dur) == (0...300).map { Int64($0 + 1) * 1_000 })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = try #require(json["traceEvents"] as? [[String: Any]])
        let resets = events.filter { $0["name"] as? String == "reset" }.compactMap { $0["args"] as? [String: Any] }
        #expect(resets.compactMap { $0["simulation"] as? Int } == Array(2...301))
        #expect(
            resets.compactMap { ($0["offset_ns"] as? Int).map(Int64.init) } == (1...300).map { Int64($0) * 10 * ms })
        #expect(events.allSatisfy { $0["pid"] == nil || $0["pid"] as? Int == 1 })
    }

    /// Issue 26: a slice a tool hands from before t = 0 to `.never` trapped the trace's arithmetic
    /// (and, after a reset, the call itself). The host clamps it: it starts at its simulation's
    /// t = 0 and, not having ended, ends where the recording does, marked `unfinished`.
    @Test func aToolsSliceFromBeforeZeroToNeverIsClamped() throws {
        let (session, _, _) = try traced(["trace start", "run 1s", "reset", "run 500ms"])
        let recorder = try #require(session.tracing.recorder)
        recorder.toolSlice(
            tool: 0, toolName: "x", "forever", from: SimTime(nanoseconds: -1_000_000_000), to: .never,
            args: [("n", .int(1))])
        recorder.toolSlice(
            tool: 0, toolName: "x", "huge", from: SimTime(nanoseconds: Int64.min),
            to: SimTime(nanoseconds: Int64.max - 1),
            args: [])
        recorder.toolSlice(tool: 0, toolName: "x", "late", from: .never, to: SimTime(nanoseconds: Int64.min), args: [])
        #expect(session.runScript("run 100ms", origin: ScriptOrigin(name: "t")) == .finished)
        let imported = try PerfettoImport(Data(recorder.json(generator: "test")))
        expectReadsRight(imported)
        let ms: Int64 = 1_000_000
        let slices = imported.slices(onThread: "Tool x").map { "\($0.name) \($0.ts / ms) \($0.dur / ms)" }.sorted()
        // The second simulation starts at 1 s on the trace's axis; it is at 600 ms when saved.
        #expect(slices == ["forever 1000 600", "huge 1000 600", "late 1500 0"])
        let forever = try #require(imported.slices.first { $0.name == "forever" })
        #expect(forever.args["unfinished"] as? Bool == true && forever.args["n"] as? Int == 1)
        // Ended by a reset, the unfinished slice ends there.
        #expect(session.runScript("reset\nrun 50ms", origin: ScriptOrigin(name: "t")) == .finished)
        let after = try PerfettoImport(Data(recorder.json(generator: "test")))
        #expect(after.slices.filter { $0.name == "forever" }.map { $0.end / ms } == [1600])
    }

    /// Counters hold their value from their time to the next: each second's value is written at
    /// the second's start.
    @Test func countersAreAtTheirInstants() throws {
        let (_, trace, _) = try traced([
            "trace start --categories counters", "after 500ms stall 300ms", "animate 2s", "run 4s",
        ])
        let busy = trace.counters.filter { $0.track == "Main thread busy" }.map { ($0.ts, $0.value) }
        #expect(busy.first?.0 == 0 && busy.first.map { $0.1 >= 0.3 } == true, "\(busy)")
        #expect(busy.contains { $0.0 == 1_000_000_000 && $0.1 == 0 }, "the stall's second alone: \(busy)")
        let presented = trace.counters.filter { $0.track == "Presented FPS" }.map { ($0.ts, $0.value) }
        // The first second's frames are its value from t = 0, not a climb from 1.
        #expect(presented.first?.0 == 0 && presented.first.map { $0.1 > 20 } == true, "\(presented)")
        #expect(presented.last?.1 == 0, "idle after the animation: \(presented)")
    }

    /// Recording a trace changes nothing the simulation does: `run until` checks its condition
    /// after the same instants, traced or not (asking for every vsync once added instants).
    @Test func aTraceDoesNotChangeTheSimulation() throws {
        let script = "every 1s echo tick\nrun until clock.now >= 1500ms\nget clock.now\n"
        let plain = try Transcript.run(script, tools: BuiltInTools.all)
        let traced = try Transcript.run("trace start\n" + script, tools: BuiltInTools.all)
        // A condition on clock.now holds at its own time, traced or not (issue 37, 5).
        #expect(plain.stdout == "tick\nclock.now = 1.5s\n")
        #expect(traced.stdout == plain.stdout)
    }

    /// Idle time is one span with its vsync count, and costs nothing.
    @Test func idleIsOneSpan() throws {
        let (_, trace, _) = try traced(["trace start", "stall 10ms", "run 1000000s"])
        let display = trace.slices(onThread: "Display")
        let idle = try #require(display.first { $0.name == "idle" })
        #expect(idle.args["vsyncs"] as? Int == 60_000_000)
        #expect(trace.slices.count < 20, "\(trace.slices.count) slices")
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

    /// A full trace keeps its first events by default, stops recording and says where it ends.
    @Test func aFullTraceKeepsItsFirstEvents() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        for line in ["trace start --limit 100 --categories display", "animate 10s", "run 5s", "run 1s"] {
            _ = session.runScript(line, origin: ScriptOrigin(name: "t"))
        }
        let trace = try #require(session.tracing.recorder)
        let at = try #require(trace.limitReachedAt)
        #expect(
            sink.standardError
                == "warning: trace: 100 events reached at \(at): the trace ends there ('trace start --limit <n>' keeps more, '--keep last' the newest)\n"
        )
        #expect(trace.kept == 100 && trace.dropped == 0 && !trace.isRecording)
        let imported = try PerfettoImport(Data(trace.json(generator: "t")))
        expectReadsRight(imported)
        #expect(imported.slices.allSatisfy { $0.ts <= at.nanoseconds }, "nothing after the end")
        #expect(imported.otherData["window_end_ns"] as? Int == Int(at.nanoseconds))
    }

    /// With `--keep last` the oldest are dropped and the window starts after them: nothing from
    /// before it stretches the axis.
    @Test func aRingKeepsTheNewestInAConsistentWindow() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        for line in ["trace start --limit 100 --keep last", "animate 10s", "after 2s scroll 1s", "run 5s"] {
            _ = session.runScript(line, origin: ScriptOrigin(name: "t"))
        }
        #expect(
            sink.standardError
                == "warning: trace: 100 events reached: the oldest are dropped from now on ('trace start --limit <n>' keeps more)\n"
        )
        let trace = try #require(session.tracing.recorder)
        #expect(trace.kept == 100 && trace.dropped > 0)
        let imported = try PerfettoImport(Data(trace.json(generator: "t")))
        expectReadsRight(imported)
        let windowStart = try #require(imported.otherData["window_start_ns"] as? Int)
        #expect(windowStart > 4_000_000_000)
        #expect(imported.slices.allSatisfy { $0.ts >= windowStart }, "everything inside the window")
        #expect(imported.counters.allSatisfy { $0.ts >= windowStart })
    }
}
