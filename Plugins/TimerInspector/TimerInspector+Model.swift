import DebugShellCore

/// What the inspector knows about one of the app's timers beyond the device's record: its name
/// and its owner object (K1). Its firings and largest lateness (K2) are in the ``FiringLog``,
/// under the same index.
struct TimerEntry {
    let name: String
    let id: TimerID
    let kind: TimerKind
    /// The verb that made it, for listings.
    let madeBy: TimerMaker
    /// The object it targets (K1), by index, and whether through a weak proxy.
    let target: Int?
    let weak: Bool
    /// Not ended yet (scheduled or paused): it counts in `timer.count` and retains its target (K1).
    var live: Bool
    /// A count-down button's state (seed 003).
    var countdown: Countdown?
    /// When the command that made it ran: where `timer plot` starts by default.
    let created: SimTime
    /// When it was invalidated (by `timer invalidate` or its weak target's deinit, K1): where
    /// `timer plot` marks its end.
    var invalidatedAt: SimTime? = nil
}

/// The verbs of `timer` that make a timer: what a listing says made it (`nstimer`, `gcd`, …).
enum TimerMaker {
    case nstimer, gcd, displaylink, after, countdown

    /// The verb's name, as listings show it.
    var name: String { verb.rawValue }

    /// The verb of `timer` that makes it.
    var verb: TimerInspector.TimerVerb {
        switch self {
        case .nstimer: return .nstimer
        case .gcd: return .gcd
        case .displaylink: return .displaylink
        case .after: return .after
        case .countdown: return .countdown
        }
    }
}

/// The seed's count-down button: a background GCD timer whose handlers set the title on the
/// main queue, and whose last handler restores it and cancels the timer.
struct Countdown {
    let from: Int64
    /// The title the main queue last set.
    var title: String

    static let restingTitle = "Send code"
    static func title(remaining: Int64) -> String { "Resend in \(remaining)s" }
}

/// An object of the app that timers can target (K1): a view controller, a monitor.
struct ObjectEntry {
    let name: String
    /// The shell's own reference (`object release` drops it).
    var held = true
    var deallocated = false
    /// Live timers that retain it strongly.
    var retainers = 0
    /// Every timer made with `--target` this object, strong or weak, by entry index.
    var timers: [Int] = []

    /// Released by the shell but kept alive by a timer: a leak (a retain cycle).
    var isLeaked: Bool { !held && !deallocated }

    var state: String { deallocated ? "deallocated" : held ? "alive" : "leaked" }
}
