import DebugShellCore

/// The layout-settle checker (docs/LayoutSettle.md): a simulated view tree (`view …`) and a checker that
/// tells when a subtree stops changing (`layout …`), in the quiet-window mode of L4 or as the
/// original layoutCompleteChecker (L2), with a diagnosis for trees that never settle.
///
/// Change detection is proportional to what changed: every view carries an incremental subtree
/// digest and a subtree count updated along its parent chain, and the checker keeps a list of
/// the views that changed since its last callback. No checker callback walks or stringifies the
/// tree; the original's O(views) string snapshot is charged as modelled cost only (L3).
public final class LayoutSettleChecker: DebugTool {
    let host: any ToolHost
    var tree = ViewTree()
    /// What each view with a cost adds to a commit in which it changed, and the frame it was last
    /// charged to (R6).
    var viewCosts: [ViewSlot: ViewCost] = [:]
    /// The current or last watch.
    var watch: SettleWatch?

    /// layout.settled and layout.timeout while a watch is settling (or settled: it may settle again).
    public func isSaying(_ event: String) -> Bool {
        guard event.hasPrefix("layout.") else { return true }
        guard let watch else { return false }
        return watch.state == .settling || watch.state == .settled
    }
    /// Checker frames so far: a view's stamp equal to it means it already changed in this frame.
    var epoch: UInt32 = 1
    /// Running `view animate`s and `view spin`s, in the order they started.
    var animations: [FrameAnimation] = []
    var spins: [Spin] = []
    /// The limits of README's Limits; tests lower them to reach them cheaply.
    var viewLimit = ViewTree.maxViews
    var growLimit = ViewTree.maxGrow
    private var tickObserver: ObserverToken?
    private lazy var relay = TickRelay(tool: self)

    public init(host: any ToolHost) { self.host = host }

    var device: any SimulatedDevice { host.device }

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch try invocation.command(Command.self) {
        case .view:
            switch try invocation.verb(ViewVerb.self) {
            case .add: return try addView(invocation)
            case .set: return try setView(invocation)
            case .remove: return try removeView(invocation)
            case .animate: return try animateView(invocation)
            case .spin: return try spinView(invocation)
            case .grow: return try growView(invocation)
            case .tree: return try showTree(invocation)
            case .count: return try countViews(invocation)
            }
        case .layout:
            switch try invocation.verb(LayoutVerb.self) {
            case .watch: return try startWatch(invocation)
            case .stop: return stopWatch()
            case .show: return showWatch()
            case .diff: return showDiff(invocation)
            }
        }
    }

    // MARK: - Metrics (L4)

    public func metric(_ name: String) -> MetricValue? {
        switch name {
        case "layout.state": return .word(stateWord)
        case "layout.settled_at": return watch?.settledAt.map { .time($0) } ?? MetricValue.none
        case "layout.last_change": return watch.map { .time($0.lastChange) } ?? MetricValue.none
        case "layout.changes": return .integer(watch?.changedCallbacks ?? 0)
        case "layout.views": return .integer(Int64(watchedViews))
        default: return nil
        }
    }

    /// `idle|settling|settled|timeout`: a stopped watch that had not settled is idle again.
    var stateWord: String {
        guard let watch else { return "idle" }
        return watch.state == .stopped ? "idle" : watch.state.rawValue
    }

    /// The watched subtree's views now, its root included; the whole tree without a watch.
    var watchedViews: Int {
        guard let watch else { return tree.count(ViewTree.window) }
        return watch.detached ? 0 : tree.count(watch.root)
    }

    public func candidates(for domain: NameDomain) -> [String] {
        domain == LayoutSettleChecker.viewDomain ? tree.names(generatedLimit: 1_000) : []
    }

    // MARK: - Changes (L1, RL5)

    /// Every L1 change goes through here: it dirties the UI (RL5) and tells the watch if the
    /// view is in the watched subtree.
    ///
    /// - Parameter within: whether the view is in the watched subtree, when the caller knows.
    func changed(
        _ slot: ViewSlot, _ kinds: ChangeKinds, before: ViewProperties?, at time: SimTime, within: Bool? = nil
    ) {
        if !viewCosts.isEmpty, let cost = viewCosts[slot] {
            // R6: a view with a cost adds it to the next commit once, however often it changes.
            let epoch = device.lastFrameID
            if cost.chargedAt != epoch {
                viewCosts[slot]?.chargedAt = epoch
                device.markUIDirty(extra: cost.phases)
            } else {
                device.markUIDirty()
            }
        } else {
            device.markUIDirty()
        }
        // A settling watch records the change; a settled one notes it as late; others ignore it.
        guard let watch, watch.state == .settling || watch.state == .settled, !watch.detached else { return }
        guard within ?? tree.isWithin(slot, subtreeOf: watch.root) else { return }
        let first = watch.state == .settling && tree.stamp(slot, epoch: epoch)
        let name = watch.needsName(kinds: kinds) ? tree.name(slot) : nil
        watch.note(slot, serial: tree[slot].serial, name: name, kinds: kinds, before: before, first: first, at: time)
    }

    // MARK: - Animation ticks (L1, A1)

    /// Starts listening to the app's UI-link ticks while something animates.
    func listenToTicks() {
        if tickObserver == nil { tickObserver = device.addObserver(relay, kinds: .animationTick) }
    }

    private func stopListeningIfIdle() {
        if animations.isEmpty && spins.isEmpty, let token = tickObserver {
            device.removeObserver(token)
            tickObserver = nil
        }
    }

    /// One tick of the app's UI link: `view animate` moves frames by progress, `view spin` turns.
    func tick(timestamp: SimTime, start: SimTime) {
        var i = 0
        while i < animations.count {
            let animation = animations[i]
            guard isCurrent(animation.slot, serial: animation.serial) else {
                device.endAnimation(animation.token)
                animations.remove(at: i)
                continue
            }
            // L1: progress = min(1, (tick timestamp − start) / duration), linear, exact at 1.
            let elapsed = timestamp - animation.start
            let done = elapsed >= animation.duration
            let frame: FrameRect
            if done {
                frame = animation.to
            } else {
                let p = max(0, Double(elapsed.nanoseconds) / Double(animation.duration.nanoseconds))
                frame = FrameRect.interpolate(animation.from, animation.to, p)
            }
            applyFrame(animation.slot, frame, at: start)
            if done {
                // L1: active through the first tick that reaches progress 1.
                device.endAnimation(animation.token)
                animations.remove(at: i)
            } else {
                i += 1
            }
        }
        i = 0
        while i < spins.count {
            let spin = spins[i]
            if !isCurrent(spin.slot, serial: spin.serial) || (spin.end.map { start >= $0 } ?? false) {
                device.endAnimation(spin.token)
                spins.remove(at: i)
                continue
            }
            // L1: a spin changes the rotation at every tick (a twelve-spoke activity indicator).
            var properties = tree.properties(spin.slot)
            let before = properties
            properties.rotation = (properties.rotation + Spin.step).truncatingRemainder(dividingBy: 360)
            if tree.set(spin.slot, properties) != [] {
                changed(spin.slot, .rotation, before: before, at: start)
            }
            i += 1
        }
        stopListeningIfIdle()
    }

    private func applyFrame(_ slot: ViewSlot, _ frame: FrameRect, at time: SimTime) {
        var properties = tree.properties(slot)
        let before = properties
        properties.frame = frame
        let kinds = tree.set(slot, properties)
        if !kinds.isEmpty { changed(slot, kinds, before: before, at: time) }
    }

    /// The name of a view a checker frame refers to: kept if it was removed, else looked up.
    func name(of change: ViewChange) -> String {
        if let name = change.name { return name }
        return isCurrent(change.slot, serial: change.serial) ? tree.name(change.slot) : "?"
    }

    func isCurrent(_ slot: ViewSlot, serial: UInt64) -> Bool {
        tree.isAlive(slot) && tree[slot].serial == serial
    }

    /// Ends the animations and spins of views that are gone or replaced.
    func dropAnimationsOfRemovedViews() {
        animations.removeAll { animation in
            if isCurrent(animation.slot, serial: animation.serial) { return false }
            device.endAnimation(animation.token)
            return true
        }
        spins.removeAll { spin in
            if isCurrent(spin.slot, serial: spin.serial) { return false }
            device.endAnimation(spin.token)
            return true
        }
        stopListeningIfIdle()
    }

    /// The running `view animate` of a view, if any.
    func animation(of slot: ViewSlot) -> FrameAnimation? {
        animations.first { $0.slot == slot && isCurrent(slot, serial: $0.serial) }
    }

    func spin(of slot: ViewSlot) -> Spin? {
        spins.first {
            $0.slot == slot && isCurrent(slot, serial: $0.serial) && ($0.end.map { device.now < $0 } ?? true)
        }
    }

    static let viewDomain = NameDomain("view")
}

/// A running `view animate`: a time-based frame animation (L1).
struct FrameAnimation {
    var slot: ViewSlot
    var serial: UInt64
    var from: FrameRect
    var to: FrameRect
    var start: SimTime
    var duration: SimDuration
    var token: AnimationToken
}

/// A running `view spin`: an activity indicator turning one spoke per tick.
struct Spin {
    /// Degrees per tick: twelve positions, as UIActivityIndicatorView's spokes.
    static let step = 30.0
    var slot: ViewSlot
    var serial: UInt64
    /// The end of a `--for` spin (its ticks run before it, A1); nil for one without an end.
    var end: SimTime?
    /// Its animating time (A2), ended when the spin is replaced, stopped or its view removed.
    var token: AnimationToken
    var start: SimTime
}

/// Forwards the device's animation ticks to the tool without making the tool a public observer.
final class TickRelay: DeviceObserver {
    weak var tool: LayoutSettleChecker?
    init(tool: LayoutSettleChecker) { self.tool = tool }

    func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        if case .animationTick(let timestamp, let start) = observation {
            tool?.tick(timestamp: timestamp, start: start)
        }
    }
}

extension FrameRect {
    /// The linear interpolation from `a` to `b` at progress `p` (L1).
    static func interpolate(_ a: FrameRect, _ b: FrameRect, _ p: Double) -> FrameRect {
        FrameRect(
            x: a.x + (b.x - a.x) * p, y: a.y + (b.y - a.y) * p, width: a.width + (b.width - a.width) * p,
            height: a.height + (b.height - a.height) * p)
    }
}

/// A view's cost per commit in which it changed, and the last frame id it was charged at (R6).
struct ViewCost {
    var phases: FramePhases
    var chargedAt: Int64
}
