import DebugShellCore

/// The engine's clock: virtual time, the advance in progress, and the commands the driver
/// scheduled (S3, S4.1). Only ``DeviceEngine/advance(to:interrupted:)`` and its siblings move
/// `now`.
struct EngineClock: ~Copyable {
    var now: SimTime = .zero
    /// Whether the events at `now` have been processed (after `step` and `run until`).
    var instantDone = false
    /// Set when the driver saw an interrupt during an instant (in a scheduled command): time
    /// stops after that instant rather than at the next poll, 256 instants on.
    var stopAfterInstant = false
    /// Instants processed since the start, each time an advance went through one (an instant
    /// already done is processed again by the next advance that starts there).
    var instantsProcessed = 0
    /// How often an advance polls its `interrupted` closure: after the instants whose count
    /// since the advance began, masked with this (a power of two less one), is zero — every 256
    /// instants by default. The mask is read again after each poll, so a driver that bounds
    /// each slice of time in wall time (`play`, a progress line) lowers it from inside the
    /// closure while instants are heavy, down to 0, every instant. It changes when the driver
    /// looks, never what is computed.
    var interruptPollMask = 255
    /// While time advances: the first time it may not reach (events before it are processed),
    /// and whether a condition is checked after each instant (`run until`).
    var advanceEnd = Int64.max
    var advanceChecks = false

    /// Commands scheduled for a time (S4.1), by their sequence number.
    var scheduled: [UInt64: () -> Void] = [:]
    /// The last sequence number handed out: commands and mode changes keep the order in which
    /// they were scheduled.
    var lastSequence: UInt64 = 0

    /// The next sequence number, for a command or a mode change.
    mutating func nextSequence() -> UInt64 {
        lastSequence += 1
        return lastSequence
    }

    /// Whether the instant at `t` is over: before now, or now once its events are processed.
    @inline(__always) func hasPassed(_ t: SimTime) -> Bool { t < now || (t == now && instantDone) }

    /// The first time not yet past: now, or just after it once its instant is done. Counts of
    /// vsyncs and refreshes so far are taken before it.
    @inline(__always) var firstOpenTime: Int64 { instantDone ? now.nanoseconds + 1 : now.nanoseconds }
}
