import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell
@testable import DebugShellTrace

/// Issue 32's FrameTimeline in the trace, read as Perfetto's JSON importer reads it
/// (``PerfettoImport``): expected and actual frame lanes that pair up by frame, each actual
/// frame's verdict and hitch type as the FPS meter gives them, the flows from a frame's commit to
/// its render and present and from what delayed a late frame, the Hangs track, and the marker of
/// why a trace ends where it does.
@Suite struct TraceFrameTimelineTests {
    /// Runs `lines` in a JSON session; returns it, its sink, and its trace as Perfetto reads it.
    func traced(_ lines: [String]) throws -> (Session, MemorySink, PerfettoImport) {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(json: true), sink: sink)
        for line in lines {
            #expect(
                session.runScript(line, origin: ScriptOrigin(name: "t")) == .finished, "\(line): \(sink.standardError)")
        }
        let trace = try PerfettoImport(Data(try #require(session.tracing.recorder).json(generator: "test")))
        TraceTests().expectReadsRight(trace)
        return (session, sink, trace)
    }

    /// The result of a command in a JSON session.
    func result(_ session: Session, _ sink: MemorySink, _ line: String) throws -> [String: Any] {
        sink.clear()
        _ = session.runLine(line)
        let json = try JSONSerialization.jsonObject(with: Data(sink.standardOutput.utf8)) as? [String: Any]
        return try #require(json?["result"] as? [String: Any], "\(line): \(sink.standardOutput)")
    }

    /// The scroll: `scroll 1s; load gpu 20ms` — every other frame dropped, every present
    /// a GPU hitch.
    static let scroll = ["trace start", "fps start", "scroll 1s", "load gpu 20ms", "run 1s"]

    @Test func expectedAndActualLanesPairUpByFrame() throws {
        let (session, _, trace) = try traced(TraceFrameTimelineTests.scroll)
        #expect(Set(trace.asyncTrackNames.values) == ["Expected frames", "Actual frames"])
        let expected = trace.slices(onAsyncTrack: "Expected frames")
        let actual = trace.slices(onAsyncTrack: "Actual frames").filter { !$0.instant }
        let presents = trace.slices(onThread: "Display").filter { $0.name == "present" }
        let presented = actual.filter { $0.args["verdict"] as? String != "dropped" }
        #expect(presents.count == Int(TraceTests().metric(session, "render.presents")) && presents.count > 20)
        // One expected and one actual slice per present, named by its frame, paired by name.
        #expect(expected.count == presents.count && presented.count == presents.count)
        #expect(Set(expected.map(\.name)) == Set(presents.compactMap { ($0.args["frame"] as? Int).map(String.init) }))
        #expect(Set(expected.map(\.name)) == Set(presented.map(\.name)))
        for frame in presented {
            let pair = try #require(expected.first { $0.name == frame.name })
            // Both start at the frame's earliest time; the expected ends at its expected present,
            // the actual at its present, which the Display track shows at the same time.
            #expect(pair.ts == frame.ts, "\(frame)")
            #expect(pair.end == Int64(frame.args["expected_present_ns"] as? Int ?? -1), "\(frame)")
            #expect(
                presents.contains { $0.ts == frame.end && ($0.args["frame"] as? Int).map(String.init) == frame.name })
            #expect(
                frame.args["latency_allowed_ns"] as? Int == 33_333_333
                    || frame.args["latency_allowed_ns"] as? Int == 33_333_334)
            #expect(frame.args["buffers"] as? Int == 2)
        }
        // Frames in flight together are on rows of their own: no two slices of one lane overlap,
        // and the lanes are few.
        for name in ["Expected frames", "Actual frames"] {
            let lanes = Dictionary(grouping: trace.slices(onAsyncTrack: name).filter { $0.depth == 0 }) {
                $0.asyncKey ?? ""
            }
            #expect(
                lanes.count >= (name == "Actual frames" ? 2 : 1) && lanes.count <= 4, "\(name): \(lanes.count) lanes")
            for slices in lanes.values {
                for (a, b) in zip(slices, slices.dropFirst()) { #expect(a.end <= b.ts, "\(a) overlaps \(b)") }
            }
        }
        // The frames merged into a present were never shown: dropped, on the Actual frames track.
        let dropped = actual.filter { $0.args["verdict"] as? String == "dropped" }
        let merged = presented.reduce(0) { $0 + (($1.args["merged_frames"] as? Int) ?? 1) - 1 }
        #expect(dropped.count == merged && merged > 10)
        for frame in dropped {
            let into = try #require(frame.args["merged_into"] as? Int)
            #expect(presented.contains { $0.name == "\(into)" }, "\(frame)")
            #expect(!expected.contains { $0.name == frame.name }, "a dropped frame has no expected present")
        }
    }

    @Test func eachHitchNamesTheTypeFPSHitchesPrints() throws {
        for lines in [
            TraceFrameTimelineTests.scroll,
            // R-B's late render start: with three buffers the GPU falls behind (Commit to Render
            // latency), and R-B's other work: a stall before the commit (Pre-Commit(s) latency).
            ["trace start", "display buffers 3", "fps start", "animate 1s", "load gpu 20ms", "run 1s"],
            ["trace start", "fps start", "animate 1s", "run 300ms", "stall 50ms", "run 700ms"],
            [
                "trace start", "fps start", "animate 1s", "after 500ms load layout 40ms", "after 510ms load layout 0s",
                "after 700ms load offscreen 40 500us", "after 710ms load offscreen 0", "run 1s",
            ],
        ] {
            let (session, sink, trace) = try traced(lines)
            let hitches = try result(session, sink, "fps hitches --last 1000")["hitches"] as? [[String: Any]] ?? []
            #expect(!hitches.isEmpty, "\(lines)")
            let actual = trace.slices(onAsyncTrack: "Actual frames").filter { !$0.instant }
            let late = actual.filter { $0.args["verdict"] as? String == "hitch" }
            #expect(late.count == hitches.count, "\(lines)")
            #expect(late.count == trace.slices(onThread: "Hitches").count)
            for hitch in hitches {
                let frame = try #require(hitch["frame"] as? Int)
                let slice = try #require(late.first { $0.name == "\(frame)" }, "frame \(frame)")
                #expect(slice.args["hitch_type"] as? String == hitch["type_label"] as? String, "\(slice)")
                #expect(slice.args["hitch_type_word"] as? String == hitch["type"] as? String)
                #expect(slice.args["severity"] as? String == hitch["severity"] as? String)
                #expect(slice.args["hitch_ns"] as? Int == hitch["hitch_ns"] as? Int)
                #expect(slice.args["present_ns"] as? Int == hitch["present_ns"] as? Int)
                #expect(slice.end == Int64(hitch["present_ns"] as? Int ?? -1))
            }
            // Every frame has a verdict of R9's; a late one that is no hitch was late because of
            // the frame before.
            for frame in actual {
                let verdict = frame.args["verdict"] as? String ?? ""
                #expect(["on time", "hitch", "late (frame before)", "dropped"].contains(verdict), "\(frame)")
                if verdict == "late (frame before)" { #expect(frame.args["hitch_ns"] as? Int == 0) }
            }
        }
    }

    /// R-D's frame 31, late only because frame 30 was: `late (frame before)`, with no hitch.
    @Test func aBufferStuffedFrameIsLateBecauseOfTheFrameBefore() throws {
        let (_, _, trace) = try traced([
            "trace start", "fps start", "load gpu 10ms", "animate 510ms", "after 500ms load gpu 25ms",
            "after 510ms load gpu 10ms", "run 1s",
        ])
        let actual = trace.slices(onAsyncTrack: "Actual frames")
        let stuffed = actual.filter { !$0.instant && $0.args["verdict"] as? String == "late (frame before)" }
        #expect(stuffed.map(\.name) == ["31"])
        #expect(stuffed.first?.end == 550_000_000 && stuffed.first?.args["expected_present_ns"] as? Int == 533_333_333)
        #expect(actual.first { $0.name == "30" }?.args["verdict"] as? String == "hitch")
    }

    /// Slices of a flow's ends, as pairs.
    func flows(_ trace: PerfettoImport) -> [(PerfettoImport.Slice, PerfettoImport.Slice)] {
        trace.flows.map { (trace.slices[$0.from], trace.slices[$0.to]) }
    }

    @Test func flowsGoFromEachCommitToItsRenderAndPresent() throws {
        let (_, _, trace) = try traced(TraceFrameTimelineTests.scroll)
        let links = flows(trace)
        #expect(!links.isEmpty)
        // Every flow joins two slices of the trace, forward in time.
        for (from, to) in links { #expect(from.ts <= to.ts, "\(from) → \(to)") }
        let presents = trace.slices(onThread: "Display").filter { $0.name == "present" }
        let presented = trace.slices(onAsyncTrack: "Actual frames").filter {
            !$0.instant && $0.args["verdict"] as? String != "dropped"
        }
        for present in presents {
            let frame = try #require(present.args["frame"] as? Int)
            // present ← render of its frame ← the main-thread slice of its commit.
            let intoPresent = links.filter { $0.1.ts == present.ts && $0.1.tid == present.tid }
            #expect(intoPresent.count == 1, "frame \(frame)")
            let render = try #require(intoPresent.first?.0)
            #expect(render.name == "render" && render.args["frame"] as? Int == frame)
            let intoRender = links.filter { $0.1.ts == render.ts && $0.1.name == "render" }
            #expect(intoRender.count == 1, "frame \(frame)")
            let commit = try #require(intoRender.first?.0)
            let actual = try #require(presented.first { $0.name == "\(frame)" })
            #expect(commit.tid == 1 && commit.name.contains("commit"), "\(commit)")
            #expect(Int(commit.ts) == actual.args["commit_start_ns"] as? Int)
        }
    }

    /// R-B's delays, each an arrow from what delayed the frame to the frame's `delayed by` marker,
    /// at its present, inside its actual slice: a stall before the commit, the render of the
    /// frame before it, the commit of a frame merged into it.
    @Test func aLateFrameHasAnArrowFromWhatDelayedIt() throws {
        let cases: [(lines: [String], frame: String, from: String, fromTrack: String)] = [
            (
                ["trace start", "fps start", "animate 1s", "run 300ms", "stall 50ms", "run 700ms"], "19", "stall 50ms",
                "Main thread"
            ),
            (
                ["trace start", "display buffers 3", "fps start", "animate 1s", "load gpu 20ms", "run 1s"], "54",
                "render", "Render server"
            ),
            (
                [
                    "trace start", "fps start", "animate 1s", "after 500ms load layout 40ms",
                    "after 510ms load layout 0s",
                    "run 1s",
                ], "32", "commit", "Main thread"
            ),
        ]
        for c in cases {
            let (_, _, trace) = try traced(c.lines)
            let frame = try #require(
                trace.slices(onAsyncTrack: "Actual frames").first { !$0.instant && $0.name == c.frame }, "\(c.lines)")
            let marker = try #require(
                trace.slices.firstIndex { $0.instant && $0.asyncKey == frame.asyncKey && $0.ts == frame.end },
                "no marker in frame \(c.frame)")
            #expect(trace.slices[marker].parent.map { trace.slices[$0].name } == c.frame)
            #expect(trace.slices[marker].name.hasPrefix("delayed by "))
            let into = trace.flows.filter { $0.to == marker }
            #expect(into.count == 1, "\(c.lines)")
            let source = try #require(into.first.map { trace.slices[$0.from] })
            #expect(source.name.contains(c.from), "\(source)")
            #expect(trace.threadNames[1]?[source.tid] == c.fromTrack, "\(source)")
            #expect(Int(source.ts) == frame.args["delay_start_ns"] as? Int || c.from == "render", "\(source)")
            if c.from == "render" {
                #expect(source.args["frame"] as? Int == 53)
                #expect(frame.args["hitch_type"] as? String == "Commit to Render latency")
            }
        }
    }

    @Test func aStallOf300msIsOneHang() throws {
        let (_, _, trace) = try traced([
            "trace start", "after 100ms stall 300ms", "after 1s stall 100ms", "after 1500ms stall 250ms", "run 2s",
        ])
        let hangs = trace.slices(onThread: "Hangs")
        #expect(hangs.map(\.ts) == [100_000_000, 1_500_000_000], "\(hangs)")
        #expect(hangs.map(\.dur) == [300_000_000, 250_000_000])
        #expect(hangs.allSatisfy { $0.name == "Hang" && $0.category == "main" })
        #expect(hangs.map { $0.args["item"] as? String } == ["stall 300ms", "stall 250ms"])
        #expect(hangs.first?.args["item_kind"] as? String == "block")
    }

    @Test func aBreakpointStopWritesTheEndMarker() throws {
        let lines = ["trace start", "break when main.hangs > 0", "after 300ms stall 300ms", "run 1s"]
        let (session, _, trace) = try traced(lines)
        let ends = trace.globalInstants.filter { $0.name.hasPrefix("trace ends") }
        #expect(ends.map(\.name) == ["trace ends: breakpoint 1"])
        #expect(ends.first?.ts == 300_000_000 && ends.first?.args["reason"] as? String == "breakpoint")
        #expect((ends.first?.args["detail"] as? String)?.hasPrefix("stopped at 300ms by breakpoint 1") == true)
        // Once time moves on, the stop is history: the trace ends at its save.
        _ = session.runLine("run 100ms")
        let later = try PerfettoImport(Data(try #require(session.tracing.recorder).json(generator: "t")))
        #expect(later.globalInstants.isEmpty)
    }

    @Test func aFullTraceAndAnInterruptSayWhereTheyEnd() throws {
        let (_, _, full) = try traced(["trace start --limit 50", "animate 1s", "run 1s"])
        let end = try #require(full.globalInstants.first)
        #expect(full.globalInstants.count == 1 && end.name == "trace ends: 50 events, its limit")
        #expect(end.args["reason"] as? String == "limit")
        #expect(end.ts == Int64(full.otherData["window_end_ns"] as? Int ?? -1))
        // An interrupt stops `run` where it is: the trace ends there, interrupted.
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        _ = session.runScript("trace start\nanimate 1s", origin: ScriptOrigin(name: "t"))
        let engine = session.engine
        engine.interruptPollMask = 0
        session.isInterrupted = { engine.now >= SimTime(nanoseconds: 500_000_000) }
        _ = session.runLine("run 1s")
        session.isInterrupted = { false }
        let trace = try PerfettoImport(Data(try #require(session.tracing.recorder).json(generator: "t")))
        let stop = try #require(trace.globalInstants.first)
        #expect(stop.name == "trace ends: interrupted" && stop.args["reason"] as? String == "interrupt")
        #expect(stop.ts == engine.now.nanoseconds && stop.ts >= 500_000_000 && stop.ts < 600_000_000)
    }

    /// Without the `frames` category: no lanes and no flows; the rest as before.
    @Test func theFramesCategoryCanBeLeftOut() throws {
        let (_, _, trace) = try traced([
            "trace start --categories display,main,render", "fps start", "scroll 500ms", "load gpu 20ms", "run 500ms",
        ])
        #expect(trace.asyncTrackNames.isEmpty && trace.flows.isEmpty)
        #expect(trace.slices(onThread: "Display").contains { $0.name == "present" })
    }

    /// What frames add to a trace's cost grows with the presents: twice the animation, about
    /// twice the steps (recorder and writer), counted, never timed.
    @Test func framesCostStepsInProportionToPresents() throws {
        func cost(_ seconds: Int) throws -> (recorder: Int64, writer: Int64, presents: Int64) {
            let sink = MemorySink()
            let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
            let lines = [
                "trace start --categories frames", "display buffers 3", "animate \(seconds)s", "load gpu 20ms",
                "run \(seconds)s",
            ]
            #expect(session.runScript(lines.joined(separator: "\n"), origin: ScriptOrigin(name: "t")) == .finished)
            let timeline = try #require(session.tracing.recorder).snapshot()
            let written = TraceRecorder.encode(timeline, generator: "t") { _ in }
            return (timeline.work, written.work, TraceTests().metric(session, "render.presents"))
        }
        let small = try cost(2)
        let large = try cost(4)
        #expect(small.presents > 90 && Double(large.presents) / Double(small.presents) > 1.9)
        for run in [small, large] {
            #expect(run.recorder <= 12 * run.presents && run.writer <= 4 * run.presents, "\(run)")
        }
        let recorder = Double(large.recorder) / Double(small.recorder)
        let writer = Double(large.writer) / Double(small.writer)
        #expect(recorder > 1.8 && recorder < 2.2, "\(small) \(large)")
        #expect(writer > 1.8 && writer < 2.2, "\(small) \(large)")
    }
}
