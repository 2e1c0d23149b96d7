import DebugShellCore

/// The same-instant chain a scheduled command belongs to: commands that scheduled commands for
/// the instant they ran in, one after the other (`alias z = after 0s z`).
struct SameInstantChain {
    /// The first few commands of the chain, for the message that ends it.
    var head: [String]
    /// How many commands the chain has.
    var length: Int
}

/// The bookkeeping of scheduled commands (`after`, `at`, `every`): how many wait, the bounds
/// that keep a schedule from running away, and what an interrupt held back.
struct CommandScheduler {
    /// How many commands scheduled commands may schedule for the instant they run in, per
    /// instant: a command that schedules itself there again would otherwise never let time move.
    static let maxSameInstantCommands = 10_000
    /// How many scheduled commands may wait at once (about 500 MB of them).
    static let maxPendingCommands = 1_000_000

    /// Scheduled commands waiting to run, and how many may.
    var pending = 0
    var pendingLimit = CommandScheduler.maxPendingCommands
    /// Scheduled commands an interrupt kept from running; scheduled again where time stopped.
    var heldByInterrupt: [() -> Void] = []
    /// The same-instant chain of the scheduled command running now, if it started one.
    var runningChain: SameInstantChain?
    /// The instant of `sameInstantCount`, and how many commands scheduled commands running at
    /// it have scheduled for it.
    var sameInstantTime = SimTime(nanoseconds: -1)
    var sameInstantCount = 0
    /// Scheduled commands that failed during the current advance of time.
    var failuresDuringAdvance = 0

    /// A fresh simulation has nothing scheduled.
    mutating func resetSimulation() {
        pending = 0
        heldByInterrupt.removeAll()
        sameInstantTime = SimTime(nanoseconds: -1)
    }
}
