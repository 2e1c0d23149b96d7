import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellEngine
@testable import DebugShellInterpreter

/// Records what happened, in order, as short lines.
final class Trace: DeviceObserver {
    var firings: [TimerFiring] = []
    var presents: [PresentInfo] = []
    var items: [MainThreadItem] = []
    var modes: [(SimTime, RunLoopMode)] = []
    var renders: [(frame: Int64, start: SimTime, end: SimTime)] = []
    var ticks: [(timestamp: SimTime, start: SimTime)] = []
    func device(_ device: any SimulatedDevice, observed o: DeviceObservation) {
        switch o {
        case .timerFired(let f): firings.append(f)
        case .presented(let p): presents.append(p)
        case .mainItem(let m): items.append(m)
        case .modeChanged(let t, let m): modes.append((t, m))
        case .renderStarted(let f, let s, let e): renders.append((f, s, e))
        case .animationTick(let ts, let s): ticks.append((ts, s))
        default: break
        }
    }
    func starts(_ id: TimerID) -> [Int64] { firings.filter { $0.id == id }.map { $0.start.nanoseconds / 1_000_000 } }
}

let msec: Int64 = 1_000_000
func at(_ ms: Int64) -> SimTime { SimTime(nanoseconds: ms * msec) }
func atNs(_ ns: Int64) -> SimTime { SimTime(nanoseconds: ns) }

func traced(_ kinds: ObservationKinds = .all, rate: Int = 60) -> (DeviceEngine, Trace) {
    let engine = DeviceEngine(rate: (try? RefreshRate(hertz: rate)) ?? .sixty)
    let trace = Trace()
    _ = engine.addObserver(trace, kinds: kinds)
    return (engine, trace)
}

func link(_ e: DeviceEngine, mode: RunLoopMode = .common, fps: Int = 0, cost: SimDuration = .zero, label: String = "l")
    -> TimerID
{
    e.addDisplayLink(
        DisplayLinkConfig(mode: mode, preferredFramesPerSecond: fps, cost: cost, owner: .app, label: label),
        callback: nil)
}

func nstimer(
    _ e: DeviceEngine, _ interval: SimDuration, repeats: Bool = true, tolerance: SimDuration = .zero,
    mode: RunLoopMode = .default, cost: SimDuration = .zero, label: String = "t"
) -> TimerID {
    e.addRunLoopTimer(
        RunLoopTimerConfig(
            interval: interval, repeats: repeats, tolerance: tolerance, mode: mode, cost: cost, owner: .app,
            label: label),
        callback: nil)
}

func gcd(
    _ e: DeviceEngine, _ interval: SimDuration, start: SimDuration? = nil, leeway: SimDuration = .zero,
    queue: DispatchQueueKind = .main, cost: SimDuration = .zero, once: Bool = false
) -> TimerID {
    e.addDispatchTimer(
        DispatchTimerConfig(
            interval: interval, start: start, leeway: leeway, queue: queue, cost: cost, once: once, owner: .app,
            label: "g"),
        callback: nil)
}

// MARK: - S: time and ordering

@Suite struct TimeAndOrderingTests {
    @Test func s1_productsNeverOverflowAndTheHorizonIsAnError() throws {
        // Vsync k·1e9/R near the horizon, at rates where k·1e9 would overflow 64 bits.
        for rate in [1, 7, 60, 997, 1000] {
            let grid = VsyncGrid(rate: rate)
            let t = (Int64(1) << 62) - 12_345
            let v = grid.first(atOrAfter: t)
            #expect(v.time >= t)
            #expect(grid.time(segment: 0, k: v.k - 1) < t)
        }
        #expect(throws: RangeError.self) { try SimTime(nanoseconds: 1 << 62).adding(.nanoseconds(1)) }
        try expectTranscript("> run 4611686018s\n> run 1s\nerror: time 4611686018s + 1s is beyond the 2^62 ns horizon")
    }

    /// S2: vsync k is at floor(k·1e9/R) and the first at or after t is the least such k. The
    /// grid computes in 64 bits while the products fit and in 128 bits beyond: both must agree
    /// with the definition, worked out here in 128 bits alone, on either side of the switch.
    @Test(arguments: [1, 7, 24, 30, 60, 90, 120, 997, 1000])
    func s2_theGridIsExactInSixtyFourBitsAndBeyond(rate: Int) {
        let grid = VsyncGrid(rate: rate)
        let r = Int128(rate)
        func reference(atOrAfter t: Int64) -> (k: Int64, time: Int64) {
            var k = Int128(t) * r / 1_000_000_000
            if k * 1_000_000_000 < Int128(t) * r { k += 1 }
            return (Int64(k), Int64(k * 1_000_000_000 / r))
        }
        var rng = SplitMix(state: UInt64(rate))
        // Where d·R stops fitting in 64 bits, and where k·1e9 does.
        let edges: [Int64] = [Int64.max / Int64(rate), Int64.max / 1_000_000_000 * 1_000_000_000 / Int64(rate)]
        var times: [Int64] = [0, 1, 16_666_666, 16_666_667, (1 << 62) - 1, 1 << 62]
        for edge in edges where edge < 1 << 62 {
            times += (-3...3).map { edge + $0 }
        }
        for _ in 0..<2_000 {
            times.append(Int64.random(in: 0...(1 << 62), using: &rng) >> Int64.random(in: 0...40, using: &rng))
        }
        for t in times where t >= 0 && t <= 1 << 62 {
            let v = grid.first(atOrAfter: t)
            let expected = reference(atOrAfter: t)
            #expect(v.k == expected.k && v.time == expected.time, "rate \(rate), t \(t)")
            #expect(grid.time(segment: 0, k: v.k) == expected.time, "rate \(rate), t \(t)")
        }
    }

    @Test func s2_theGridNeverAddsARoundedPeriod() {
        let e = DeviceEngine()
        var v = SimTime.zero
        var times: [Int64] = []
        for _ in 0..<5 {
            v = e.vsync(after: v)
            times.append(v.nanoseconds)
        }
        // floor(k·1e9/60): 16666666, 33333333, 50000000, … — periods of 16666666 and 16666667.
        #expect(times == [16_666_666, 33_333_333, 50_000_000, 66_666_666, 83_333_333])
        #expect(e.vsync(atOrAfter: at(1000)) == at(1000))  // v60 = 1e9 exactly, no drift
    }

    @Test func s2_aRateChangeTakesEffectAtTheFirstVsyncAtOrAfterIt() {
        let e = DeviceEngine()
        _ = e.advance(to: at(5))
        e.setRefreshRate((try? RefreshRate(hertz: 120)) ?? .sixty)
        // The anchor is v1 = 16.666666 ms; then k·1e9/120 from there.
        #expect(e.pendingRate?.at == atNs(16_666_666))
        #expect(e.vsync(after: atNs(16_666_666)) == atNs(16_666_666 + 8_333_333))
        #expect(e.vsync(after: atNs(16_666_666 + 8_333_333)) == atNs(16_666_666 + 16_666_666))
        #expect(e.refreshRate.hertz == 60)
        _ = e.advance(to: at(20))
        #expect(e.refreshRate.hertz == 120)
        // Past vsyncs keep the old grid.
        #expect(e.vsync(after: .zero) == atNs(16_666_666))
    }

    @Test func s3_commandsAtTComeBeforeEventsAtTAndRunLeavesNowAtTheEnd() {
        let (e, trace) = traced()
        let t = nstimer(e, .milliseconds(100))
        _ = e.advance(to: at(100))
        #expect(e.now == at(100))
        #expect(trace.starts(t).isEmpty)  // fire date 100 is not < 100
        // A stall issued at 100 is drained at 100 (RL4.1) before the timer's wake-up.
        e.stall(.milliseconds(10), dirtiesUI: false)
        _ = e.advance(to: at(200))
        #expect(trace.starts(t) == [110])
        #expect(trace.firings.first?.cause == .busy)
    }

    @Test func s4_theOrderAtOneInstant() {
        // At t = 100 ms: a scheduled stall (step 1), a background and a main dispatch timer
        // (step 5, background first), a run-loop timer (step 4): the main thread then drains the
        // queue snapshot — the stall and the main handler — then services the timer.
        let (e, trace) = traced()
        let bg = gcd(e, .milliseconds(100), queue: .background)
        let main = gcd(e, .milliseconds(100), queue: .main)
        let t = nstimer(e, .milliseconds(100))
        e.schedule(at: at(100)) { e.stall(.milliseconds(5), dirtiesUI: false) }
        _ = e.advance(to: at(101))
        #expect(trace.firings.map(\.id) == [bg])  // the main handler waits behind the 5 ms stall
        _ = e.advance(to: at(200))
        #expect(trace.firings.map(\.id) == [bg, main, t])
        #expect(trace.firings[1].start == at(105))
        #expect(trace.firings[2].start == at(105))
        #expect(trace.items.map(\.kind) == [.block, .dispatchHandler, .timer])
    }

    @Test func s4_aCommandScheduledForTheEndOfARunRunsAtTheStartOfTheNext() throws {
        try expectTranscript("> at 1s echo at-one\n> run 1s\n> echo between\nbetween\n> run 1ns\nat-one")
    }
}

// MARK: - RL: the main thread and its run loop

@Suite struct RunLoopTests {
    @Test func rl1_modesGateWhatRuns() {
        let (e, trace) = traced()
        let d = nstimer(e, .milliseconds(50), mode: .default, label: "default")
        let c = nstimer(e, .milliseconds(50), mode: .common, label: "common")
        let k = nstimer(e, .milliseconds(50), mode: .tracking, label: "tracking")
        e.scroll(for: .milliseconds(120))
        _ = e.advance(to: at(200))
        #expect(trace.modes.map { $0.1 } == [.tracking, .default])
        #expect(trace.starts(c) == [50, 100, 150])
        #expect(trace.starts(k) == [50, 100])  // only while tracking
        #expect(trace.starts(d) == [120, 150])  // T7: once when tracking ends, then its grid
    }

    @Test func rl2_oneItemAtATimeAndNothingPreempts() {
        let (e, trace) = traced()
        e.stall(.milliseconds(30), dirtiesUI: false)
        e.stall(.milliseconds(20), dirtiesUI: false)
        let t = nstimer(e, .milliseconds(10), repeats: false)
        _ = e.advance(to: at(100))
        #expect(
            trace.items.map { [$0.start.nanoseconds / msec, $0.end.nanoseconds / msec] } == [
                [0, 30], [30, 50], [50, 50],
            ])
        #expect(trace.starts(t) == [50])
    }

    @Test func rl3_theMainQueueIsServicedDuringTracking() {
        let (e, trace) = traced([.mainItem])
        e.scroll(for: .seconds(1))
        e.schedule(at: at(200)) { e.stall(.milliseconds(10), dirtiesUI: false) }
        _ = e.advance(to: at(300))
        #expect(trace.items.contains { $0.kind == .block && $0.start == at(200) })
    }

    @Test func rl4_aSnapshotDrainIsFirstAndBlocksAddedMeanwhileWait() {
        let (e, trace) = traced([.mainItem])
        e.enqueueMainBlock(cost: .milliseconds(1), dirtiesUI: true, label: "a") {
            e.enqueueMainBlock(cost: .milliseconds(1), dirtiesUI: false, label: "c", action: nil)
        }
        e.enqueueMainBlock(cost: .milliseconds(1), dirtiesUI: false, label: "b", action: nil)
        e.commitCost = .milliseconds(2)
        _ = e.advance(to: at(50))
        // Iteration 1 drains the snapshot {a, b}; iteration 2 commits (a dirtied the UI), then
        // services the queue in step 3 (c, enqueued during the drain).
        #expect(trace.items.map(\.label) == ["a", "b", "commit", "c"])
        #expect(trace.items.map { $0.start.nanoseconds / msec } == [0, 1, 2, 4])
    }

    @Test func rl4_readySourcesByReadinessWithTiesTimersLinksQueue() {
        // Busy until 100; at 50 a timer is due, a link's slot fills (v3 = 50 ms) and a block is
        // enqueued. At 100: step 1 skipped (the stall drained), step 3 picks the timers (tie order);
        // the next iteration drains the queue (step 1: the timers did not drain); then the links.
        let (e, trace) = traced([.mainItem])
        e.stall(.milliseconds(100), dirtiesUI: false)
        _ = nstimer(e, .milliseconds(50), repeats: false, label: "timer")
        e.schedule(at: at(40)) { _ = link(e, label: "link") }
        e.schedule(at: at(50)) { e.enqueueMainBlock(cost: .zero, dirtiesUI: false, label: "block", action: nil) }
        _ = e.advance(to: at(101))
        #expect(trace.items.map(\.label) == ["stall 100ms", "timer", "block", "link"])
    }

    @Test func rl5_aDirtyUICommits() throws {
        try expectTranscript(
            """
            > stall 1ms --ui
            > stall 1ms
            > run 100ms
            > get render.commits
            render.commits = 1
            > get render.presents
            render.presents = 1
            """)
    }

    @Test func rl6_hangsAreItemsOf250msAndBusyRatioIsTheLastWholeSecond() throws {
        try expectTranscript(
            """
            > stall 249ms
            > stall 250ms
            > get main.busy_ratio
            main.busy_ratio = none
            > run 1s
            > get main.hangs
            main.hangs = 1
            > get main.busy_ratio
            main.busy_ratio = 0.499
            > run 1s
            > get main.busy_ratio
            main.busy_ratio = 0
            """)
    }
}

// MARK: - DL: display links

@Suite struct DisplayLinkTests {
    @Test func dl1_aLinkFiresOnlyInItsModes() {
        let (e, trace) = traced([.timerFired])
        let l = link(e, mode: .default)
        e.scroll(for: .milliseconds(100))
        _ = e.advance(to: at(150))
        // v0 fills the slot before the mode change at 0 is seen by the main thread? No: the mode
        // changes at step 2, before the vsync; the slot fills at v0 and waits (DL7) until 100.
        let fires = trace.firings.filter { $0.id == l }
        #expect(fires.first?.start == at(100))
        #expect(fires.first?.scheduled == .zero)  // the stale timestamp of v0
        #expect(fires.first?.cause == .mode)
    }

    @Test func dl2_timestampTargetAndDuration() {
        let e = DeviceEngine()
        var seen: [(SimTime, SimTime, SimDuration)] = []
        _ = e.addDisplayLink(DisplayLinkConfig(preferredFramesPerSecond: 30, owner: .app, label: "l")) { cb in
            seen.append((cb.timestamp, cb.targetTimestamp, cb.duration))
            return .zero
        }
        _ = e.advance(to: at(70))
        #expect(seen.map { $0.0.nanoseconds } == [0, 33_333_333, 66_666_666])
        #expect(seen.map { $0.1.nanoseconds } == [33_333_333, 66_666_666, 100_000_000])
        // The refresh period, not the link's period: 1e9 / 60 rounded, the same at every slot.
        #expect(seen.map { $0.2.nanoseconds } == [16_666_667, 16_666_667, 16_666_667])
    }

    @Test(arguments: [
        (60, 30, 2), (60, 40, 2), (60, 45, 1), (120, 60, 2), (120, 50, 2), (120, 0, 1), (60, 20, 3), (60, 7, 9),
    ])
    func dl3_theGridStepRoundsHalvesUp(rate: Int, fps: Int, step: Int) {
        #expect(DeviceEngine.gridStep(rate: Int64(rate), fps: fps) == Int64(step))
    }

    @Test func dl3_theGridIsCountedFromTheAnchor() {
        let (e, trace) = traced([.timerFired])
        _ = e.advance(to: at(5))
        let l = link(e, fps: 30)
        _ = e.advance(to: at(90))
        // Grid vsyncs k mod 2 == 0 from the anchor at 0: 33.3, 66.7 (v1 is not on the grid).
        #expect(trace.firings.filter { $0.id == l }.map(\.scheduled.nanoseconds) == [33_333_333, 66_666_666])
    }

    @Test func dl4_aPausedLinkFillsNoSlotAndResumesFresh() {
        let (e, trace) = traced([.timerFired])
        let l = link(e)
        e.stall(.milliseconds(30), dirtiesUI: false)
        _ = e.advance(to: at(20))  // v0 filled, v1 skipped
        e.pause(l)
        _ = e.advance(to: at(60))
        e.resume(l)
        _ = e.advance(to: at(70))
        #expect(trace.firings.filter { $0.id == l }.map(\.scheduled.nanoseconds) == [66_666_666])
        #expect(e.timerInfo(l)?.skipped == 1)
    }

    @Test func dl5_theFirstSlotIsTheFirstGridVsyncAtOrAfterAdding() {
        let (e, trace) = traced([.timerFired])
        let a = link(e)  // at 0: v0
        _ = e.advance(to: at(5))
        let b = link(e)  // at 5: v1
        _ = e.advance(to: at(20))
        #expect(trace.firings.filter { $0.id == a }.map(\.scheduled.nanoseconds) == [0, 16_666_666])
        #expect(trace.firings.filter { $0.id == b }.map(\.scheduled.nanoseconds) == [16_666_666])
    }

    @Test func dl6_invalidatingEmptiesTheSlot() {
        let (e, trace) = traced([.timerFired])
        let l = link(e)
        e.stall(.milliseconds(30), dirtiesUI: false)
        _ = e.advance(to: at(10))
        e.invalidate(l)
        _ = e.advance(to: at(100))
        #expect(trace.firings.isEmpty)
        #expect(e.timerInfo(l)?.state == .invalidated)
    }

    @Test func dl7_aBusyMainThreadDropsVsyncsAndTheSlotKeepsTheStaleOne() {
        let (e, trace) = traced([.timerFired])
        let l = link(e)
        e.stall(.milliseconds(100), dirtiesUI: false)
        _ = e.advance(to: at(130))
        let fires = trace.firings.filter { $0.id == l }
        #expect(fires.map(\.scheduled.nanoseconds) == [0, 116_666_666])
        #expect(fires[0].start == at(100) && fires[0].lateness == .milliseconds(100) && fires[0].cause == .busy)
        #expect(e.timerInfo(l)?.skipped == 6)  // v1…v6
    }

    @Test func dl8_oneWakeUpServicesEveryLinkInTheOrderAdded() {
        let (e, trace) = traced([.timerFired])
        let a = link(e, cost: .milliseconds(2), label: "a")
        let b = link(e, cost: .milliseconds(3), label: "b")
        let c = link(e, mode: .tracking, label: "c")
        _ = e.advance(to: at(10))
        #expect(trace.firings.map(\.id) == [a, b])
        #expect(trace.firings.map(\.start.nanoseconds) == [0, 2_000_000])
        #expect(e.timerInfo(c)?.fires == 0)
    }
}
