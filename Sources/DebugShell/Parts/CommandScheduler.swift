import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// The same-instant chain a scheduled command belongs to: commands that scheduled commands for
/// the instant they ran in, one after the other (`alias z = after 0s z`).
struct SameInstantChain {
    /// The first few commands of the chain, for the message that ends it.
    var head: [String]
    /// How many commands the chain has.
    var length: Int
}

/// Scheduled commands (`after`, `at`, `every`): putting them on the device, running them when
/// their time comes through the session's one execute path, the bounds that keep a schedule
/// from running away, and what an interrupt held back.
final class CommandScheduler {
    /// How many commands scheduled commands may schedule for the instant they run in, per
    /// instant: a command that schedules itself there again would otherwise never let time move.
    static let maxSameInstantCommands = 10_000
    /// How many scheduled commands may wait at once (about 500 MB of them).
    static let maxPendingCommands = 1_000_000

    /// Scheduled commands waiting to run, and how many may.
    var pending = 0
    var pendingLimit = CommandScheduler.maxPendingCommands
    /// Scheduled commands an interrupt kept from running; scheduled again where time stopped.
    private var heldByInterrupt: [() -> Void] = []
    /// The same-instant chain of the scheduled command running now, if it started one.
    private var runningChain: SameInstantChain?
    /// The instant of `sameInstantCount`, and how many commands scheduled commands running at
    /// it have scheduled for it.
    private var sameInstantTime = SimTime(nanoseconds: -1)
    private var sameInstantCount = 0
    /// Scheduled commands that failed during the current advance of time.
    var failuresDuringAdvance = 0

    private let simulation: Simulation
    private let nesting: ScriptNesting
    private let output: OutputRouter
    /// Runs a command through the session's execute path (set by the session).
    var execute: (_ words: ArraySlice<Word>, _ issue: CommandIssue) -> Void = { _, _ in }

    init(simulation: Simulation, nesting: ScriptNesting, output: OutputRouter) {
        self.simulation = simulation
        self.nesting = nesting
        self.output = output
    }

    /// A fresh simulation has nothing scheduled.
    func resetSimulation() {
        pending = 0
        heldByInterrupt.removeAll()
        sameInstantTime = SimTime(nanoseconds: -1)
    }

    /// Checks the bounds and schedules `words` (a command or a block) to run at `start`, then
    /// every `interval` (zero: once), `runs` times in all.
    func schedule(
        _ words: ArraySlice<Word>, at start: SimTime, every interval: SimDuration, runs: Int64,
        from location: SourceLocation
    ) throws(CommandError) {
        // S1: time ends at the horizon, so nothing at it ever runs.
        guard start < .horizon else {
            throw CommandError(
                "\(start) is the 2^62 ns horizon itself: time stops there, so a command scheduled for it could never run"
            )
        }
        guard pending < pendingLimit else {
            throw CommandError("too many scheduled commands: at most \(grouped(pendingLimit)) may wait at once")
        }
        let chain = try sameInstantChain(scheduling: words, at: start)
        schedule(words, at: start, every: interval, remaining: runs, chain: chain, from: location)
    }

    /// Counts a command scheduled for the instant it is scheduled in by a scheduled command that
    /// runs in it: a chain of those never lets time move (`alias z = after 0s z`), so an instant
    /// takes at most ``maxSameInstantCommands`` of them.
    ///
    /// - Returns: the chain the new command belongs to, or nil when it is not in one.
    private func sameInstantChain(scheduling words: ArraySlice<Word>, at start: SimTime) throws(CommandError)
        -> SameInstantChain?
    {
        let now = simulation.engine.now
        guard nesting.inScheduledCommand, start == now else { return nil }
        if sameInstantTime != now {
            sameInstantTime = now
            sameInstantCount = 0
        }
        var chain = runningChain ?? SameInstantChain(head: [], length: 0)
        chain.length += 1
        if chain.head.count < 3 { chain.head.append(words.commandText) }
        sameInstantCount += 1
        let count = sameInstantCount
        let limit = CommandScheduler.maxSameInstantCommands
        guard count <= limit else {
            let shown = chain.head.joined(separator: " → ") + (chain.length > chain.head.count ? " → …" : "")
            throw CommandError(
                "'\(words.commandText)' would be command \(grouped(count)) scheduled for \(now) "
                    + "by commands running at \(now), over the limit of \(grouped(limit)) "
                    + "per instant: a chain that schedules itself for the instant it runs in never lets time move "
                    + "(\(shown), \(grouped(chain.length)) long); delay it, e.g. 'after 1ns'")
        }
        return chain
    }

    /// Schedules a command on the device; when it runs, it goes through the session's execute
    /// path as a scheduled command, and a repeating one schedules its next run first.
    private func schedule(
        _ words: ArraySlice<Word>, at time: SimTime, every interval: SimDuration, remaining: Int64,
        chain: SameInstantChain?, from location: SourceLocation
    ) {
        pending += 1
        simulation.engine.schedule(at: time) { [unowned self] in
            pending -= 1
            if interval > .zero && remaining > 1, let next = try? time.adding(interval), next < .horizon {
                schedule(words, at: next, every: interval, remaining: remaining - 1, chain: nil, from: location)
            }
            guard !output.isInterrupted() else {
                // Ctrl-C: time stops after this instant; the command runs when time moves again.
                let engine = simulation.engine
                engine.stopAfterThisInstant()
                heldByInterrupt.append { [unowned self] in
                    schedule(
                        words, at: simulation.engine.now, every: .zero, remaining: 1, chain: chain, from: location)
                }
                return
            }
            runScheduled(words, chain: chain, from: location)
        }
    }

    /// Schedules again, where time stopped, the commands an interrupt kept from running.
    func scheduleHeldCommands() {
        let held = heldByInterrupt
        heldByInterrupt.removeAll()
        for schedule in held { schedule() }
    }

    /// A scheduled command runs: nothing it runs may move time, and its errors say when it ran
    /// and where it was scheduled (docs/JSON.md).
    private func runScheduled(_ words: ArraySlice<Word>, chain: SameInstantChain?, from location: SourceLocation) {
        let outer = (nesting.inScheduledCommand, runningChain, nesting.baseDepth)
        nesting.inScheduledCommand = true
        runningChain = chain
        nesting.baseDepth = nesting.depth
        defer {
            (nesting.inScheduledCommand, runningChain, nesting.baseDepth) = outer
            nesting.abandoning = false
            // Ctrl-C while it ran: time stops after this instant.
            if output.isInterrupted() { simulation.engine.stopAfterThisInstant() }
        }
        guard let block = try? CommandScheduler.block(words) else {
            execute(words, .scheduled(from: location))
            return
        }
        // `{ a; b }`: one after another at the instant, each as a scheduled command of its own.
        for command in block { execute(command, .scheduled(from: location)) }
    }

    /// The commands of a block `{ a; b }` (the lexer keeps its `;` as words), or nil when the
    /// words are not one.
    ///
    /// - Throws: a block that is not closed, or that holds no command.
    static func block(_ words: ArraySlice<Word>) throws(CommandError) -> [ArraySlice<Word>]? {
        guard let first = words.first, !first.quoted, first.text == "{" else { return nil }
        guard let last = words.last, words.count > 1, !last.quoted, last.text == "}" else {
            throw CommandError("the block '{ … }' is not closed: '}' must be its last word, alone")
        }
        var commands: [ArraySlice<Word>] = []
        var depth = 0
        var start = words.index(after: words.startIndex)
        let end = words.index(before: words.endIndex)
        var i = start
        // Each level of a nested block scans what it holds (n levels: n²/2 words), so a word is
        // told from `{`, `}` and `;` by its length and one byte, not by comparing strings: 93% of
        // 10,000 nested levels' time was the comparisons.
        while i < end {
            switch CommandScheduler.punctuation(words[i]) {
            case UInt8(ascii: "{") where depth == 0 && words[i].partner > 0 && i + Int(words[i].partner) < end:
                // A nested block whose `}` the lexer noted: stepped over, so n levels cost n words
                // in all, not n²/2 (issue 36, 14).
                i += Int(words[i].partner)
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ";") where depth == 0:
                if i > start { commands.append(words[start..<i]) }
                start = i + 1
            default: break
            }
            i += 1
        }
        if start < end { commands.append(words[start..<end]) }
        guard !commands.isEmpty else { throw CommandError("the block '{ }' holds no command") }
        return commands
    }

    /// A word's one byte when it is one unquoted ASCII character (`{`, `}`, `;`), else 0.
    @inline(__always)
    static func punctuation(_ word: Word) -> UInt8 {
        guard !word.quoted else { return 0 }
        let utf8 = word.text.utf8
        guard utf8.count == 1, let byte = utf8.first else { return 0 }
        return byte
    }

    /// The commands that schedule a command, spelled out (an alias or a prefix is not checked).
    static let schedulingCommands = [AfterCommand.spec.name, AtCommand.spec.name, EveryCommand.spec.name]

    /// `after 300ms a; b` schedules `a` and runs `b` now, which is rarely what was meant: says
    /// so, and how to schedule both (docs/Decisions.md, "`;` after `after`").
    func warnAboutSemicolons(_ commands: [LexedCommand], origin: ScriptOrigin) {
        for (k, command) in commands.enumerated().dropLast() {
            let scheduling = CommandScheduler.schedulingCommands
            guard let first = command.words.first, !first.quoted, scheduling.contains(first.text),
                command.words.count >= 3, command.words[2].text != "{"
            else { continue }
            // `at 1s a; at 1s b` schedules each on purpose.
            let following = commands[k + 1]
            if let word = following.words.first, !word.quoted, scheduling.contains(word.text) {
                continue
            }
            let next = following.text
            let head = command.words.prefix(2).map(\.raw).joined(separator: " ")
            let rest = command.words.dropFirst(2).map(\.raw).joined(separator: " ")
            let location = SourceLocation(origin: origin, line: command.line)
            output.notice(
                VisibleText.escaped(
                    "\(location.prefix("warning"))'\(next)' runs now: ';' ends the command '\(first.text)' schedules; "
                        + "to schedule both, write '\(head) { \(rest); \(next) }'\(location.suffix)"))
        }
    }
}
