import Foundation

/// A small deterministic generator (SplitMix64), so a randomized test reproduces from its seed.
public struct SplitMix: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    /// A generator seeded from `DEBUGSH_TEST_SEED` when it is set, else at random; the seed is
    /// returned so a failing test can print it (rerun with `DEBUGSH_TEST_SEED=<seed> swift test`).
    public static func seeded() -> (generator: SplitMix, seed: UInt64) {
        let seed =
            ProcessInfo.processInfo.environment["DEBUGSH_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        return (SplitMix(state: seed), seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
