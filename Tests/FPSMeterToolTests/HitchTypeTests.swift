import BuiltInTools
import DebugShell
import DebugShellCore
import Testing

@testable import FPSMeterTool

/// R6–R9 through the real commands: the worked examples R-B (one hitch of each type), R-C (two
/// buffers and three) and R-D (a frame late because of the one before), with their exact numbers.
@Suite struct HitchTypeTests {
    /// One scenario of R-B: its only hitch.
    private func onlyHitch(_ lines: String, buffers: Int = 2) throws -> HitchRecord {
        let s = try meterSession("display buffers \(buffers)\nfps start\nanimate 1s\n\(lines)\nrun 1s")
        let log = try s.meter.hitchLog.elements
        #expect(log.count == 1, "\(lines): \(log.map { $0.type.description })")
        return try #require(log.first)
    }

    /// R-B, a long update (R6.1, R8.1): the older tick's 23.333 ms is the largest share of frame 32's time.
    @Test func workedExampleRB_longUpdate() throws {
        let h = try onlyHitch("after 500ms load frame 40ms\nafter 510ms load frame 0s")
        #expect(h.type == .appUpdate)
        #expect(h.frame == 32)
        #expect(h.present == SimTime(nanoseconds: 566_666_666))
        #expect(h.hitch == 16_666_666)
        #expect(h.severity == .low)
        let delay = try #require(h.delay)
        #expect(delay.kind == .displayLink)
        #expect(delay.start == SimTime(nanoseconds: 500 * ms) && delay.end == SimTime(nanoseconds: 540 * ms))
    }

    /// R-B, a long layout (R6.2, R8.1): the commit of the merged frame 31 is in frame 32's way.
    @Test func workedExampleRB_longLayout() throws {
        let h = try onlyHitch("after 500ms load layout 40ms\nafter 510ms load layout 0s")
        #expect(h.type == .expensiveCommit)
        #expect(h.frame == 32)
        let delay = try #require(h.delay)
        #expect(delay.kind == .commit && delay.label == "31")
        #expect(delay.start == SimTime(nanoseconds: 500 * ms) && delay.end == SimTime(nanoseconds: 540 * ms))
    }

    /// R-B, other work: a 50 ms stall before the tick of 300 — three intervals, High.
    @Test func workedExampleRB_stall() throws {
        let s = try meterSession("fps start\nanimate 1s\nrun 300ms\nstall 50ms\nrun 700ms")
        let h = try #require(try s.meter.hitchLog.elements.first)
        #expect(try s.meter.hitchLog.count == 1)
        #expect(h.type == .preCommitLatency)
        #expect(h.frame == 19)
        #expect(h.hitch == 50 * ms)
        #expect(h.severity == .high)
        #expect(h.delay?.kind == .block)
        #expect(h.delay?.start == SimTime(nanoseconds: 300 * ms) && h.delay?.end == SimTime(nanoseconds: 350 * ms))
    }

    /// R-B, offscreen passes and GPU work (R6.3, R8.3): frame 31's render 516.667–536.667 overruns.
    @Test func workedExampleRB_render() throws {
        let passes = try onlyHitch("after 510ms load offscreen 40 500us\nafter 520ms load offscreen 0")
        #expect(passes.type == .expensiveRender(offscreenPasses: 40))
        #expect(passes.type.description == "Potentially expensive render, 40 offscreen passes")
        #expect(passes.frame == 31)
        #expect(passes.present == SimTime(nanoseconds: 550 * ms))
        #expect(passes.phases.offscreenPasses == 40 && passes.phases.offscreen == SimDuration(nanoseconds: 20 * ms))
        #expect(passes.delay?.kind == .render && passes.delay?.frame == 31)
        #expect(passes.delay?.start == SimTime(nanoseconds: 516_666_666))
        #expect(passes.delay?.end == SimTime(nanoseconds: 536_666_666))
        let gpu = try onlyHitch("after 510ms load gpu 20ms\nafter 520ms load gpu 0s")
        #expect(gpu.type == .expensiveGPU)
        #expect(gpu.frame == 31 && gpu.present == SimTime(nanoseconds: 550 * ms))
    }

    /// R-B, a late render start (R7.1, R7.2, R8.2): with three buffers the GPU falls behind; nine
    /// frames wait.
    @Test func workedExampleRB_lateRenderStart() throws {
        let s = try meterSession("display buffers 3\nfps start\nanimate 1s\nload gpu 20ms\nrun 1s")
        #expect(try s.value("fps.hitches") == "9")
        #expect(try s.value("fps.render") == "48")
        let log = try s.meter.hitchLog.elements
        #expect(log.allSatisfy { $0.type == .commitToRenderLatency })
        let last = try #require(log.last)
        #expect(last.frame == 54)
        #expect(last.present == SimTime(nanoseconds: 950 * ms))
        #expect(last.expected == SimTime(nanoseconds: 933_333_333))
        #expect(last.delay?.frame == 53)
        #expect(last.delay?.start == SimTime(nanoseconds: 896_666_666))
        #expect(last.delay?.end == SimTime(nanoseconds: 916_666_666))
        // Three buffers: three refresh intervals of acceptable latency.
        #expect(last.buffers == 3)
        #expect(last.latencyAllowed == SimDuration(nanoseconds: 50 * ms))
    }

    /// R-C (R7.3, R7.4): the 25 ms render hitches with two buffers, not with three; three cost a
    /// refresh of latency on every frame.
    @Test func workedExampleRC() throws {
        let script =
            "fps start\nload gpu 10ms\nanimate 1s\nafter 500ms load gpu 25ms\nafter 510ms load gpu 10ms\nrun 1s"
        let two = try meterSession(script)
        #expect(try two.value("fps.hitches") == "1")
        let hitch = try #require(try two.meter.hitchLog.elements.first)
        #expect(hitch.frame == 30 && hitch.type == .expensiveGPU)
        #expect(hitch.present == SimTime(nanoseconds: 533_333_333))
        let three = try meterSession("display buffers 3\n" + script)
        #expect(try three.value("fps.hitches") == "0")
        let late = try #require(try three.meter.frames.elements.first { $0.frame == 57 })
        let early = try #require(try two.meter.frames.elements.first { $0.frame == 57 })
        #expect(late.present == SimTime(nanoseconds: 983_333_333))
        #expect(early.present == SimTime(nanoseconds: 966_666_666))
        // Steadily GPU-bound: R-A's 30 presents a second and 89 hitches become 50 and 29.
        let steady = try meterSession("display buffers 3\nfps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        #expect(try steady.value("fps.render") == "50")
        #expect(try steady.value("fps.hitches") == "29")
        // The buffer count is the display's: `reset` keeps it, as it keeps the rate.
        let again = try meterSession("display buffers 3\nreset\nfps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        #expect(try again.value("fps.render") == "50")
    }

    /// R-D: frame 31 is late only because frame 30 was: stuffed, no hitch of its own.
    @Test func workedExampleRD() throws {
        let s = try meterSession(
            "fps start\nload gpu 10ms\nanimate 510ms\nafter 500ms load gpu 25ms\nafter 510ms load gpu 10ms\nrun 1s")
        #expect(try s.value("fps.hitches") == "1")
        let frame = try #require(try s.meter.frames.elements.first { $0.frame == 31 })
        #expect(frame.present == SimTime(nanoseconds: 550 * ms))
        #expect(frame.expected == SimTime(nanoseconds: 533_333_333))
        #expect(frame.hitch == 0)
        #expect(frame.verdict == .stuffed)
        #expect(FPSMeter.verdictText(frame) == "stuffed")
        let table = s.output("fps frames --last 2")
        #expect(table.contains("   31     500.000       533.333     543.333  550.000   533.333   0.000  stuffed"))
    }

    /// The engine's and the meter's counts agree: every counted hitch is in the log, with a type
    /// whose side matches R4's cause.
    @Test func typesAgreeWithCauses() throws {
        let s = try meterSession(
            "fps start\nanimate 3s\nevery 170ms stall 23ms\nafter 1s load gpu 19ms\nafter 2s load offscreen 3 2ms\nrun 3s"
        )
        let meter = try s.meter
        #expect(Int64(meter.hitchLog.count) == meter.hitches.count)
        #expect(meter.hitches.count > 10)
        for h in meter.hitchLog.elements {
            switch h.cause {
            case .commit, .both: #expect(h.type.isCommitSide, "frame \(h.frame): \(h.type.description)")
            case .render: #expect(!h.type.isCommitSide, "frame \(h.frame): \(h.type.description)")
            }
        }
        let hitchFrames = Set(meter.frames.elements.filter { $0.hitch > 0 }.map(\.frame))
        #expect(hitchFrames == Set(meter.hitchLog.elements.map(\.frame)))
    }

    /// `fps hitches` filters by type and severity; `break on fps.hitch type=…` stops at the first
    /// hitch of that type only.
    @Test func hitchesCommandAndBreakpoints() throws {
        let s = try meterSession(
            "fps start\nanimate 2s\nrun 300ms\nstall 50ms\nafter 1s load gpu 20ms\nrun 1700ms")
        let all = s.output("fps hitches --last 100")
        #expect(all.contains("Pre-Commit(s) latency"))
        #expect(all.contains("Potentially expensive GPU work"))
        let gpu = s.output("fps hitches --type gpu --last 100")
        #expect(!gpu.contains("Pre-Commit"))
        let high = s.output("fps hitches --severity high")
        #expect(high.contains("Pre-Commit(s) latency") && !high.contains("GPU work"))
        let kept = try s.meter.hitchLog.count
        #expect(s.output("fps hitches --type offscreen") == "no hitch of that kind among the \(kept) kept\n")

        let b = try meterSession(
            "fps start\nanimate 2s\nstall 50ms\nafter 1s load gpu 20ms\nbreak on fps.hitch type=gpu")
        let stop = b.output("run 2s")
        #expect(stop.contains("by breakpoint 1, on fps.hitch 'type=gpu'"))
        #expect(b.engine.now > SimTime(nanoseconds: 1000 * ms))
        #expect(try b.meter.hitchLog.elements.map(\.type).contains(.preCommitLatency))
    }

    /// Frame times never span time without animation: after an idle second the next frame's time
    /// is its own (a refresh interval), so fps.frame_max is not the idle gap.
    @Test func frameTimesNeverSpanIdleTime() throws {
        let s = try meterSession("fps start\nanimate 100ms\nrun 1s\nanimate 100ms\nrun 500ms")
        #expect(try s.value("fps.frame_max") == "16.666667ms")
        #expect(try s.value("fps.frame_p99") == "16.666667ms")
        // One long frame inside an animation still counts whole.
        let t = try meterSession("fps start\nanimate 1s\nrun 300ms\nstall 50ms\nrun 700ms")
        #expect(try t.value("fps.frame_max") == "66.666667ms")
    }

    /// R8.4: on an adaptive display, a frame committed and rendered in time is shown after its
    /// expected present when the refresh after its render comes later than the rate in force at
    /// its tick foresaw (V5): a 24 Hz meter, a 120 Hz link from 307 ms to 334 ms and a plain
    /// animation over it; its frame asks 60 Hz, and the display falls to 60 Hz under it. (A
    /// scroll's frames ask the scroll's 120 Hz, V17: the link stands in for the scroll this test
    /// used before.)
    @Test func aDelayedSwapOnAnAdaptiveDisplay() throws {
        let s = try meterSession(
            "display adaptive\nset app.high_frame_rates on\nfps start --range 24,120,0\nafter 307ms animate 31ms\n"
                + "after 307ms timer displaylink f --fps 120\nafter 334ms timer invalidate f\nrun 1s",
            tools: BuiltInTools.all)
        let h = try #require(try s.meter.hitchLog.elements.first)
        #expect(try s.meter.hitchLog.count == 1)
        #expect(h.type == .delayedSwap)
        #expect(h.type.description == "Commit to Render latency - Delay Frame Swap")
        #expect(h.frame == 1 && h.earliest == SimTime(nanoseconds: 333_333_333))
        #expect(h.expected == SimTime(nanoseconds: 350 * ms) && h.present == SimTime(nanoseconds: 358_333_333))
        #expect(h.delay == nil)
    }
}
