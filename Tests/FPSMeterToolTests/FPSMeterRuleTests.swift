import DebugShell
import DebugShellCore
import Testing

@testable import FPSMeterTool

/// The rules the meter implements, through the real `fps` commands: the worked examples DL-A and
/// R-A with their exact numbers, then F1–F3, R4, R5 and DL7 one by one.
@Suite struct FPSMeterRuleTests {
    // MARK: Worked examples

    /// DL-A (60 Hz; `fps start; stall 100ms; run 2s`): the stale callback at 100 ms (timestamp 0)
    /// starts F1's window; v7…v60 are 54 callbacks; v1…v6 were skipped (DL7).
    @Test func workedExampleDLA_DL7() throws {
        let s = try meterSession("fps start\nstall 100ms\nrun 2s")
        #expect(try s.value("fps.value") == "54")
        #expect(try s.value("fps.skipped") == "6")
        let window = try #require(try s.meter.windows.first)
        #expect(window.from == .zero)
        #expect(window.to == SimTime(nanoseconds: 1000 * ms))
        #expect(window.callbacks == 54)
        #expect(window.closedAt == SimTime(nanoseconds: 1000 * ms))
    }

    /// R-A (`fps start; animate 10s; load gpu 20ms; run 3s`): the label reads 60, the display
    /// shows 30 a second, every present is a 16.667 ms render hitch, and the hitch ratio is
    /// 89 × 16.667 ms / 3 s ≈ 494.444 ms/s.
    @Test func workedExampleRA() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 3s")
        #expect(try s.value("fps.value") == "60")
        #expect(try s.value("fps.render") == "30")
        #expect(try s.value("fps.hitches") == "89")
        #expect(try s.value("fps.hitch_ratio") == "494.444")
        #expect(try s.value("fps.tier") == "severe")
        let meter = try s.meter
        #expect(meter.hitches.render == 89 && meter.hitches.commit == 0 && meter.hitches.both == 0)
        let frames = meter.frames.elements
        #expect(frames.count == 89)
        #expect(frames.first?.present == SimTime(nanoseconds: 50 * ms))
        for frame in frames {
            // R4: each a render hitch of one period (the grid alternates 16,666,666 and 16,666,667).
            #expect(frame.hitch == 16_666_666 || frame.hitch == 16_666_667)
            #expect(frame.cause == .render)
        }
        // The sum over 89 hitches, exactly: 1483.333 ms over 3 s.
        #expect(meter.hitches.time / ms == 1483)
        #expect(try s.value("fps.hitch_time") == SimDuration(nanoseconds: meter.hitches.time).description)
        // Presents every other vsync: frame intervals are two periods.
        #expect(try s.value("fps.frame_p50") == "33.333333ms")
        #expect(try s.value("fps.frame_max") == "33.333334ms")
    }

    // MARK: F1 — the reading

    /// F1: the reading is at most R, not 60: 120 at 120 Hz.
    @Test func readingIsNotClampedTo60F1() throws {
        let s = try meterSession("display rate 120Hz\nfps start\nrun 1100ms")
        #expect(try s.value("fps.value") == "120")
    }

    /// F1: no reading before the first window closes, at the first callback a window after the
    /// first one (v60 at exactly 1 s, which `run 1s` does not reach).
    @Test func noReadingBeforeTheFirstWindowF1() throws {
        let s = try meterSession("fps start\nrun 1s")
        #expect(try s.value("fps.value") == "none")
        s.type("step")
        #expect(try s.value("fps.value") == "60")
    }

    /// F1: `round` is half away from zero, then clamped to R.
    @Test(arguments: [
        (Int64(121), Int64(2000), Int64(61)),  // 60.5 → 61
        (Int64(119), Int64(2000), Int64(60)),  // 59.5 → 60
        (Int64(54), Int64(1000), Int64(54)),
        (Int64(1), Int64(3_016), Int64(0)),  // the window that spans a scroll
    ])
    func roundingHalfAwayFromZeroF1(callbacks: Int64, spanMs: Int64, expected: Int64) {
        let closed = WindowCounter.Closed(from: .zero, to: SimTime(nanoseconds: spanMs * ms), callbacks: callbacks)
        #expect(closed.rate == expected)
    }

    /// F1: the first callback only records `last`; the window closes at the first callback with
    /// `ts − last ≥ window`, then starts again from it.
    @Test func windowCounterF1() {
        var counter = WindowCounter()
        let window = SimDuration.milliseconds(50)
        #expect(counter.feed(.zero, window: window) == nil)
        #expect(counter.feed(SimTime(nanoseconds: 20 * ms), window: window) == nil)
        #expect(counter.feed(SimTime(nanoseconds: 40 * ms), window: window) == nil)
        let closed = counter.feed(SimTime(nanoseconds: 60 * ms), window: window)
        #expect(closed?.callbacks == 3)
        #expect(closed?.from == .zero)
        #expect(counter.last == SimTime(nanoseconds: 60 * ms))
        #expect(counter.count == 0)
    }

    /// F1: `--window 500ms` closes windows twice a second.
    @Test func shorterWindowF1() throws {
        let s = try meterSession("fps start --window 500ms\nrun 2100ms")
        let meter = try s.meter
        #expect(meter.windows.count == 4)
        #expect(meter.windows.elements.map(\.callbacks) == [30, 30, 30, 30])
        #expect(try s.value("fps.value") == "60")
    }

    /// F1, DL1, DL7: in default mode the link is silent during a scroll; its one stale callback
    /// starts a window that spans the scroll and reads 0. In common mode it reads 60.
    @Test func defaultModeAcrossAScrollReadsZeroF1DL7() throws {
        let d = try meterSession("fps start --mode default\nrun 1s\nscroll 2s\nrun 2100ms")
        #expect(try d.value("fps.value") == "0")
        let spanning = try #require(try d.meter.windows.last)
        #expect(spanning.callbacks == 1)
        #expect(spanning.from == SimTime(nanoseconds: 1000 * ms))
        // The slot held v60 through the scroll: v61…v180 were skipped (DL7).
        #expect(try d.value("fps.skipped") == "120")

        let c = try meterSession("fps start --mode common\nrun 1s\nscroll 2s\nrun 2100ms")
        #expect(try c.value("fps.value") == "60")
        #expect(try c.value("fps.skipped") == "0")
    }

    // MARK: F2 — the link

    /// F2, DL8: the meter's link is added when `fps start` runs, after the app's UI link, in the
    /// mode asked for; `fps stop` removes it (DL6); `fps reset` keeps it.
    @Test func linkLifecycleF2() throws {
        let s = try meterSession("fps start --mode tracking --cost 1ms\nrun 100ms")
        func meterLinks() -> [TimerInfo] { s.engine.allTimers().filter { $0.owner == .tool("fps") } }
        let link = try #require(meterLinks().first)
        #expect(meterLinks().count == 1)
        #expect(link.id > TimerID(rawValue: 0))  // the UI link is #0
        #expect(link.mode == .tracking)
        #expect(link.cost == .milliseconds(1))
        s.type("fps reset")
        #expect(meterLinks().first?.state == .scheduled)
        #expect(meterLinks().first?.id == link.id)
        s.type("fps stop")
        #expect(meterLinks().first?.state == .invalidated)
        s.type("fps start")
        #expect(meterLinks().count == 2)
        #expect(meterLinks().last?.state == .scheduled)
    }

    /// DL5: the link's first slot is its first grid vsync at or after `fps start`, so the first
    /// window starts there: at v1 = 16.667 ms when started at 5 ms, at v0 when started at 0.
    @Test func firstSlotAtOrAfterTheStartDL5() throws {
        let s = try meterSession("run 5ms\nfps start\nrun 1100ms")
        #expect(try s.meter.windows.first?.from == SimTime(nanoseconds: 16_666_666))
        let t = try meterSession("fps start\nrun 1100ms")
        #expect(try t.meter.windows.first?.from == .zero)
    }

    /// F2: the callback's cost is the meter's own observer effect: at 20 ms a callback the main
    /// thread is always busy, 5 callbacks run every 6 vsyncs and the reading drops to 50.
    @Test func callbackCostF2() throws {
        let s = try meterSession("fps start --cost 20ms\nrun 2100ms")
        #expect(try s.value("fps.value") == "50")
        #expect(try s.value("fps.callbacks") == "50")
        #expect(try s.value("fps.skipped") == "20")
        #expect(try s.value("main.busy_ratio") == "1")
    }

    /// F2: `fps reset` clears the reading and statistics but not the link's pending slot, and
    /// counts skipped vsyncs from then.
    @Test func resetClearsStatisticsF2() throws {
        let s = try meterSession("fps start\nstall 100ms\nrun 1100ms\nfps reset")
        for name in ["fps.value", "fps.render", "fps.callbacks", "fps.hitch_ratio", "fps.frame_p50"] {
            #expect(try s.value(name) == "none", "\(name)")
        }
        #expect(try s.value("fps.skipped") == "0")
        #expect(try s.value("fps.hitches") == "0")
        #expect(try s.meter.windows.isEmpty)
        s.type("run 1100ms")
        #expect(try s.value("fps.value") == "60")
    }

    // MARK: F3 — the label

    /// F3: with the label on, each closed window dirties the UI: on a static screen one commit
    /// and one present per window. With it off, the screen stays still.
    @Test func labelDirtiesTheUIF3() throws {
        let on = try meterSession("fps start\nrun 3100ms")
        #expect(try on.value("fps.render") == "1")
        #expect(try on.value("render.presents") == "3")
        let off = try meterSession("fps start --label off\nrun 3100ms")
        #expect(try off.value("fps.render") == "0")
        #expect(try off.value("render.commits") == "0")
    }

    // MARK: R5 — render fps

    /// R5: presents in the last whole second that began at or after `fps start`; none before.
    @Test func renderCountsTheLastWholeSecondR5() throws {
        let s = try meterSession("run 500ms\nfps start\nanimate 5s\nrun 1400ms")
        // Now 1.9 s: [1 s, 2 s) has not passed, [0 s, 1 s) began before the start.
        #expect(try s.value("fps.render") == "none")
        #expect(try s.value("fps.callbacks") == "none")
        s.type("run 100ms")
        #expect(try s.value("fps.render") == "60")
        #expect(try s.value("fps.callbacks") == "60")
    }

    /// R5 after `fps reset`: the second must begin at or after the reset.
    @Test func renderAfterResetR5() throws {
        let s = try meterSession("fps start\nanimate 5s\nrun 1500ms\nfps reset\nrun 1s")
        #expect(try s.value("fps.render") == "none")
        s.type("run 500ms")
        #expect(try s.value("fps.render") == "60")
    }

    // MARK: R4 — hitches

    /// R4: a main-thread stall during an animation makes a commit hitch; the frame-time maximum
    /// is the interval across it.
    @Test func stallMakesACommitHitchR4() throws {
        let s = try meterSession("fps start\nanimate 1s\nrun 300ms\nstall 50ms\nrun 700ms")
        let meter = try s.meter
        #expect(meter.hitches.count == 1)
        #expect(meter.hitches.commit == 1)
        // The stall is drained before the links (RL4.1): tick v18 runs at 350 ms, so its frame,
        // expected at v20 = 333.333 ms, is presented at v23 = 383.333 ms.
        #expect(try s.value("fps.hitch_time") == "50ms")
        // The interval across it: v19 = 316.667 ms to v23 = 383.333 ms.
        #expect(try s.value("fps.frame_max") == "66.666667ms")
        #expect(try s.value("fps.frame_p50") == "16.666667ms")
    }

    /// R4: the hitch of the first counted present since `fps start` or `fps reset` is only
    /// `max(0, p − x)`; after it, the device's hitch against the previous counted present.
    @Test func firstPresentSinceStartUsesOnlyTheExpectedPresentR4() throws {
        let s = try meterSession("fps start")
        let meter = try s.meter
        func present(_ p: Int64, expected x: Int64, hitch: Int64) -> PresentInfo {
            PresentInfo(
                frame: p, commitStart: .zero, commitEnd: .zero, newestTick: .zero, renderStart: .zero,
                renderEnd: .zero, present: SimTime(nanoseconds: p * ms), expectedPresent: SimTime(nanoseconds: x * ms),
                counted: true, commitLate: false, renderLate: true, mergedFrames: 1,
                previousCountedPresent: SimTime(nanoseconds: 1), hitch: SimDuration(nanoseconds: hitch * ms))
        }
        // The device saw an earlier counted present and says 5 ms; since start, p − x = 20 ms.
        meter.device(s.engine, observed: .presented(present(100, expected: 80, hitch: 5)))
        #expect(meter.hitches.time == 20 * ms)
        // The next one takes the device's R4 hitch as it is.
        meter.device(s.engine, observed: .presented(present(150, expected: 110, hitch: 7)))
        #expect(meter.hitches.time == 27 * ms)
        #expect(meter.hitches.count == 2)
        s.type("fps reset")
        meter.device(s.engine, observed: .presented(present(200, expected: 190, hitch: 3)))
        #expect(meter.hitches.time == 10 * ms)
    }

    /// R4: the cause is commit, render or both from the frame's flags; a frame that hitched with
    /// neither waited for the render server, a render hitch.
    @Test(arguments: [
        (true, false, HitchCause.commit), (false, true, .render), (true, true, .both), (false, false, .render),
    ])
    func hitchCausesR4(commitLate: Bool, renderLate: Bool, cause: HitchCause) {
        let info = PresentInfo(
            frame: 1, commitStart: .zero, commitEnd: .zero, newestTick: nil, renderStart: .zero, renderEnd: .zero,
            present: .zero, expectedPresent: .zero, counted: true, commitLate: commitLate, renderLate: renderLate,
            mergedFrames: 1, previousCountedPresent: nil, hitch: .zero)
        #expect(HitchCause(info) == cause)
    }

    /// R4, A2: presents of frames committed outside animating time are not counted: the label's
    /// frames on a static screen make no hitch and no frame interval.
    @Test func staticScreenHasNoHitchMetricsA2() throws {
        let s = try meterSession("fps start\nstall 300ms\nrun 3s")
        #expect(try s.value("fps.hitches") == "0")
        #expect(try s.value("fps.hitch_ratio") == "none")
        #expect(try s.value("fps.tier") == "none")
        #expect(try s.value("fps.frame_max") == "none")
    }

    /// R4: the ratio is hitch ms over animating seconds since start or reset.
    @Test func hitchRatioAfterResetR4() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 1s\nfps reset\nrun 2s")
        let meter = try s.meter
        #expect(meter.animatingTime == .seconds(2))
        // 60 presents in 2 s, each one period late: 60 × 16.667 ms / 2 s = 500 ms/s.
        #expect(meter.hitches.count == 60)
        #expect(try s.value("fps.hitch_ratio") == "500")
    }

    /// After `fps stop` the metrics stay as they were when it stopped.
    @Test func metricsFreezeAtStop() throws {
        let s = try meterSession("fps start\nanimate 10s\nload gpu 20ms\nrun 2s\nfps stop\nrun 3s")
        #expect(try s.value("fps.value") == "60")
        #expect(try s.value("fps.render") == "30")
        #expect(try s.value("fps.hitch_ratio") == "491.667")
        #expect(try s.meter.statusLine() == nil)
    }

    /// Before `fps start` every metric has no value; after it the counts start at 0.
    @Test func metricsBeforeAndAfterStart() throws {
        let s = try meterSession("")
        for spec in FPSMeter.descriptor.metrics {
            #expect(try s.value(spec.name) == "none", "\(spec.name)")
        }
        s.type("fps start")
        let expected = [
            "fps.value": "none", "fps.render": "none", "fps.callbacks": "none", "fps.skipped": "0", "fps.hitches": "0",
            "fps.hitch_time": "0s", "fps.hitch_ratio": "none", "fps.tier": "none", "fps.frame_p50": "none",
            "fps.frame_p95": "none", "fps.frame_p99": "none", "fps.frame_max": "none",
        ]
        for (name, value) in expected { #expect(try s.value(name) == value, "\(name)") }
        #expect(try s.meter.metric("fps.nope") == nil)
    }
}
