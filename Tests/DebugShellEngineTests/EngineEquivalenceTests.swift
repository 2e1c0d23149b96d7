import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShellEngine

/// Records every firing, present and mode change as text, to compare two runs.
final class Log: DeviceObserver {
    var lines: [String] = []
    func device(_ device: any SimulatedDevice, observed o: DeviceObservation) {
        switch o {
        case .timerFired(let f):
            lines.append(
                "fire \(f.id) \(f.scheduled.nanoseconds) \(f.start.nanoseconds) \(f.end.nanoseconds) \(f.data) \(f.skipped) \(f.cause?.rawValue ?? "-")"
            )
        case .presented(let p):
            lines.append(
                "present \(p.frame) \(p.present.nanoseconds) \(p.expectedPresent.nanoseconds) \(p.counted) \(p.commitLate) \(p.renderLate)"
            )
        case .modeChanged(let t, let m): lines.append("mode \(t.nanoseconds) \(m)")
        case .commit(let f, let s, let e, _): lines.append("commit \(f) \(s.nanoseconds) \(e.nanoseconds)")
        case .mainItem(let m): lines.append("item \(m.kind) \(m.label) \(m.start.nanoseconds) \(m.end.nanoseconds)")
        case .renderStarted(let f, let s, let e): lines.append("render \(f) \(s.nanoseconds) \(e.nanoseconds)")
        default: break
        }
    }
}

@Suite struct EngineEquivalenceTests {
    /// Builds a random workload: timers of every kind and mode, costs, stalls, scrolls,
    /// animations, loads and rate changes, some scheduled for later.
    static let allKinds: ObservationKinds = [.timerFired, .present, .modeChange, .commit, .mainItem, .render]

    func run(seed: UInt64, reference: Bool, observe: ObservationKinds) -> (lines: [String], counts: [Int64]) {
        var rng = SplitMix(state: seed)
        let engine = DeviceEngine()
        engine.referenceMode = reference
        let log = Log()
        if !observe.isEmpty { _ = engine.addObserver(log, kinds: observe) }
        engine.frameCost = .microseconds(Int64.random(in: 0...6000, using: &rng))
        engine.commitCost = .microseconds(Int64.random(in: 0...3000, using: &rng))
        engine.gpuCost = .microseconds(Int64.random(in: 0...25000, using: &rng))
        engine.coalescing = Bool.random(using: &rng)
        let modes: [RunLoopMode] = [.default, .tracking, .common]
        var ids: [TimerID] = []
        for _ in 0..<Int.random(in: 5...40, using: &rng) {
            let interval = SimDuration.microseconds(Int64.random(in: 500...200_000, using: &rng))
            let cost = SimDuration.microseconds(Int64.random(in: 0...3000, using: &rng))
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                ids.append(
                    engine.addRunLoopTimer(
                        RunLoopTimerConfig(
                            interval: interval, repeats: Bool.random(using: &rng),
                            tolerance: .microseconds(Int64.random(in: 0...20_000, using: &rng)),
                            mode: modes.randomElement(using: &rng)!, cost: cost, dirtiesUI: Bool.random(using: &rng),
                            owner: .app, label: "t"),
                        callback: nil))
            case 1:
                ids.append(
                    engine.addDispatchTimer(
                        DispatchTimerConfig(
                            interval: interval, leeway: .microseconds(Int64.random(in: 0...20_000, using: &rng)),
                            queue: Bool.random(using: &rng) ? .main : .background, cost: cost, owner: .app, label: "g"),
                        callback: nil))
            case 2:
                ids.append(
                    engine.addDisplayLink(
                        DisplayLinkConfig(
                            mode: modes.randomElement(using: &rng)!,
                            preferredFramesPerSecond: [0, 30, 20, 45].randomElement(using: &rng)!,
                            cost: cost, owner: .tool("x"), label: "l"),
                        callback: nil))
            default:
                engine.stall(
                    .microseconds(Int64.random(in: 0...120_000, using: &rng)), dirtiesUI: Bool.random(using: &rng))
            }
        }
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            let at = SimTime(nanoseconds: Int64.random(in: 0...2_000_000_000, using: &rng))
            let choice = Int.random(in: 0..<6, using: &rng)
            let d = SimDuration.milliseconds(Int64.random(in: 1...700, using: &rng))
            let target = ids.randomElement(using: &rng)
            let rate = [30, 60, 90, 120].randomElement(using: &rng)!
            engine.schedule(at: at) {
                switch choice {
                case 0: engine.scroll(for: d)
                case 1: engine.animate(for: d)
                case 2: engine.stall(d, dirtiesUI: true)
                case 3: if let target { engine.pause(target) }
                case 4: if let target { engine.resume(target) }
                default: engine.setRefreshRate((try? RefreshRate(hertz: rate)) ?? .sixty)
                }
            }
        }
        engine.animate(for: .milliseconds(Int64.random(in: 0...1500, using: &rng)))
        _ = engine.advance(to: SimTime(nanoseconds: 3_000_000_000))
        let counts = ids.compactMap { engine.timerInfo($0) }.flatMap {
            [$0.fires, $0.skipped, $0.totalData, $0.maxLateness.nanoseconds]
        }
        return (log.lines, counts + [engine.commits, engine.presents, engine.hangs, engine.timerWakeups])
    }

    /// The hot loop's shortcuts (quiet item ends, timers that fire at once, on-time background
    /// targets) must not change anything: firings, presents, commits, counts.
    @Test(arguments: 1...60 as ClosedRange<UInt64>)
    func shortcutsChangeNothing(seed: UInt64) {
        let exact = run(seed: seed, reference: true, observe: Self.allKinds)
        let fast = run(seed: seed, reference: false, observe: Self.allKinds)
        #expect(exact.lines == fast.lines)
        #expect(exact.counts == fast.counts)
        // Watching main-thread items alone turns on other shortcuts than watching everything.
        let itemsOnly = run(seed: seed, reference: false, observe: [.mainItem])
        #expect(exact.lines.filter { $0.hasPrefix("item ") } == itemsOnly.lines)
        #expect(exact.counts == itemsOnly.counts)
        // Without observers the fast path skips more ends; the outcome must still be the same.
        let unobserved = run(seed: seed, reference: false, observe: [])
        #expect(exact.counts == unobserved.counts)
    }
}

/// D2, D3 with `runloop.coalescing on`: the targets of a dispatch timer whose handler waits
/// behind a long main-thread item (or a long background handler) are merged in closed form —
/// each target f still a wake-up at f + leeway, released alone — and the result must be the
/// step-by-step answer: firings, data, lateness, wake-ups.
@Suite struct CoalescedMergeTests {
    func run(seed: UInt64, reference: Bool) -> (lines: [String], counts: [Int64], instants: Int) {
        var rng = SplitMix(state: seed)
        let engine = DeviceEngine()
        engine.referenceMode = reference
        engine.coalescing = true
        let log = Log()
        _ = engine.addObserver(log, kinds: EngineEquivalenceTests.allKinds)
        var ids: [TimerID] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let interval = SimDuration(nanoseconds: Int64.random(in: 1...30_000_000, using: &rng))
            // Any leeway: a repeating timer's is clamped to half the interval (D2).
            let leeway = SimDuration(nanoseconds: Int64.random(in: 0...interval.nanoseconds, using: &rng))
            ids.append(
                engine.addDispatchTimer(
                    DispatchTimerConfig(
                        interval: interval,
                        start: SimDuration(nanoseconds: Int64.random(in: 0...5_000_000, using: &rng)),
                        leeway: Bool.random(using: &rng) ? .zero : leeway,
                        queue: Int.random(in: 0..<4, using: &rng) == 0 ? .background : .main,
                        cost: .microseconds(Int64.random(in: 0...2_000, using: &rng)),
                        owner: Bool.random(using: &rng) ? .app : .tool("x"), label: "g"),
                    callback: nil))
        }
        if Bool.random(using: &rng) {
            // A slow background handler: its own targets wait for it (D4).
            ids.append(
                engine.addDispatchTimer(
                    DispatchTimerConfig(
                        interval: .milliseconds(Int64.random(in: 1...20, using: &rng)),
                        leeway: .microseconds(Int64.random(in: 0...10_000, using: &rng)), queue: .background,
                        cost: .milliseconds(Int64.random(in: 100...3_000, using: &rng)), owner: .app, label: "slow"),
                    callback: nil))
        }
        if Int.random(in: 0..<3, using: &rng) == 0 {
            ids.append(
                engine.addRunLoopTimer(
                    RunLoopTimerConfig(
                        interval: .milliseconds(Int64.random(in: 1...500, using: &rng)), repeats: true,
                        tolerance: .milliseconds(Int64.random(in: 0...50, using: &rng)), owner: .app, label: "t"),
                    callback: nil))
        }
        engine.stall(.milliseconds(Int64.random(in: 0...4_000, using: &rng)), dirtiesUI: Bool.random(using: &rng))
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let at = SimTime(nanoseconds: Int64.random(in: 0...4_000_000_000, using: &rng))
            let d = SimDuration.milliseconds(Int64.random(in: 1...2_000, using: &rng))
            let choice = Int.random(in: 0..<3, using: &rng)
            engine.schedule(at: at) {
                switch choice {
                case 0: engine.stall(d, dirtiesUI: false)
                case 1: engine.animate(for: d)
                default: engine.scroll(for: d)
                }
            }
        }
        // Time moves in a few steps, as `run` commands do: an advance's end bounds a merge.
        var t: Int64 = 0
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            t += Int64.random(in: 1...3_000_000_000, using: &rng)
            _ = engine.advance(to: SimTime(nanoseconds: t))
        }
        let counts = ids.compactMap { engine.timerInfo($0) }.flatMap {
            [$0.fires, $0.skipped, $0.totalData, $0.lastData, $0.maxLateness.nanoseconds]
        }
        return (
            log.lines,
            counts + [engine.commits, engine.presents, engine.timerWakeups, engine.appTimerWakeups],
            engine.instantsProcessed
        )
    }

    @Test(arguments: 1...80 as ClosedRange<UInt64>)
    func closedFormEqualsStepByStep(seed: UInt64) {
        let exact = run(seed: seed, reference: true)
        let fast = run(seed: seed, reference: false)
        #expect(exact.lines == fast.lines, "seed \(seed)")
        #expect(exact.counts == fast.counts, "seed \(seed)")
    }

    /// The issue's case, shorter: a 1 ms main-queue GCD timer behind `stall 100s` with coalescing
    /// on costs a handful of instants while the stall lasts, not one per millisecond — and gives
    /// the step-by-step answer, through the stall and the second after it.
    @Test(arguments: [SimDuration.zero, .microseconds(300), .microseconds(500)])
    func aLongStallIsAFewSteps(leeway: SimDuration) {
        func run(reference: Bool) -> (lines: [String], info: TimerInfo?, wakeups: Int64, instants: Int) {
            let engine = DeviceEngine()
            engine.referenceMode = reference
            engine.coalescing = true
            let log = Log()
            _ = engine.addObserver(log, kinds: .timerFired)
            let id = engine.addDispatchTimer(
                DispatchTimerConfig(interval: .milliseconds(1), leeway: leeway, queue: .main, owner: .app, label: "g"),
                callback: nil)
            engine.stall(.seconds(100), dirtiesUI: false)
            _ = engine.advance(to: SimTime(nanoseconds: 100_000_000_000))
            let instants = engine.instantsProcessed
            _ = engine.advance(to: SimTime(nanoseconds: 101_000_000_000))
            return (log.lines, engine.timerInfo(id), engine.timerWakeups, instants)
        }
        let fast = run(reference: false)
        #expect(fast.instants < 100, "\(fast.instants) instants during the stall")
        let exact = run(reference: true)
        #expect(exact.instants >= 100_000)
        #expect(fast.lines == exact.lines)
        #expect(fast.info?.totalData == exact.info?.totalData)
        #expect(fast.info?.fires == exact.info?.fires)
        #expect(fast.info?.maxLateness == exact.info?.maxLateness)
        #expect(fast.wakeups == exact.wakeups)
        // D3: the handler at 100 s takes the targets passed during the stall; one per target after.
        #expect(fast.info?.totalData ?? 0 >= 100_000)
        #expect(fast.info?.fires ?? 0 >= 1_000)
    }
}
