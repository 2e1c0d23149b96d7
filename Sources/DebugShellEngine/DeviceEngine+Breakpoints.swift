import DebugShellCore

/// What a breakpoint's check reads of the device while time moves.
extension DeviceEngine {
    /// Whether something asked to stop after the instant under way (``stopAfterThisInstant()``,
    /// a `break on`'s hit or an interrupt seen during it); true from the ask until the engine
    /// has looked after the instant.
    public var stopsAfterThisInstant: Bool { clock.stopAfterInstant }
}

/// The main thread's last item, read when it is asked for: what a breakpoint's stop says the
/// main thread was running, without an observer of every item while time moves (issue 38). Three
/// stores per item (``MainThread/occupy(_:index:start:cost:)``) keep it.
extension DeviceEngine {
    /// Main-thread items begun since the simulation started: a breakpoint notes the count when
    /// it starts to watch, and says only an item begun after that.
    public var mainItemsBegun: Int64 { main.itemsBegun }

    /// The item the main thread began last, running or over, as the `.mainItem` observation
    /// told it; nil before the first.
    public var lastMainItem: MainThreadItem? {
        let i = main.runningIndex
        let kind: MainThreadItem.Kind
        let label: String
        switch main.lastItem {
        case .none: return nil
        case .block:
            kind = i >= 0 ? .dispatchHandler : .block
            label = i >= 0 ? timers[i].label : main.runningBlockLabel
        case .commit:
            kind = .commit
            label = "commit"
        case .timer:
            kind = .timer
            label = timers[i].label
        case .link:
            kind = .displayLink
            label = timers[i].label
        }
        return MainThreadItem(
            kind: kind, label: label, start: main.runningStart, end: main.busyUntil,
            iteration: main.lastItemIteration)
    }
}
