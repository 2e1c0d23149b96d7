import BuiltInTools
import DebugShellCore
import DebugShellTesting
import Foundation
import Testing

@testable import DebugShell

/// The adaptive display (ProMotion, V1–V6): each worked example of docs/Semantics.md's V group
/// (V7 … V11) with its exact answers, and the rules they rest on.
@Suite struct PromotionTests {
    func expectTranscript(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: BuiltInTools.all)
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// V7: the classic FPS label requests the system default, so it holds an idle ProMotion
    /// iPhone at 60 Hz by its own presence, and reads 60; the display shows one frame a second
    /// (the label's own text, F3).
    @Test func theClassicLabelHoldsAnIdleDisplayAt60() throws {
        try expectTranscript(
            """
            > display adaptive
            > fps start
            > run 3s
            > get fps.value clock.rate fps.render
            fps.value = 60
            clock.rate = 60
            fps.render = 1
            > fps stop
            > run 100ms
            > display
            adaptive 10–120 Hz, now 10 Hz
            """)
    }

    /// V7: a monitor written for ProMotion (a range down to 10 Hz, no preference) follows the
    /// display: 10 Hz, and it reads 10. Its label's own frame asks what the meter's link asks
    /// (V5: 10 Hz), so the label on changes nothing: 10 still, as a device reads.
    @Test func aProMotionAwareMonitorFollowsTheDisplayDown() throws {
        try expectTranscript(
            """
            > display adaptive
            > fps start --range 10,120 --label off
            > run 3s
            > get fps.value clock.rate clock.refreshes
            fps.value = 10
            clock.rate = 10
            clock.refreshes = 30
            > fps stop
            > fps start --range 10,120
            > run 3s
            > get fps.value clock.rate clock.refreshes
            fps.value = 10
            clock.rate = 10
            clock.refreshes = 60
            """)
    }

    /// V8: a game link asking 80–120 (preferred 120) is held at 60 Hz without
    /// CADisableMinimumFrameDurationOnPhone, and gets 120 with it (V2, V3, V4).
    @Test func aGameLinkNeedsHighFrameRates() throws {
        try expectTranscript(
            """
            > display adaptive
            > timer displaylink game --range 80,120,120
            > run 1s
            > get clock.rate timer.game.fires
            clock.rate = 60
            timer.game.fires = 60
            > set app.high_frame_rates on
            > run 1s
            > get clock.rate timer.game.fires
            clock.rate = 120
            timer.game.fires = 180
            > timer invalidate game
            > run 100ms
            > get clock.rate
            clock.rate = 10
            """)
    }

    /// V9: a scroll is the system's own request, the display's maximum: 120 Hz without the
    /// key; and an app link without a range keeps its 60 Hz cadence meanwhile (V4). The scroll's
    /// last frame keeps 120 Hz until it is shown at 1008.333 ms (V17), where the 60 Hz stretch
    /// starts the link's cadence again: 67 firings (66 when that frame asked 60).
    @Test func aScrollRunsAt120WithoutTheKey() throws {
        try expectTranscript(
            """
            > display adaptive
            > timer displaylink app
            > scroll 1s
            > run 500ms
            > get clock.rate
            clock.rate = 120
            > run 600ms
            > get clock.rate timer.app.fires
            clock.rate = 60
            timer.app.fires = 67
            """)
    }

    /// V10: Low Power Mode caps every request at 60 Hz, the scroll's and the key's included.
    @Test func lowPowerModeCapsAt60() throws {
        try expectTranscript(
            """
            > display adaptive
            > set system.low_power on
            > set app.high_frame_rates on
            > timer displaylink game --range 100,120,120
            > scroll 1s
            > run 500ms
            > get clock.rate timer.game.fires
            clock.rate = 60
            timer.game.fires = 30
            """)
    }

    /// V11: 10 ms animation ticks fit 60 Hz; a scroll raises the display to 120 Hz, where they
    /// miss their 8.333 ms and hitch (commit hitches); back at 60 Hz they fit again, except the
    /// one frame that straddles the drop: its tick was at 120 Hz, so it was expected at 120 Hz
    /// (V5); a scroll's frame, it keeps the display at 120 Hz until shown (V17), 8.333 ms late
    /// (16.667 at 60 Hz when it asked 60).
    @Test func aRateChangeMidAnimation() throws {
        try expectTranscript(
            """
            > display adaptive
            > fps start --label off
            > load frame 10ms
            > animate 3s
            > run 1s
            > get fps.hitches clock.rate
            fps.hitches = 0
            clock.rate = 60
            > scroll 1s
            > run 1s
            > get fps.hitches clock.rate
            fps.hitches = 20
            clock.rate = 120
            > run 1s
            > get fps.hitches clock.rate
            fps.hitches = 21
            clock.rate = 60
            > fps frames --hitches --last 1
            the last 1 of 21 hitches; times in ms, hitch - = not animating (A2)
            frame  commit end  render start  render end   present  expected  hitch  verdict
              161    2010.000      2016.667    2016.667  2025.000  2008.333  8.333  commit
            """)
    }

    /// V5: content on an idle 10 Hz display waits for the next refresh, which raises the rate;
    /// it is rendered there and shown one 60 Hz refresh later — no hitch.
    @Test func contentOnAnIdleDisplay() throws {
        try expectTranscript(
            """
            > display adaptive
            > run 1s
            > fps start --range 10,120 --label off
            > stall 1ms --ui
            > run 300ms
            > fps frames
            1 present; times in ms, hitch - = not animating (A2)
            frame  commit end  render start  render end   present  expected  hitch  verdict
                1    1001.000      1100.000    1100.000  1116.667  1200.000      -  -
            > get clock.rate
            clock.rate = 10
            """)
    }

    /// V1: a rate that is not whole hertz (120/7) prints exactly, and its refreshes stay on the
    /// 120 Hz grid: 18 refreshes and 120 vsyncs in a second.
    @Test func aRateThatIsNotWholeHertz() throws {
        try expectTranscript(
            """
            > display adaptive --min 17Hz
            > run 1s
            > display
            adaptive 17–120 Hz, now 17.143 Hz
            > get clock.rate clock.refreshes clock.vsyncs
            clock.rate = 17
            clock.refreshes = 18
            clock.vsyncs = 120
            > display rate 60Hz
            > display
            adaptive 17–120 Hz, now 17.143 Hz (60 Hz from 1.05s)
            """)
    }

    /// Bad input is an error with its line, never a trap.
    @Test func badRangesAreErrors() throws {
        let r = try Transcript.run(
            """
            display adaptive --min 130Hz
            display adaptive --max 1001Hz
            animate 1s --range 120,80
            animate 1s --range 80,120,30
            animate 1s --range fast
            timer displaylink g --range 0,120
            fps start --range 10,120,121
            """, tools: BuiltInTools.all, options: SessionOptions(keepGoing: true))
        #expect(
            r.stderr == """
                test.dsh:1: error: display adaptive: --min 130 Hz is above --max 120 Hz
                test.dsh:2: error: --max: rate '1001Hz' is outside 1…1000 Hz
                test.dsh:3: error: frame rate range: minimum 120 Hz is above maximum 80 Hz
                test.dsh:4: error: frame rate range: preferred 30 Hz is outside 80…120 Hz (0: no preference)
                test.dsh:5: error: 'fast' is not a frame rate range: expected min,max[,preferred] in Hz, e.g. 80,120,120
                test.dsh:6: error: frame rate range: minimum 0 Hz is outside 1…1000 Hz
                test.dsh:7: error: frame rate range: preferred 121 Hz is outside 10…120 Hz (0: no preference)

                """)
    }

    /// V4, V6: `timer show` says what a link asks for and the rate it fires at now.
    @Test func timerShowSaysALinksEffectiveRate() throws {
        let r = try Transcript.run(
            """
            display adaptive
            timer displaylink game --range 80,120,120
            timer displaylink half --fps 30
            run 100ms
            timer show game
            set app.high_frame_rates on
            run 100ms
            timer show game
            timer show half
            """, tools: BuiltInTools.all)
        let heads = r.stdout.split(separator: "\n").filter { $0.hasPrefix("game:") || $0.hasPrefix("half:") }
        #expect(
            heads == [
                "game: displaylink, range 80,120,120, effective 60 Hz (16.666666ms), common mode — scheduled",
                "game: displaylink, range 80,120,120, effective 120 Hz (8.333333ms), common mode — scheduled",
                "half: displaylink, preferred 30 fps, effective 30 Hz (33.333333ms), common mode — scheduled",
            ])
    }

    /// V6: `clock` on an adaptive display adds its refreshes, and its values stay one column; a
    /// fixed display's `clock` is as it always was.
    @Test func clockShowsRefreshesInOneColumn() throws {
        try expectTranscript(
            """
            > display adaptive
            > run 100ms
            > clock
            now       100ms
            vsyncs    12
            refreshes 1
            rate      adaptive 10–120 Hz, now 10 Hz
            mode      default
            main      idle
            > display rate 60Hz
            > clock
            now     100ms
            vsyncs  12
            rate    60 Hz
            mode    default
            main    idle
            """)
    }

    /// V6: `fps compare` puts Sentry's rule beside the truth on an adaptive display — a frame is
    /// slow against its own expected duration (targetTimestamp − timestamp), so the same 10 ms
    /// stalls make 9 slow frames at 120 Hz (8.333 ms frames) and none at 60 Hz, as the truth's
    /// missed refreshes say. An estimator with a fixed 60 Hz budget would see none in both.
    @Test func sentryJudgesEachFrameByTheRateItRanAt() throws {
        func sentry(highFrameRates: String) throws -> (row: String, rate: String) {
            let r = try Transcript.run(
                """
                display adaptive
                set app.high_frame_rates \(highFrameRates)
                fps start --range 80,120,120
                animate 1s --range 80,120,120
                every 100ms stall 10ms
                run 1s
                fps compare
                get clock.rate
                """, tools: BuiltInTools.all)
            let lines = r.stdout.split(separator: "\n").map(String.init)
            return (
                lines.first { $0.hasPrefix("Sentry") }?.split(separator: " ", omittingEmptySubsequences: true)
                    .joined(separator: " ") ?? r.stdout,
                lines.first { $0.hasPrefix("clock.rate") } ?? r.stdout
            )
        }
        let fast = try sentry(highFrameRates: "on")
        #expect(fast.rate == "clock.rate = 120")
        #expect(fast.row == "Sentry delay 75ms · slow 9 · frozen 0 75ms missed (9) -9ns", "\(fast)")
        let capped = try sentry(highFrameRates: "off")
        #expect(capped.rate == "clock.rate = 60")
        #expect(capped.row == "Sentry delay 0s · slow 0 · frozen 0 0s missed (0) 0s", "\(capped)")
    }

    /// V6: a trace has a display-rate counter, written at the refresh each rate took effect at:
    /// 60 Hz held by the label, 120 for the scroll (until its last frame is shown, V17), 60
    /// again, 10 once nothing requests.
    @Test func aTraceHasADisplayRateCounter() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: sink)
        let script =
            "trace start\ndisplay adaptive\nfps start\nrun 500ms\nscroll 200ms\nrun 500ms\nfps stop\nrun 200ms\n"
        #expect(session.runScript(script, origin: ScriptOrigin(name: "t")) == .finished, "\(sink.standardError)")
        let trace = try PerfettoImport(Data(try #require(session.tracing.recorder).json(generator: "test")))
        let rates = trace.counters.filter { $0.track == "Display rate" }.map { "\($0.ts): \($0.value)" }
        #expect(rates == ["0: 60.0", "500000000: 120.0", "708333333: 60.0", "1008333333: 10.0"])
    }

    /// V6: `fps plot` draws the budget per rate segment, exact at a rate that is not whole hertz
    /// (120/7: 58.333 ms, not the 58.824 ms of a rounded 17 Hz).
    @Test func fpsPlotDrawsTheBudgetPerRateSegment() throws {
        let r = try Transcript.run(
            """
            display adaptive --min 17Hz
            fps start --range 17,120 --label off
            animate 1s
            run 2s
            fps plot
            """, tools: BuiltInTools.all)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "fps plot: 0s to 2s at 60 Hz, 17.143 Hz from 1.016666666s")
        #expect(lines.contains("╌ 1× budget 16.667ms at 60 Hz, 58.333ms at 17.143 Hz"))
        #expect(lines.contains("╌ 2× budget 33.333ms at 60 Hz, 116.667ms at 17.143 Hz"))
    }

    /// V6: the FPS meter's sparklines (`fps history`, the status line) are scaled to the display's
    /// highest rate, not the rate it runs at now: back at 10 Hz after a scroll, the window that
    /// read 60 is a middle bar and the idle windows low ones (scaled to 10 Hz every bar was full
    /// and the scale said `0–10 fps` beside a reading of 60).
    @Test func sparklinesScaleToTheDisplaysHighestRate() throws {
        try expectTranscript(
            """
            > display adaptive
            > fps start --range 10,120
            > run 2s
            > scroll 1s
            > run 2s
            > fps history
            ▂▂▅  windows 1–3, 0–120 fps
            window  from  to  callbacks  presents  fps
                 1    0s  1s         10         0   10
                 2    1s  2s         10         1   10
                 3    2s  3s         60       119   60
            > status
            fps 60 · render 3 · hitch 0 ms/s good · display 10 Hz (10–120 Hz) · ▂▂▅
            layout —
            timer —
            """)
    }

    /// V1: an adaptive display survives `reset` with its range, as a fixed display's rate does,
    /// and a recording starts from it.
    @Test func anAdaptiveDisplaySurvivesAReset() throws {
        try expectTranscript(
            """
            > display adaptive --min 24Hz
            > run 1s
            > reset
            > display
            adaptive 24–120 Hz, now 24 Hz
            """)
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(), sink: MemorySink())
        _ = session.runScript(
            "display adaptive --min 24Hz\nset app.high_frame_rates on\n", origin: ScriptOrigin(name: "t"))
        #expect(
            session.recorder.preamble() == ["display adaptive --min 24Hz --max 120Hz", "set app.high_frame_rates on"])
    }
}
