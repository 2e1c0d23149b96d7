import DebugShellCore
import Testing

@testable import DebugShellEngine

/// Observers are called unretained, in the order they were added; removing or adding one while
/// a notification is being delivered must neither crash nor call the wrong observer.
@Suite struct ObserverTests {
    /// Counts vsyncs and runs an action on its first one.
    final class Probe: DeviceObserver {
        let name: String
        var log: [String]
        var onFirst: ((Probe) -> Void)?
        var token: ObserverToken?
        var deinitLog: (() -> Void)?
        init(_ name: String, log: [String] = []) {
            self.name = name
            self.log = log
        }
        deinit { deinitLog?() }
        func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
            guard case .vsync = observation else { return }
            log.append(name)
            if let action = onFirst {
                onFirst = nil
                action(self)
            }
        }
    }

    @Test func anObserverThatRemovesItselfMidCallIsKeptAliveUntilTheCallEnds() {
        let engine = DeviceEngine()
        var freed = false
        var callsAfterRemoval = 0
        do {
            let probe = Probe("a")
            probe.deinitLog = { freed = true }
            probe.token = engine.addObserver(probe, kinds: .vsync)
            probe.onFirst = { p in
                engine.removeObserver(p.token!)
                // Still alive: the engine retired it instead of releasing it mid-call.
                callsAfterRemoval = p.log.count
            }
        }
        _ = engine.advance(to: SimTime(nanoseconds: 100_000_000))
        #expect(callsAfterRemoval == 1)
        #expect(freed, "the removed observer was not released after the notification")
        #expect(!engine.wants(.vsync))
    }

    @Test func removingALaterObserverSkipsItAndAddingOneWaitsForTheNextNotification() {
        let engine = DeviceEngine()
        let first = Probe("first")
        let second = Probe("second")
        let third = Probe("third")
        _ = engine.addObserver(first, kinds: .vsync)
        second.token = engine.addObserver(second, kinds: .vsync)
        first.onFirst = { _ in
            engine.removeObserver(second.token!)
            _ = engine.addObserver(third, kinds: .vsync)
        }
        _ = engine.advance(through: SimTime(nanoseconds: 16_666_666))
        // v0 and v1: at v0 the first removes the second and adds the third; the third starts at v1.
        #expect(first.log.count == 2)
        #expect(second.log.isEmpty)
        #expect(third.log.count == 1)
        #expect(engine.callouts.calls.count == 2)
    }

    @Test func tearDownLetsEveryObserverGo() {
        let engine = DeviceEngine()
        weak var gone: Probe?
        do {
            let probe = Probe("p")
            gone = probe
            _ = engine.addObserver(probe, kinds: .vsync)
        }
        #expect(gone != nil)
        engine.tearDown()
        #expect(gone == nil)
        #expect(engine.callouts.calls.count == 0)
    }
}
