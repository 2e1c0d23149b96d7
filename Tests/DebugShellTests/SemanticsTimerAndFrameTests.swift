import DebugShellCore
import DebugShellTesting
import Testing
@testable import DebugShell
@testable import DebugShellEngine
@testable import DebugShellInterpreter

// The worked rules of docs/Semantics.md, continued from SemanticsTests.swift (its helpers:
// `traced`, `link`, `nstimer`, `gcd`, `at`): run-loop and dispatch timers, the app, commits and
// the render server, lateness causes, and `step`.

// MARK: - T: run-loop timers

@Suite struct RunLoopTimerTests {
    @Test func t1_t2_firstFireIsNowPlusIntervalAndNeverEarly() {
        let (e, trace) = traced([.timerFired])
        _ = e.advance(to: at(7))
        let t = nstimer(e, .milliseconds(50))
        _ = e.advance(to: at(200))
        #expect(trace.starts(t) == [57, 107, 157])
        #expect(trace.firings.allSatisfy { $0.lateness == .zero })
    }

    @Test func t3_aWakeUpFiresEveryDueTimerInFireDateOrder() {
        let (e, trace) = traced([.timerFired])
        e.stall(.milliseconds(40), dirtiesUI: false)
        let late = nstimer(e, .milliseconds(30), repeats: false, cost: .milliseconds(5), label: "b")
        let early = nstimer(e, .milliseconds(20), repeats: false, cost: .milliseconds(5), label: "a")
        let tie = nstimer(e, .milliseconds(30), repeats: false, label: "c")
        let during = nstimer(e, .milliseconds(42), repeats: false, label: "d")
        _ = e.advance(to: at(100))
        // Due at 40: a (20), b (30), c (30, created after b). d becomes due during the batch.
        #expect(trace.firings.map(\.id) == [early, late, tie, during])
        #expect(trace.firings.map { $0.start.nanoseconds / msec } == [40, 45, 50, 50])
    }

    @Test func t4_aLateRepeatingTimerFiresOnceAndSkipsTheGridPointsPassed() {
        let (e, trace) = traced([.timerFired])
        let t = nstimer(e, .milliseconds(50), cost: .milliseconds(120))
        _ = e.advance(to: at(500))
        // Fires at 50 (returns 170: next is 200, points 100 and 150 skipped), 200 (returns 320:
        // next 350, 250 and 300 skipped).
        #expect(trace.starts(t) == [50, 200, 350])
        #expect(trace.firings.map(\.skipped) == [2, 2, 2])
        #expect(e.timerInfo(t)?.skipped == 6)
    }

    @Test func t5_toleranceMovesNothingWithoutCoalescing() {
        let (e, trace) = traced([.timerFired])
        let t = nstimer(e, .milliseconds(50), tolerance: .milliseconds(10))
        _ = e.advance(to: at(120))
        #expect(trace.starts(t) == [50, 100])
    }

    @Test func t5_coalescingWakesAtTheSmallestFireDatePlusTolerance() {
        let (e, trace) = traced([.timerFired])
        e.coalescing = true
        let a = nstimer(e, .milliseconds(50), tolerance: .milliseconds(10), label: "a")
        let b = nstimer(e, .milliseconds(55), tolerance: .milliseconds(20), label: "b")
        _ = e.advance(to: at(70))
        // Wake-up at min(50+10, 55+20) = 60 fires both (both due by then).
        #expect(trace.firings.map(\.id) == [a, b])
        #expect(trace.firings.map(\.start) == [at(60), at(60)])
        #expect(trace.firings.map(\.cause) == [.coalesced, .coalesced])
        #expect(e.timerWakeups(appOnly: true) == 1)
        // The grid never drifts: the next fire dates are 100 and 110.
        #expect(e.timerInfo(a)?.nextFire == at(100))
        #expect(e.timerInfo(b)?.nextFire == at(110))
    }

    @Test func t5_toleranceIsClampedToHalfTheIntervalForRepeatingTimers() {
        let e = DeviceEngine()
        let t = nstimer(e, .milliseconds(50), tolerance: .milliseconds(40))
        #expect(e.timerInfo(t)?.slack == .milliseconds(25))
        let once = nstimer(e, .milliseconds(50), repeats: false, tolerance: .milliseconds(40))
        #expect(e.timerInfo(once)?.slack == .milliseconds(40))
    }

    @Test func t6_aNonRepeatingTimerIsDoneAfterItFires() {
        let (e, trace) = traced([.timerFired])
        let t = nstimer(e, .milliseconds(10), repeats: false)
        _ = e.advance(to: at(100))
        #expect(trace.starts(t) == [10])
        #expect(e.timerInfo(t)?.state == .done)
    }

    @Test func t7_aDefaultModeTimerFiresOnceWhenTrackingEndsAndResumesItsGrid() {
        let (e, trace) = traced([.timerFired])
        let t = nstimer(e, .milliseconds(100), mode: .default)
        e.scroll(for: .milliseconds(350))
        _ = e.advance(to: at(500))
        #expect(trace.starts(t) == [350, 400])
        let first = trace.firings.first { $0.id == t }
        #expect(first?.cause == .mode && first?.skipped == 2)
    }

    @Test func t8_pauseAndResumeSkipThePointsPassed() {
        let (e, trace) = traced([.timerFired])
        let t = nstimer(e, .milliseconds(50))
        _ = e.advance(to: at(60))
        e.pause(t)
        _ = e.advance(to: at(170))
        e.resume(t)
        _ = e.advance(to: at(260))
        #expect(trace.starts(t) == [50, 200, 250])
        #expect(e.timerInfo(t)?.skipped == 2)  // 100 and 150
    }
}

// MARK: - D: dispatch timers

@Suite struct DispatchTimerTests {
    @Test func d1_theFirstTargetIsNowPlusStartThenAFixedGrid() {
        let (e, trace) = traced([.timerFired])
        let g = gcd(e, .milliseconds(30), start: .milliseconds(5), queue: .background)
        _ = e.advance(to: at(100))
        #expect(trace.starts(g) == [5, 35, 65, 95])
    }

    @Test func d2_leewayIsClampedAndCoalescesPerQueueKind() {
        let (e, trace) = traced([.timerFired])
        e.coalescing = true
        let a = gcd(e, .milliseconds(40), leeway: .milliseconds(30), queue: .background)
        let b = gcd(e, .milliseconds(45), leeway: .milliseconds(5), queue: .background)
        #expect(e.timerInfo(a)?.slack == .milliseconds(20))
        _ = e.advance(to: at(55))
        // Deadlines 40+20 = 60 and 45+5 = 50: the wake-up at 50 fires both.
        #expect(trace.firings.map(\.start) == [at(50), at(50)])
        #expect(trace.firings.map(\.id) == [a, b])
    }

    @Test func d3_d4_aBusyHandlerAccumulatesData() {
        let (e, trace) = traced([.timerFired])
        let g = gcd(e, .milliseconds(10), queue: .background, cost: .milliseconds(25))
        _ = e.advance(to: at(80))
        // Runs at 10 (to 35): targets 20, 30 wait; runs again at 35 with data 2 (to 60): 40, 50
        // wait; at 60 with data 3 (60 itself counts).
        #expect(trace.starts(g) == [10, 35, 60])
        #expect(trace.firings.map(\.data) == [1, 2, 3])
        #expect(trace.firings.map(\.lateness) == [.zero, .milliseconds(15), .milliseconds(20)])
    }

    @Test func d4_pauseThenResumeDeliversInOneInvocation() {
        let (e, trace) = traced([.timerFired])
        let g = gcd(e, .milliseconds(10), queue: .background)
        _ = e.advance(to: at(15))
        e.pause(g)
        _ = e.advance(to: at(47))
        e.resume(g)
        _ = e.advance(to: at(55))
        #expect(trace.starts(g) == [10, 47, 50])
        #expect(trace.firings.map(\.data) == [1, 3, 1])
        #expect(trace.firings[1].cause == .paused && trace.firings[1].lateness == .milliseconds(27))
    }

    @Test func d5_backgroundIgnoresTheMainThreadAndMainIsEnqueuedOnce() {
        let (e, trace) = traced([.timerFired])
        e.stall(.milliseconds(100), dirtiesUI: false)
        let bg = gcd(e, .milliseconds(30), queue: .background)
        let main = gcd(e, .milliseconds(30), queue: .main)
        _ = e.advance(to: at(130))
        #expect(trace.starts(bg) == [30, 60, 90, 120])
        #expect(trace.starts(main) == [100, 120])
        #expect(trace.firings.filter { $0.id == main }.map(\.data) == [3, 1])
    }

    @Test func d6_aOneShotMainQueueTimerIsDoneAfterItsHandler() {
        let (e, trace) = traced([.timerFired])
        let g = gcd(e, .milliseconds(70), start: .milliseconds(70), leeway: .milliseconds(7), queue: .main, once: true)
        _ = e.advance(to: at(300))
        #expect(trace.starts(g) == [70])
        #expect(e.timerInfo(g)?.state == .done)
    }
}

// MARK: - A and R: the app, commits, the render server, hitches

@Suite struct RenderTests {
    @Test func a1_ticksAtEveryVsyncOfTheAnimationAndAStaleTickDoesNothing() {
        let (e, trace) = traced([.animationTick, .mainItem])
        _ = e.advance(to: at(10))
        e.animate(for: .milliseconds(50))
        e.schedule(at: at(40)) { e.stall(.milliseconds(25), dirtiesUI: false) }
        _ = e.advance(to: at(200))
        // Ticks at v1, v2 (16.7, 33.3); v3 = 50 fills the slot while the stall runs (40–65), but
        // the animation ended at 60: the stale tick at 65 does nothing.
        #expect(trace.ticks.map(\.timestamp.nanoseconds) == [16_666_666, 33_333_333])
        #expect(!trace.items.contains { $0.kind == .displayLink && $0.start == at(65) })
    }

    @Test func a1_scrollIsTrackingPlusAnAnimation() throws {
        try expectTranscript(
            """
            > scroll 100ms
            > run 50ms
            > get clock.mode
            clock.mode = tracking
            > run 100ms
            > get clock.mode
            clock.mode = default
            > get render.commits
            render.commits = 6
            """)
    }

    @Test func a2_r4_onlyFramesCommittedDuringAnimatingTimeCount() {
        let (e, trace) = traced([.present])
        e.animate(for: .milliseconds(30))
        e.schedule(at: at(200)) { e.stall(.milliseconds(1), dirtiesUI: true) }
        _ = e.advance(to: at(300))
        #expect(trace.presents.map(\.counted) == [true, true, false])
    }

    @Test func r1_r2_renderAfterTheCommitPresentAtTheVsyncAfterTheRender() {
        let (e, trace) = traced([.present, .render])
        e.commitCost = .milliseconds(5)
        e.gpuCost = .milliseconds(10)
        e.stall(.milliseconds(1), dirtiesUI: true)
        _ = e.advance(to: at(100))
        // Commit 1–6; render starts at v1 (16.7) ends 26.7; present at v2 (33.3).
        #expect(trace.renders.map { [$0.start.nanoseconds, $0.end.nanoseconds] } == [[16_666_666, 26_666_666]])
        #expect(trace.presents.map(\.present.nanoseconds) == [33_333_333])
        // No animation tick: expected = the vsync after the vsync after the commit end (R3).
        #expect(trace.presents.first?.expectedPresent.nanoseconds == 33_333_333)
        #expect(trace.presents.first?.hitch == .zero)
    }

    @Test func r2_presentAtOrAfterTheRenderEndAndStrictlyAfterItsStart() {
        // A render ending exactly on a vsync is presented at that vsync (at or after e)...
        let (e, trace) = traced([.present, .render])
        e.gpuCost = .nanoseconds(16_666_667)
        e.stall(.milliseconds(1), dirtiesUI: true)
        _ = e.advance(to: at(100))
        #expect(trace.renders.map(\.end.nanoseconds) == [33_333_333])
        #expect(trace.presents.map(\.present.nanoseconds) == [33_333_333])
        // ...and a zero-cost render (e == s) at the next one, never at its own start.
        let (z, zeroTrace) = traced([.present, .render])
        z.gpuCost = .zero
        z.stall(.milliseconds(1), dirtiesUI: true)
        _ = z.advance(to: at(100))
        #expect(zeroTrace.renders.map { [$0.start.nanoseconds, $0.end.nanoseconds] } == [[16_666_666, 16_666_666]])
        #expect(zeroTrace.presents.map(\.present.nanoseconds) == [33_333_333])
    }

    @Test func r2_atMostOnePresentPerVsync() {
        let (e, trace) = traced([.present])
        e.gpuCost = .zero
        e.commitCost = .zero
        e.animate(for: .milliseconds(500))
        for t in stride(from: 0 as Int64, to: 500, by: 3) { e.schedule(at: at(t)) { e.stall(.zero, dirtiesUI: true) } }
        _ = e.advance(to: at(600))
        let times = trace.presents.map(\.present)
        #expect(times.count > 20)
        #expect(Set(times).count == times.count)
    }

    @Test func r1_waitingFramesMergeIntoTheNewest() {
        let (e, trace) = traced([.present, .render])
        e.gpuCost = .milliseconds(40)
        for t in [0, 20, 25, 45] as [Int64] { e.schedule(at: at(t)) { e.stall(.zero, dirtiesUI: true) } }
        _ = e.advance(to: at(200))
        // Frame 1 renders 16.7–56.7; frames 2, 3, 4 wait and merge; the newest (4) renders at 66.7.
        #expect(trace.renders.map(\.frame) == [1, 4])
        #expect(trace.presents.map(\.mergedFrames) == [1, 3])
    }

    @Test func r3_r4_aCommitHitch() {
        let (e, trace) = traced([.present])
        e.animate(for: .milliseconds(40))
        e.commitCost = .milliseconds(20)
        _ = e.advance(to: at(200))
        // Tick at 0, commit 0–20 ends after v1 (16.7): it missed its render vsync.
        let first = trace.presents[0]
        #expect(first.newestTick == .zero && first.commitLate && !first.renderLate)
        #expect(first.expectedPresent.nanoseconds == 33_333_333)
        #expect(first.present.nanoseconds == 50_000_000)
        #expect(first.hitch.nanoseconds == 16_666_667)
    }

    @Test func r4_theHitchCountsFromTheVsyncAfterThePreviousPresent() {
        let (e, trace) = traced([.present])
        e.animate(for: .milliseconds(200))
        e.gpuCost = .milliseconds(20)
        _ = e.advance(to: at(150))
        // R-A: presents every other vsync, each late by one period against max(x, after(p−1)).
        #expect(trace.presents.map(\.present.nanoseconds).prefix(3) == [50_000_000, 83_333_333, 116_666_666])
        #expect(trace.presents.dropFirst().allSatisfy { $0.previousCountedPresent != nil })
        #expect(trace.presents.allSatisfy { $0.renderLate && ($0.hitch.nanoseconds - 16_666_666).magnitude <= 1 })
    }
}

// MARK: - K: lateness causes

@Suite struct LatenessCauseTests {
    @Test func k2_modeThenBusyThenCoalesced() {
        let (e, trace) = traced([.timerFired])
        e.scroll(for: .milliseconds(60))
        let mode = nstimer(e, .milliseconds(20), repeats: false, mode: .default, label: "mode")
        e.schedule(at: at(100)) {
            e.stall(.milliseconds(30), dirtiesUI: false)
            _ = nstimer(e, .milliseconds(10), repeats: false, label: "busy")
            e.coalescing = true
            _ = nstimer(e, .milliseconds(50), repeats: false, tolerance: .milliseconds(5), label: "coalesced")
        }
        _ = e.advance(to: at(300))
        let app = trace.firings.filter { e.timerInfo($0.id)?.owner == .app }
        #expect(app.map { e.timerInfo($0.id)?.label } == ["mode", "busy", "coalesced"])
        #expect(app.map(\.cause) == [.mode, .busy, .coalesced])
        #expect(app.map(\.lateness) == [.milliseconds(40), .milliseconds(20), .milliseconds(5)])
        _ = mode
    }
}

// MARK: - step (run through the n-th vsync after now; a vsync at now does not count)

@Suite struct StepTests {
    @Test func idleStepsMoveFromVsyncToVsync() throws {
        try expectTranscript(
            """
            > step
            > get clock.now
            clock.now = 16.666666ms
            > step
            > get clock.now
            clock.now = 33.333333ms
            > run 10ms
            > step 2
            > get clock.now
            clock.now = 66.666666ms
            > get clock.vsyncs
            clock.vsyncs = 5
            """)
    }

    @Test func stepsCrossARateChangeOnItsGrid() throws {
        // S2: the change takes effect at v1 = 16.666666 ms; then 120 Hz from there.
        try expectTranscript(
            """
            > run 5ms
            > display rate 120
            > step 3
            > get clock.now
            clock.now = 33.333332ms
            """)
    }

    /// S2: the rates in force over a span, each change at the vsync it took effect at; a change
    /// waiting for its vsync is not in force before it, and setting the rate in force is no change.
    @Test func theRatesInForceOverASpan() throws {
        let e = DeviceEngine()
        func rates(_ from: Int64, _ to: Int64) -> [String] {
            e.refreshRates(from: atNs(from), to: atNs(to)).map { "\($0.rate.hertz)@\($0.time.nanoseconds)" }
        }
        // 120 Hz asked at 5 ms takes effect at v1 = 16.666666 ms.
        _ = e.advance(to: at(5))
        e.setRefreshRate(try RefreshRate(hertz: 120))
        _ = e.advance(to: at(1000))
        // 120 Hz again is no change; 60 Hz at 1 s waits for the next 120 Hz vsync, 16.666666 ms +
        // floor(119 · 1e9 / 120) = 1.008333332 s (the one before is 999.999999 ms).
        e.setRefreshRate(try RefreshRate(hertz: 120))
        e.setRefreshRate(try RefreshRate(hertz: 60))
        #expect(rates(0, 2_000_000_000) == ["60@0", "120@16666666", "60@1008333332"])
        #expect(rates(0, 16_666_666) == ["60@0"])
        #expect(rates(0, 16_666_667) == ["60@0", "120@16666666"])
        #expect(rates(17_000_000, 999_000_000) == ["120@17000000"])
        // Pending at 1 s: 120 Hz is in force until its vsync.
        #expect(e.refreshRate.hertz == 120)
        #expect(rates(1_000_000_000, 1_008_333_332) == ["120@1000000000"])
        #expect(rates(1_008_333_332, 1_008_333_333) == ["60@1008333332"])
        // 30 Hz asked at 1.01 s: at the next 60 Hz vsync, 1.008333332 s + 16.666666 ms.
        _ = e.advance(to: atNs(1_010_000_000))
        e.setRefreshRate(try RefreshRate(hertz: 30))
        #expect(rates(1_000_000_000, 1_010_000_000) == ["120@1000000000", "60@1008333332"])
        #expect(rates(1_000_000_000, 1_030_000_000) == ["120@1000000000", "60@1008333332", "30@1024999998"])
    }

    /// S2, DL2: the frame period the device offers is the rate in force now, 1e9 / R rounded to
    /// the nearest nanosecond — what a display link's callback gets as its `duration` — and a
    /// change waiting for its vsync is not in force yet.
    @Test func theFramePeriodIsTheRateInForce() throws {
        let e = DeviceEngine()
        #expect(e.framePeriod == .nanoseconds(16_666_667))
        var durations: [SimDuration] = []
        _ = e.addDisplayLink(DisplayLinkConfig(owner: .app, label: "l")) { callback in
            durations.append(callback.duration)
            return .zero
        }
        _ = e.advance(to: at(5))
        e.setRefreshRate(try RefreshRate(hertz: 120))
        // Pending until v1 = 16.666666 ms.
        #expect(e.framePeriod == .nanoseconds(16_666_667))
        _ = e.advance(to: at(20))
        #expect(e.framePeriod == .nanoseconds(8_333_333))
        #expect(durations == [.nanoseconds(16_666_667), .nanoseconds(8_333_333)])
        e.setRefreshRate(try RefreshRate(hertz: 7))
        _ = e.advance(to: at(40))
        #expect(e.framePeriod == .nanoseconds(142_857_143))
        #expect(DeviceEngine(rate: try RefreshRate(hertz: 1000)).framePeriod == .milliseconds(1))
    }

    @Test func aLinkAddedAfterAStepHasItsFirstSlotAtTheNextVsync() {
        // DL5 with the instant at now done: its vsync has passed, whether or not it was needed.
        for animated in [false, true] {
            let (e, trace) = traced([.timerFired])
            if animated { e.animate(for: .seconds(1)) }
            _ = e.advance(to: at(10))
            _ = e.advance(through: e.vsync(number: 1))
            #expect(e.now == atNs(16_666_666))
            let l = link(e)
            _ = e.advance(to: at(40))
            #expect(
                trace.firings.filter { $0.id == l }.map(\.scheduled.nanoseconds) == [33_333_333], "animated \(animated)"
            )
        }
    }

    @Test func aBillionVsyncsAreComputedNotWalked() throws {
        try expectTranscript(
            """
            > step 999999999
            > get clock.vsyncs
            clock.vsyncs = 1000000000
            > get clock.now
            clock.now = 16666666.65s
            """)
    }
}
