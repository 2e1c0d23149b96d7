import DebugShellTesting
import Testing

@testable import DebugShellEngine

/// The event queue (a calendar queue: a wheel of slot buckets, with heaps for the entries behind
/// its current slot and beyond its span) must hand out entries in (time, key) order whatever the
/// mix of pushes, pops and top replacements — in one slot, across slots, beyond the wheel, behind
/// the slot reached — and know whether the earliest is alone at its instant.
@Suite struct EventQueueTests {
    @Test(arguments: 1...60 as ClosedRange<UInt64>)
    func entriesComeOutInTimeThenKeyOrder(seed: UInt64) {
        var rng = SplitMix(state: seed)
        var queue = EventQueue()
        var reference: [(time: Int64, key: UInt64)] = []
        func sortReference() { reference.sort { ($0.time, $0.key) < ($1.time, $1.key) } }
        // Scales from one slot (2^20 ns) to beyond the wheel (2^32 ns); in the last, times on a
        // coarse grid, so that a slot's bucket holds many entries of equal time.
        let span = [5_000, 3 << 20, 1 << 26, 1 << 33, 3 << 20][Int(seed % 5)]
        let grain: Int64 = seed % 5 == 4 ? 100_000 : 1
        // How often the quick test that nothing else shares the top's instant said so.
        var alone = 0
        for _ in 0..<2_000 {
            // Mostly ahead of the earliest entry, as the engine schedules; sometimes anywhere.
            let base = Bool.random(using: &rng) ? max(0, reference.first?.time ?? 0) : 0
            let time = base + Int64.random(in: 0...Int64(span), using: &rng) / grain * grain
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
            // It may say "unsure" (false), never a wrong "alone".
            if let first = reference.first, queue.isOnlyEntry(atOrBefore: first.time) {
                alone += 1
                #expect(reference.count == 1 || reference[1].time > first.time, "seed \(seed)")
            }
        }
        // Within the first slot every entry waits in a heap, where the quick test says "unsure".
        if span > 1 << 20 { #expect(alone > 0, "seed \(seed): the quick test never answered") }
        while let first = reference.first {
            let top = queue.popTop()
            #expect((top.time, top.key) == (first.time, first.key), "seed \(seed)")
            reference.removeFirst()
        }
        #expect(queue.count == 0)
    }

    /// A slot of up to 8 entries is sorted by a sorting network: by the 0-1 principle, a network
    /// that sorts every sequence of zeros and ones sorts every sequence. Checked for every such
    /// sequence of each length, and on entries that differ only in their key.
    @Test func theSortingNetworksSortEverySmallSlot() {
        for n in 2...8 {
            for bits in 0..<(1 << n) {
                var buffer = EntryBuffer()
                for i in 0..<n {
                    let one = bits >> i & 1 == 1
                    buffer.append(EventQueue.Entry(time: 7, key: one ? 9 : 3))
                }
                EntryBuffer.networkSort(buffer.base!, n)
                let keys = (0..<n).map { buffer[$0].key }
                #expect(keys == keys.sorted(), "n \(n), bits \(bits)")
                buffer.free()
            }
        }
    }
}
