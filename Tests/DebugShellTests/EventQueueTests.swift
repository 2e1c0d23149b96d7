import DebugShellTesting
import Testing

@testable import DebugShell

/// The event queue (a hand-written 4-ary heap) must hand out entries in (time, key) order
/// whatever the mix of pushes, pops and top replacements, and know its second-earliest time.
@Suite struct EventQueueTests {
    @Test(arguments: 1...30 as ClosedRange<UInt64>)
    func entriesComeOutInTimeThenKeyOrder(seed: UInt64) {
        var rng = SplitMix(state: seed)
        var queue = EventQueue()
        var reference: [(time: Int64, key: UInt64)] = []
        func sortReference() { reference.sort { ($0.time, $0.key) < ($1.time, $1.key) } }
        for _ in 0..<2_000 {
            let time = Int64.random(in: 0...5_000, using: &rng)
            let key = UInt64.random(in: 0...50, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0 where !reference.isEmpty:
                let top = queue.popTop()
                #expect((top.time, top.key) == (reference[0].time, reference[0].key), "seed \(seed)")
                reference.removeFirst()
            case 1 where !reference.isEmpty:
                // A replacement is never earlier than the top in the engine, but the heap must
                // not depend on it.
                queue.replaceTop(time: time, key: key)
                reference[0] = (time, key)
                sortReference()
            default:
                queue.push(time: time, key: key)
                reference.append((time, key))
                sortReference()
            }
            #expect(queue.count == reference.count)
            #expect(queue.topTime == (reference.first?.time ?? Int64.max), "seed \(seed)")
            #expect(queue.secondTime == (reference.count > 1 ? reference[1].time : Int64.max), "seed \(seed)")
        }
        while let first = reference.first {
            let top = queue.popTop()
            #expect((top.time, top.key) == (first.time, first.key), "seed \(seed)")
            reference.removeFirst()
        }
        #expect(queue.count == 0)
    }
}
