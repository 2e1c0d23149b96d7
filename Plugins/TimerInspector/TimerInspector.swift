import DebugShellCore

/// The timer inspector (`timer`, `object`): the app's NSTimers, CADisplayLinks and GCD timers,
/// with the exact lateness of every firing and its cause (K2), skipped and merged firings,
/// run-loop-mode effects and retain-cycle leaks (K1).
///
/// The device does the timing (T1–T8, D1–D6, DL1–DL8); the inspector names the timers, keeps
/// each one's last 1,000 firings from the device's `timerFired` observations (published as each
/// callback starts, K2), tracks which
/// objects the timers retain, and reports. Per firing it does a constant amount of work: an
/// array lookup from the device's ``TimerID`` to its entry and a ring-buffer write.
public final class TimerInspector: DebugTool {
    /// The most timers a session keeps (docs/Limits.md).
    public static let maxTimers = 10_000_000

    static let timerDomain = NameDomain("timer")
    static let objectDomain = NameDomain("object")
    /// The name of a timer or object being created: nothing to complete (an error names it as
    /// a `new timer name`).
    static let newTimerDomain = NameDomain("new timer")
    static let newObjectDomain = NameDomain("new object")

    let host: any ToolHost
    let device: any SimulatedDevice

    /// The app's timers in creation order, and by name.
    var entries: [TimerEntry] = []
    var entryByName: [String: Int] = [:]
    /// Each entry's firings, under the entry's index.
    ///
    /// The log lives in a cell the inspector allocates and frees, as the log keeps its rings'
    /// records: a firing reaches it without the run-time exclusivity check that every access to a
    /// class's stored property costs (two runtime calls, about 120 instructions, on the path
    /// every off-grid firing takes). All its accesses are from the one isolation domain that
    /// owns the device, and none outlives the call that makes it.
    var log: FiringLog {
        _read { yield logCell.pointee }
        _modify { yield &logCell.pointee }
    }
    private let logCell: UnsafeMutablePointer<FiringLog>
    var objects: [ObjectEntry] = []
    var objectByName: [String: Int] = [:]

    /// Timers that still retain their target or may fire: created minus ended (K1, T6).
    var liveCount = 0
    /// Entries whose largest lateness is above the threshold (K2), as the log counts them.
    var lateCount: Int { log.lateCount }
    /// Objects released by the shell and kept alive by timers.
    var leakCount = 0
    /// The largest lateness of any app timer's firing, and its cause, for the status line.
    var maxLate: SimDuration? { log.maxLate?.lateness }
    var maxLateCause: LatenessCause? { log.maxLate?.cause }
    var lateThreshold = TimerInspector.lateThresholdSetting.defaultValue
    /// Which firings `timer watch` prints (the log decides, firing by firing).
    var watching: WatchedFirings {
        get { log.watching }
        set { log.watching = newValue }
    }
    /// Records every firing, on-grid ones too: the reference the run-length history is tested
    /// against.
    var keepsEveryFiring: Bool {
        get { log.keepsEveryFiring }
        set { log.keepsEveryFiring = newValue }
    }
    var observer: ObserverToken?
    /// Whether the status line shows: once a timer or object was made.
    var used = false

    public init(host: any ToolHost) {
        self.host = host
        self.device = host.device
        logCell = .allocate(capacity: 1)
        logCell.initialize(to: FiringLog())
        readThreshold()
    }

    deinit {
        logCell.deinitialize(count: 1)
        logCell.deallocate()
    }

    // MARK: Commands

    public func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        switch try invocation.command(Command.self) {
        case .timer:
            switch try invocation.verb(TimerVerb.self) {
            case .nstimer: return try makeRunLoopTimer(invocation)
            case .gcd: return try makeDispatchTimer(invocation)
            case .displaylink: return try makeDisplayLink(invocation)
            case .after: return try makeAfter(invocation)
            case .countdown: return try makeCountdown(invocation)
            case .pause: return try pause(invocation)
            case .resume: return try resume(invocation)
            case .invalidate: return try invalidate(invocation)
            case .list: return list(invocation)
            case .show: return try show(invocation)
            case .plot: return try plot(invocation)
            case .watch:
                watching = invocation[Self.watchState] ?? .off
                subscribe()
                return CommandOutput(
                    json: .fields(["watch": .bool(self.watching != .off), "late_only": .bool(self.watching == .late)]))
            case .leaks: return leaks()
            }
        case .object:
            switch try invocation.verb(ObjectVerb.self) {
            case .new: return try newObject(invocation)
            case .release: return try releaseObject(invocation)
            case .list: return objectList()
            }
        }
    }

    /// The entry named `name`, or an error with a did-you-mean.
    func entry(named name: String) throws(CommandError) -> Int {
        if let index = entryByName[name] { return index }
        var message = "unknown timer '\(name)'"
        if let guess = NameSuggestion.closest(to: name, in: entries.map(\.name)) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " (see 'timer list')"
        }
        throw CommandError(message)
    }

    /// Invalidates an entry's timer. A run-loop timer invalidated during its callback gets no
    /// next fire date, so that firing skips nothing (T4), as the device counts it too.
    func invalidateTimer(_ index: Int) {
        let running = entries[index].kind == .runLoopTimer && info(index)?.inCallback == true
        device.invalidate(entries[index].id)
        entries[index].invalidatedAt = device.now
        if running { log.clearNewestExtra(index, fires: info(index)?.fires ?? 0) }
    }

    /// The device's current record of an entry's timer.
    func info(_ index: Int) -> TimerInfo? { device.timerInfo(entries[index].id) }

    // MARK: Metrics

    public func metric(_ name: String) -> MetricValue? {
        switch name {
        case "timer.count": return .integer(Int64(liveCount))
        case "timer.late": return .integer(Int64(lateCount))
        case "timer.leaks": return .integer(Int64(leakCount))
        case "timer.wakeups": return .integer(device.timerWakeups(appOnly: true))
        default: break
        }
        // timer.<name>.<field>; a name may contain dots.
        let prefix = "timer."
        guard name.hasPrefix(prefix), let dot = name.lastIndex(of: "."),
            case let start = name.index(name.startIndex, offsetBy: prefix.count), start < dot
        else { return nil }
        let field = name[name.index(after: dot)...]
        let timerName = String(name[start..<dot])
        guard let index = entryByName[timerName], let info = info(index) else { return nil }
        let e = entries[index]
        switch field {
        case "fires": return .integer(info.fires)
        case "skipped": return .integer(e.kind == .dispatchTimer ? 0 : info.skipped)
        case "max_late": return log.maxLate(index, fires: info.fires).map { .duration($0.lateness) } ?? MetricValue.none
        case "last_data": return e.kind == .dispatchTimer && info.fires > 0 ? .integer(info.lastData) : MetricValue.none
        case "state": return .word(info.state.rawValue)
        default: return nil
        }
    }

    public func metricNames() -> [String] {
        var names = ["timer.count", "timer.late", "timer.leaks", "timer.wakeups"]
        // Five names a timer, made without a temporary array each (100,000 timers: 500,000 names).
        names.reserveCapacity(4 + 5 * entries.count)
        for e in entries {
            let stem = "timer." + e.name + "."
            names.append(stem + "fires")
            names.append(stem + "skipped")
            names.append(stem + "max_late")
            if e.kind == .dispatchTimer { names.append(stem + "last_data") }
            names.append(stem + "state")
        }
        return names
    }

    // MARK: Status line, completion, settings

    /// `timers 4 · late 1 (max 50ms, busy) · leaks 0 · wakeups 212`
    public func statusLine() -> StyledText? {
        guard used else { return nil }
        var line = StyledText()
        line.append("timers", .bold)
        line.append(" \(liveCount) · ")
        line.append("late \(lateCount)", lateCount > 0 ? .color(RGB(230, 160, 0)) : .plain)
        if lateCount > 0, let maxLate {
            line.append(" (max \(Format.duration(maxLate))\(maxLateCause.map { ", \($0.rawValue)" } ?? ""))")
        }
        line.append(" · ")
        line.append("leaks \(leakCount)", leakCount > 0 ? .color(RGB(220, 50, 47)) : .plain)
        line.append(" · wakeups \(device.timerWakeups(appOnly: true))")
        return line
    }

    public func candidates(for domain: NameDomain) -> [String] {
        switch domain {
        case TimerInspector.timerDomain: return entries.map(\.name)
        case TimerInspector.objectDomain: return objects.map(\.name)
        default: return []
        }
    }

    /// timer.fired while `timer watch on` (or `late`) is on.
    public func isSaying(_ event: String) -> Bool { event != "timer.fired" || watching != .off }

    public func settingDidChange(_ name: String) {
        guard name == Self.lateThresholdSetting.name else { return }
        readThreshold()
        // Whether a timer ever fired late is whether its largest lateness is above the threshold.
        log.lateCount = entries.indices.reduce(0) { count, index in
            let late = log.maxLate(index, fires: info(index)?.fires ?? 0).map { isLate($0.lateness) } ?? false
            return count + (late ? 1 : 0)
        }
    }

    private func readThreshold() {
        lateThreshold = host.setting(Self.lateThresholdSetting)
        log.lateThreshold = lateThreshold
    }

    func isLate(_ lateness: SimDuration) -> Bool { lateness > lateThreshold }
}

/// What `timer watch` prints: nothing, every firing (`on`), or the late ones (`late`).
enum WatchedFirings: String, CommandLineChoice {
    case all = "on", late, off
}

// MARK: - Firings

extension TimerInspector: DeviceObserver {
    /// Observes firings once the app has a timer: tools that never make one cost nothing.
    func observeFirings() {
        if observer == nil { observer = device.addObserver(self, kinds: firingKinds) }
    }

    /// Every firing while `timer watch on` prints them (or a test asks for every one to be
    /// recorded); otherwise only those off their timer's grid — a late firing is always off it,
    /// so `timer watch late` keeps the cheap subscription.
    private var firingKinds: ObservationKinds {
        watching == .all || keepsEveryFiring ? .timerFired : .timerFiredOffGrid
    }

    /// Changes what it observes, in place (its turn among the observers stays).
    func subscribe() {
        if let observer { device.changeObserver(observer, kinds: firingKinds) }
    }

    public func device(_ device: any SimulatedDevice, observed observation: DeviceObservation) {
        guard case .timerFired(let firing) = observation else { return }
        record(firing)
    }

    /// What the inspector's history says of a timer, from its own records alone: firings, the
    /// skips decided at now (T4, T8), a dispatch timer's data (D3) and the largest lateness (K2).
    /// Tests check it against the device's own counters.
    struct TimerHistory: Equatable {
        var fires: Int64
        var skipped: Int64
        var data: Int64
        var maxLate: SimDuration?
    }

    func history(_ name: String) -> TimerHistory? {
        guard let index = entryByName[name], let info = info(index) else { return nil }
        let fires = info.fires
        let extra = log.extraTotal(index, fires: fires)
        let maxLate = log.maxLate(index, fires: fires)?.lateness
        switch entries[index].kind {
        case .runLoopTimer:
            // The newest firing's skips are decided when its callback returns (T4).
            let undecided = info.inCallback ? log.newest(index, fires: fires)?.extra ?? 0 : 0
            return TimerHistory(fires: fires, skipped: extra - undecided, data: fires, maxLate: maxLate)
        case .dispatchTimer:
            return TimerHistory(fires: fires, skipped: 0, data: extra, maxLate: maxLate)
        case .displayLink:
            return TimerHistory(fires: fires, skipped: 0, data: fires, maxLate: maxLate)
        }
    }

    /// Keeps a firing of an app timer off its grid (on-grid ones are counts, not records —
    /// ``FiringLog``), and prints it under `timer watch`: O(1), and no allocation once the ring
    /// is full.
    private func record(_ firing: TimerFiring) {
        if let index = log.take(firing) { host.emit(firedEvent(firing, name: entries[index].name)) }
    }

    /// `[0.100s] timer: poll fired 50ms late (busy, scheduled 0.050s), skipped 1`
    private func firedEvent(_ f: TimerFiring, name: String) -> ToolEvent {
        var message = "\(name) fired"
        let late = isLate(f.lateness)
        if late {
            let cause = f.cause.map { "\($0.rawValue), " } ?? ""
            message += " \(Format.duration(f.lateness)) late (\(cause)scheduled \(Format.time(f.scheduled)))"
        }
        if f.kind == .dispatchTimer { message += ", data \(f.data)" }
        // Printed as the callback starts: its skips (T4) are decided only when it returns.
        return ToolEvent(
            name: "timer.fired", time: f.start, message: message,
            fields: [
                ("name", .string(name)), ("kind", .string(f.kind.rawValue)), ("scheduled_ns", JSONValue(f.scheduled)),
                ("start_ns", JSONValue(f.start)), ("end_ns", JSONValue(f.end)), ("lateness_ns", JSONValue(f.lateness)),
                ("late", .bool(late)), ("cause", late ? JSONValue(f.cause?.rawValue) : .null), ("data", .int(f.data)),
            ])
    }
}
