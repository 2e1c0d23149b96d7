import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// The breakpoints on the simulation (`break when`, `break on`), as LLDB's watchpoints: they stop
/// `run`, `step`, `run until`, `play` and `c` after the first instant at which one becomes true,
/// and that time command can then be continued (`c`). docs/Decisions.md, "Breakpoints".
///
/// Nothing here costs anything while no breakpoint is enabled: the time commands then take the
/// engine's plain paths. With `break when` conditions enabled, time moves as `run until` does,
/// the conditions read after each instant at which something happened (``WatchedCondition``:
/// a condition on the shell's own metrics is evaluated again only when one of them changed);
/// with `break on` events enabled, each event a tool emits is compared by name, and nothing
/// else is done while time moves (the main thread's item is read from the device at a stop).
final class Breakpoints {
    enum Kind {
        case when(Condition)
        /// An event's name, and text its message must contain (empty: any).
        case on(event: String, text: String)
    }

    struct Breakpoint {
        let id: Int
        let kind: Kind
        /// `when fps.value > 30`, `on layout.settled`.
        let text: String
        var enabled = true
        var hits = 0
        /// LLDB's ignore count (`--ignore n`): hits still to let pass before one stops time.
        var ignore = 0
        /// LLDB's one-shot (`--once`): deleted once it has stopped time.
        var once = false
        /// LLDB's breakpoint commands (`break command add`): run, in order, when it stops time,
        /// each as words with its aliases expanded and its name in full.
        var commands: [[Word]] = []
        /// Where `break command add` was written: its commands' errors say so.
        var commandsLocation = SourceLocation(origin: .typed, line: 0)

        /// `{ get clock.now; echo hi }`: the commands as a block, as `break command add` reads it.
        var commandsText: String { Breakpoints.block(commands) }
    }

    /// The commands of a breakpoint's stop, due to run once the time command that stopped has
    /// said so (``takeDue()``).
    struct Due {
        let id: Int
        let commands: [[Word]]
        let location: SourceLocation
    }

    /// Where a breakpoint stopped time.
    struct Hit {
        let id: Int
        let time: SimTime
        /// What made it true: the condition's values, or the event's message.
        let detail: String
        /// What the main thread was running then.
        let mainThread: String
    }

    /// What a breakpoint stopped, so that `c` can go on with it.
    enum Stopped {
        /// `run <d>`, `run to <t>`, `c` of those: events before `end`.
        case run(end: SimTime)
        /// `step`, `run through <t>`: events up to and including `end`'s.
        case through(end: SimTime)
        /// `run until`: the condition, the time it gives up at, and the timeout as written.
        case until(Condition, limit: SimTime, timeout: SimDuration)
        /// `play` at this speed.
        case play(speed: Double)
    }

    private(set) var all: [Breakpoint] = []
    private var nextID = 1
    /// Time moves with the breakpoints armed: an event a command emits otherwise stops nothing.
    private var advancing = false
    /// The breakpoint that stopped time during the current advance.
    private(set) var hit: Hit?
    /// What the last breakpoint stop left to continue; nil once anything else moved time.
    var stopped: Stopped?
    /// The last one-shot breakpoint deleted by its stop, for the stop's message.
    private var spent: (id: Int, text: String)?
    /// The commands of the last stop's breakpoint, not yet run.
    private var due: Due?

    /// The enabled `break on` breakpoints per event name: kept as each one is added, deleted,
    /// enabled or disabled, so that defining n breakpoints costs O(n), not O(n²).
    private var eventCounts: [String: Int] = [:]
    /// The enabled `break on` events' names.
    var events: Dictionary<String, Int>.Keys { eventCounts.keys }
    /// The condition of the `play until` that plays now.
    var playUntil: Condition?
    /// A one-off condition that is not a breakpoint of the list (`play until`), id 0: its text.
    private var untilText: String?

    /// The device whose main thread the breakpoints watch (`reset` makes a new one), and how
    /// many items it had begun when they started to: an item begun before is not said.
    private weak var watchedEngine: DeviceEngine?
    private var itemsBefore: Int64 = 0

    var isEmpty: Bool { all.isEmpty }
    var hasHit: Bool { hit != nil }
    var anyEnabled: Bool { all.contains { $0.enabled } }
    /// The conditions of the enabled `break when` breakpoints.
    var enabledConditions: [Condition] {
        all.compactMap { b in
            guard b.enabled, case .when(let condition) = b.kind else { return nil }
            return condition
        }
    }

    // MARK: The list

    func add(_ kind: Kind, text: String, ignore: Int = 0, once: Bool = false) -> Breakpoint {
        var breakpoint = Breakpoint(id: nextID, kind: kind, text: text)
        breakpoint.ignore = ignore
        breakpoint.once = once
        nextID += 1
        all.append(breakpoint)
        count(breakpoint, 1)
        return breakpoint
    }

    /// Ids only grow and the list keeps their order: a binary search.
    func index(of id: Int) -> Int? {
        var lo = 0
        var hi = all.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if all[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < all.count && all[lo].id == id ? lo : nil
    }

    func delete(_ id: Int) {
        guard let i = index(of: id) else { return }
        count(all[i], -1)
        all.remove(at: i)
    }

    func deleteAll() {
        all.removeAll()
        eventCounts = [:]
    }

    /// `break command add` (replacing any) or, with none, `break command delete`.
    func setCommands(_ id: Int, _ commands: [[Word]], at location: SourceLocation) {
        guard let i = index(of: id) else { return }
        all[i].commands = commands
        all[i].commandsLocation = location
    }

    /// Takes the commands a breakpoint's stop left to run, if any: the session runs them once
    /// the time command that stopped has printed its stop.
    func takeDue() -> Due? {
        defer { due = nil }
        return due
    }

    /// A block's text: `{ a b; c }`, which the lexer reads back as the same commands.
    static func block(_ commands: [[Word]]) -> String {
        "{ " + commands.map { $0.map(\.raw).joined(separator: " ") }.joined(separator: "; ") + " }"
    }

    func setEnabled(_ id: Int, _ enabled: Bool) {
        guard let i = index(of: id) else { return }
        count(all[i], -1)
        all[i].enabled = enabled
        count(all[i], 1)
    }

    /// The commands that make this list again in a fresh session, with the same ids and states:
    /// a recording made after a `reset`, which breakpoints survive, starts with them. An id
    /// deleted before is defined and deleted again, so that the next `break` gets the same id.
    func definitions() -> [String] {
        guard nextID > 1 else { return [] }
        var lines: [String] = []
        var gaps: [Int] = []
        var disabled: [Int] = []
        var commands: [String] = []
        var k = 0
        for id in 1..<nextID {
            guard k < all.count, all[k].id == id else {
                lines.append("break when clock.now < 0s")
                gaps.append(id)
                continue
            }
            let b = all[k]
            k += 1
            // The ignore count still to go, and the one-shot, as they stand.
            let options = (b.once ? " --once" : "") + (b.ignore > 0 ? " --ignore \(b.ignore)" : "")
            switch b.kind {
            case .when(let condition): lines.append("break when\(options) \(condition.text)")
            case .on(let event, let text):
                lines.append("break on\(options) \(event)" + (text.isEmpty ? "" : " " + Lexer.quote(text)))
            }
            if !b.enabled { disabled.append(id) }
            if !b.commands.isEmpty { commands.append("break command add \(id) \(b.commandsText)") }
        }
        lines += commands
        if !gaps.isEmpty { lines.append("break delete " + gaps.map(String.init).joined(separator: " ")) }
        if !disabled.isEmpty { lines.append("break disable " + disabled.map(String.init).joined(separator: " ")) }
        return lines
    }

    /// Counts an enabled `break on` breakpoint in (+1) or out (-1) of ``events``.
    private func count(_ b: Breakpoint, _ delta: Int) {
        guard b.enabled, case .on(let name, _) = b.kind else { return }
        let n = eventCounts[name, default: 0] + delta
        eventCounts[name] = n > 0 ? n : nil
    }

    // MARK: An advance

    /// Arms the breakpoints before time moves, and gives the enabled conditions to check after
    /// each instant: each one's readers are made for the tools of now (a `reset` makes new
    /// ones), and a condition that holds already stops time only once it has stopped holding
    /// and holds again.
    func arm(_ metrics: MetricReader, until: Condition? = nil) -> ConditionWatch {
        hit = nil
        advancing = true
        var watch = ConditionWatch()
        for (i, b) in all.enumerated() where b.enabled {
            guard case .when(let condition) = b.kind else { continue }
            var watched = WatchedCondition(condition, metrics)
            _ = watched.becameTrue()
            watch.armed.append((i, watched))
        }
        watch.until = until.map { WatchedCondition($0, metrics) }
        untilText = until?.text
        watchMainThread(metrics.simulation.engine)
        return watch
    }

    /// The condition of `play until` held after an instant: its stop.
    fileprivate func untilHeld(on engine: DeviceEngine) {
        hit = Hit(id: 0, time: engine.now, detail: "", mainThread: mainThreadNow(engine))
    }

    /// A tool emitted an event: the first enabled `break on` it matches stops time after this
    /// instant.
    func notice(_ event: ToolEvent, on engine: DeviceEngine) {
        guard advancing, hit == nil, events.contains(event.name) else { return }
        for (i, b) in all.enumerated() where b.enabled {
            guard case .on(let name, let text) = b.kind, name == event.name else { continue }
            guard text.isEmpty || Self.event(event, matches: text) else { continue }
            guard passIgnored(i) else { continue }
            record(i, detail: "", on: engine)
            engine.stopAfterThisInstant()
            return
        }
    }

    /// Whether an event matches a `break on` text: each `key=value` word names one of the event's
    /// fields and its value (`type=gpu`, `frame=12`, case-insensitive); the other words, as one
    /// phrase, must be in its message.
    static func event(_ event: ToolEvent, matches text: String) -> Bool {
        var phrase: [Substring] = []
        for word in text.split(separator: " ") {
            guard let eq = word.firstIndex(of: "="), eq != word.startIndex else {
                phrase.append(word)
                continue
            }
            let key = word[..<eq]
            let value = word[word.index(after: eq)...]
            guard let field = event.fields.first(where: { $0.0 == key }) else { return false }
            let actual: String
            switch field.1 {
            case .string(let s): actual = s
            case .int(let n): actual = String(n)
            case .bool(let b): actual = b ? "true" : "false"
            default: return false
            }
            guard actual.lowercased() == value.lowercased() else { return false }
        }
        return phrase.isEmpty || event.message.contains(phrase.joined(separator: " "))
    }

    /// A hit of breakpoint `i`: false while its ignore count lets it pass (the hit counted, as
    /// LLDB counts them). Not inlined: the optimizer would otherwise hold an access to ``all``
    /// across a check of the conditions, a runtime exclusivity check after every instant.
    @inline(never)
    fileprivate func passIgnored(_ i: Int) -> Bool {
        guard all[i].ignore > 0 else { return true }
        all[i].ignore -= 1
        all[i].hits += 1
        return false
    }

    fileprivate func record(_ i: Int, detail: String, on engine: DeviceEngine) {
        all[i].hits += 1
        hit = Hit(id: all[i].id, time: engine.now, detail: detail, mainThread: mainThreadNow(engine))
    }

    /// Takes the hit of the advance that just ended, if any.
    func takeHit() -> Hit? {
        advancing = false
        defer { hit = nil }
        due = nil
        if let hit, let i = index(of: hit.id), !all[i].commands.isEmpty {
            due = Due(id: hit.id, commands: all[i].commands, location: all[i].commandsLocation)
        }
        // A one-shot breakpoint that stopped time is done; the stop's message still names it.
        if let hit, let i = index(of: hit.id), all[i].once {
            spent = (hit.id, all[i].text)
            delete(hit.id)
        }
        return hit
    }

    /// The breakpoint with this id's text, for the stop's message.
    func text(of id: Int) -> String {
        if id == 0 { return untilText.map { "until \($0)" } ?? "until" }
        return index(of: id).map { all[$0].text } ?? (spent?.id == id ? spent?.text : nil) ?? "breakpoint \(id)"
    }

    // MARK: The main thread

    /// Starts to watch the main thread, once per device: the items it begins from now on are
    /// said at a stop. Nothing is done per item; the device keeps its last one.
    private func watchMainThread(_ engine: DeviceEngine) {
        if watchedEngine === engine { return }
        watchedEngine = engine
        itemsBefore = engine.mainItemsBegun
    }

    /// Stops watching the main thread (no breakpoint left).
    func stopWatching(_ engine: DeviceEngine) {
        watchedEngine = nil
    }

    /// What the main thread ran last, of the items it began since the breakpoints watch it.
    private func lastItem(_ engine: DeviceEngine) -> MainThreadItem? {
        guard watchedEngine === engine, engine.mainItemsBegun > itemsBefore else { return nil }
        return engine.lastMainItem
    }

    /// `block 'stall 300ms' (0s to 300ms)`, `idle since 300ms (last: …)`, `idle`.
    private func mainThreadNow(_ engine: DeviceEngine) -> String {
        let now = engine.now
        let lastItem = lastItem(engine)
        if let item = lastItem, item.start <= now, now < item.end {
            return "\(item.kind.rawValue) '\(item.label)' (\(item.start) to \(item.end))"
        }
        if engine.busyUntil > now { return "busy until \(engine.busyUntil)" }
        if let item = lastItem {
            return "idle since \(item.end) (last: \(item.kind.rawValue) '\(item.label)')"
        }
        return "idle"
    }
}

/// The conditions armed for one advance of time (``Breakpoints/arm(_:until:)``), checked after
/// each instant. The time driver keeps it in a local variable that the engine's condition
/// closure, which does not escape, captures: checked there, its state costs no exclusivity
/// check of the runtime per instant, as a class's property would.
struct ConditionWatch {
    /// The enabled `break when` conditions, each with the index of its breakpoint.
    fileprivate var armed: [(index: Int, watched: WatchedCondition)] = []
    /// `play until`'s condition, which is no breakpoint of the list.
    fileprivate var until: WatchedCondition?

    var isEmpty: Bool { armed.isEmpty && until == nil }

    /// After an instant: whether a condition became true (the first, by id, is the hit), the
    /// one-off condition of `play until` holds, or a `break on` stopped time at this instant.
    mutating func check(_ breakpoints: Breakpoints, on engine: DeviceEngine) -> Bool {
        // A `break on` hit during the instant asked the engine to stop after it; nothing else
        // sets a hit while time moves (a condition's stops time at once).
        if engine.stopsAfterThisInstant && breakpoints.hasHit { return true }
        var stop = false
        for k in armed.indices {
            if armed[k].watched.becameTrue() && !stop && breakpoints.passIgnored(armed[k].index) {
                breakpoints.record(armed[k].index, detail: armed[k].watched.valuesRead(), on: engine)
                stop = true
            }
        }
        if !stop, until != nil, until!.holds() {
            breakpoints.untilHeld(on: engine)
            stop = true
        }
        return stop
    }
}

/// A condition read after each instant while time moves (`break when`, `run until`, `play
/// until`): its metrics resolved once, as time starts to move, and read by number.
///
/// A condition on the shell's own metrics (the device's: `main.hangs`, `clock.vsyncs`, …, and
/// the recording's) reads them all — plain reads of the device, which do nothing else — and is
/// evaluated again only when one of them changed since the last check: its truth is a function
/// of those values, so an instant that changed none of them leaves it as it was. A condition
/// that reads a tool's metric reads it as it always did, term by term as `and` and `or` decide,
/// at every check: a tool's read is its own code, which the shell does not second-guess
/// (docs/Decisions.md, "Breakpoints that cost what changes").
struct WatchedCondition {
    /// How a check reads the condition's metrics.
    private enum Reading {
        /// Every metric is the shell's with a stamp (``ShellStamp``): the stamps are compared,
        /// the values read and the condition evaluated only on a change.
        case stamps([ShellStamp])
        /// Every metric is the shell's own or the recording's: the values are compared, the
        /// condition evaluated only on a change.
        case values
        /// A tool's metric: the condition reads its metrics as it decides, every check.
        case tool
    }

    let condition: Condition
    private let names: [String]
    private let readers: [() -> MetricValue]
    private let reading: Reading
    /// The device its stamps read: the one time moves on (a `reset`, which makes a new one,
    /// cannot run while time moves).
    private let engine: DeviceEngine
    /// The stamps and values of the last check, and what the condition was then.
    private var stamps: [Int64]
    private var values: [MetricValue]
    private var last: Bool?
    /// Whether it held after the last check of ``becameTrue()``.
    private var held = false
    /// How often the condition was evaluated (a test counts them: an instant that changed
    /// none of a pure condition's metrics evaluates nothing).
    private(set) var evaluations = 0

    init(_ condition: Condition, _ metrics: MetricReader) {
        self.condition = condition
        names = condition.metrics
        engine = metrics.simulation.engine
        readers = names.map { metrics.reader($0) }
        let shell = names.map { ShellMetrics.named($0) }
        if case let kinds = shell.compactMap({ $0?.stamp }), kinds.count == names.count {
            reading = .stamps(kinds)
        } else if names.allSatisfy({ ShellMetrics.named($0) != nil || RecordedMetrics.named($0) != nil }) {
            reading = .values
        } else {
            reading = .tool
        }
        stamps = Array(repeating: 0, count: names.count)
        values = Array(repeating: .none, count: names.count)
    }

    /// Whether the condition holds now.
    mutating func holds() -> Bool {
        var changed = last == nil
        switch reading {
        case .tool:
            evaluations &+= 1
            return condition.holds { readers[$0]() }
        case .stamps(let kinds):
            for k in kinds.indices {
                let stamp = kinds[k].read(engine)
                if stamp != stamps[k] {
                    stamps[k] = stamp
                    changed = true
                }
            }
            if !changed, let last { return last }
            for k in readers.indices { values[k] = readers[k]() }
        case .values:
            for k in readers.indices {
                let value = readers[k]()
                if value != values[k] {
                    values[k] = value
                    changed = true
                }
            }
            if !changed, let last { return last }
        }
        let values = values
        evaluations &+= 1
        let holds = condition.holds { values[$0] }
        last = holds
        return holds
    }

    /// Whether the condition holds now and did not at the last check (a watchpoint's edge); the
    /// first check, as time starts to move, only notes whether it holds.
    mutating func becameTrue() -> Bool {
        let holds = holds()
        defer { held = holds }
        return holds && !held
    }

    /// `(main.hangs = 1)`: the values of its metrics now, for a stop's message.
    func valuesRead() -> String {
        "(" + names.indices.map { "\(names[$0]) = \(readers[$0]().text)" }.joined(separator: ", ") + ")"
    }
}

extension OutputRouter {
    /// A breakpoint's stop of `play`, said where time stopped: a line on standard output, or
    /// under --json `{"event": "breakpoint", "t_ns": …, "breakpoint": 1, "message": …}`.
    func breakpointStop(_ hit: Breakpoints.Hit, line: String) {
        let text =
            json
            ? JSONValue.object([
                ("event", .string("breakpoint")), ("t_ns", .int(hit.time.nanoseconds)),
                ("breakpoint", .int(Int64(hit.id))), ("message", .string(line)),
            ]).serialized : line
        sink.write(text + "\n", to: .standardOutput)
    }
}
