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

    /// A slot of up to 8 entries is sorted by a sorting network on 64-bit words: by the 0-1
    /// principle, a network that sorts every sequence of zeros and ones sorts every sequence.
    /// Checked for every such sequence of each length.
    @Test func theSortingNetworksSortEverySmallSlot() {
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 8)
        defer { words.deallocate() }
        for n in 2...8 {
            for bits in 0..<(1 << n) {
                for i in 0..<n { words[i] = UInt64(bits >> i & 1) }
                EntryBuffer.networkSort(words, n)
                let sorted = (0..<n).map { words[$0] }
                #expect(sorted == sorted.sorted(), "n \(n), bits \(bits)")
            }
        }
    }

    /// A small slot's entries come out by time, and those of equal time by key (the network
    /// orders them by their places; the finishing insertion sort by key): random slots of each
    /// size with few distinct times and keys, against a sort of the same entries.
    @Test func aSmallSlotComesOutInTimeThenKeyOrder() {
        var rng = SplitMix(state: 38)
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: 8)
        let counts = UnsafeMutablePointer<Int32>.allocate(capacity: EntryBuffer.radix)
        defer {
            words.deallocate()
            counts.deallocate()
        }
        var scratch = EntryBuffer()
        for n in 1...12 {
            for _ in 0..<400 {
                var buffer = EntryBuffer()
                var expected: [(time: Int64, key: UInt64)] = []
                for _ in 0..<n {
                    // One slot (2^20 ns), a few times in it: ties are common.
                    let time = Int64(77 << 20) + Int64.random(in: 0..<4, using: &rng) * 250_000
                    let key =
                        UInt64.random(in: 0...UInt64.max >> 1, using: &rng) >> UInt64.random(in: 0...62, using: &rng)
                    buffer.append(EventQueue.Entry(time: time, key: key))
                    expected.append((time, key))
                }
                expected.sort { ($0.time, $0.key) < ($1.time, $1.key) }
                buffer.sortWithinSlot(scratch: &scratch, counts: counts, words: words)
                let got = (0..<n).map { (time: buffer[$0].time, key: buffer[$0].key) }
                #expect(got.elementsEqual(expected) { $0 == $1 }, "n \(n)")
                buffer.free()
            }
        }
        scratch.free()
    }
}
