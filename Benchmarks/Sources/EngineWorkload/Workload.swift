import DebugShellCore
import DebugShellEngine

/// The peers' workload (Benchmarks/Peers/simmodel.py) expressed in debugsh: an animation with
/// 4 ms of main-thread work per tick, a 21 ms stall every 2 s (about the peers' 120th-frame
/// hitch), the FPS meter's display link counting callbacks per 1 s window (F1), and K timers:
/// timer i has interval (10 + (i·7919) mod 991) ms + (i mod 97) µs and first fires at its
/// interval; even i are NSTimers on the main thread costing 2 µs, odd i GCD timers on
/// background queues.
public struct EngineWorkload {
    public var timers: Int
    public var seconds: Int64
    public var hertz: Int

    public init(timers: Int, seconds: Int64, hertz: Int = 60) {
        self.timers = timers
        self.seconds = seconds
        self.hertz = hertz
    }

    /// Counts of what happened, to compare with the peers' event counts.
    public struct Counts: Sendable {
        public var vsyncs: Int64 = 0
        public var meterCallbacks: Int64 = 0
        public var mainFires: Int64 = 0
        public var backgroundFires: Int64 = 0
        public var presents: Int64 = 0
        public var windows: [Int] = []
        /// The peers' event count: vsyncs + timer firings.
        public var events: Int64 { vsyncs + mainFires + backgroundFires }
    }

    public static func interval(_ i: Int) -> SimDuration {
        .nanoseconds(Int64(10 + (i * 7919) % 991) * 1_000_000 + Int64(i % 97) * 1_000)
    }

    /// Sets the workload up on a fresh device and returns it with the counting closures in place.
    public func makeDevice() -> (DeviceEngine, () -> Counts) {
        let rate = (try? RefreshRate(hertz: hertz)) ?? .sixty
        let engine = DeviceEngine(rate: rate)
        engine.frameCost = .milliseconds(4)
        engine.animate(for: .seconds(seconds))
        final class Meter {
            var last: SimTime?
            var count = 0
            var callbacks: Int64 = 0
            var windows: [Int] = []
        }
        let meter = Meter()
        let link = engine.addDisplayLink(DisplayLinkConfig(mode: .common, owner: .tool("fps"), label: "fps meter")) {
            cb in
            meter.callbacks += 1
            guard let last = meter.last else {
                meter.last = cb.timestamp
                return .zero
            }
            meter.count += 1
            if cb.timestamp - last >= .seconds(1) {
                meter.windows.append(meter.count)
                meter.count = 0
                meter.last = cb.timestamp
            }
            return .zero
        }
        _ = link
        func stallEvery(_ t: SimTime) {
            engine.schedule(at: t) {
                engine.stall(.milliseconds(21), dirtiesUI: false)
                stallEvery(t + .seconds(2))
            }
        }
        stallEvery(SimTime(nanoseconds: 2_000_000_000))
        var ids: [TimerID] = []
        ids.reserveCapacity(timers)
        for i in 0..<timers {
            if i % 2 == 0 {
                ids.append(
                    engine.addRunLoopTimer(
                        RunLoopTimerConfig(
                            interval: Self.interval(i), repeats: true, cost: .microseconds(2), owner: .app,
                            label: "t\(i)"),
                        callback: nil))
            } else {
                ids.append(
                    engine.addDispatchTimer(
                        DispatchTimerConfig(
                            interval: Self.interval(i), queue: .background, owner: .app, label: "t\(i)"),
                        callback: nil))
            }
        }
        let counts = {
            var c = Counts()
            c.vsyncs = engine.vsyncCount
            c.meterCallbacks = meter.callbacks
            c.presents = engine.presents
            c.windows = meter.windows
            for (i, id) in ids.enumerated() {
                let fires = engine.timerInfo(id)?.fires ?? 0
                if i % 2 == 0 { c.mainFires += fires } else { c.backgroundFires += fires }
            }
            return c
        }
        return (engine, counts)
    }

    /// Runs the whole workload.
    public func run() -> Counts {
        let (engine, counts) = makeDevice()
        _ = engine.advance(to: SimTime(nanoseconds: seconds * 1_000_000_000))
        return counts()
    }
}
