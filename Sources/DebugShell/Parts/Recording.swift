import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

/// The session's commands since the start or the last `reset`, as a script that replays them
/// (`record`): every command at its own instant and in its own place in that instant's order.
///
/// Commands go in as they were issued, aliases expanded and a `source`d file's one by one.
/// Between them, `run to <t>` and `run through <t>` lines move the replay's time exactly as the
/// session's moved — whether by `run`, `step`, `run until`, `play` or an interrupt — so a command
/// issued before the events of its instant (S3) replays before them, and one issued after an
/// instant was completed (after `step`) replays after them. The log is kept as text, appended to
/// in constant time per command, and bounded by ``limit``.
struct Recording {
    /// The most text the log keeps (about two million commands); past it the log stops and
    /// `record` says so.
    static let limit = 64 << 20

    /// Commands that put a fresh session in the state the log starts from: the display rate and
    /// the settings that differ from their defaults (both survive `reset`).
    var preamble: [String] = []
    /// Commands and time lines so far, as UTF-8 text.
    private(set) var body: [UInt8] = []
    /// Commands logged.
    private(set) var commands = 0
    /// Where the replay stands after `body`: a time, whether its instant's events are done, and
    /// how many instants the device had processed by then.
    private(set) var position = (time: SimTime.zero, done: false, advances: 0)
    /// A scheduled command failed during a `run`: the replay must go on past that failure too.
    var keepGoing = false
    /// The log reached ``limit`` at this time and stopped.
    private(set) var overflowedAt: SimTime?

    init(preamble: [String] = []) {
        self.preamble = preamble
    }

    /// Logs a command issued at `time`, before that instant's events or (`done`) after them, once
    /// the device had processed `advances` instants.
    mutating func append(_ command: String, at time: SimTime, done: Bool, advances: Int) {
        append(words: CollectionOfOne(command), at: time, done: done, advances: advances)
    }

    /// Logs a command given as its words (as typed, quotes kept), joined by spaces: the words
    /// go into the log as they are, with no joined string made first.
    mutating func append(
        words: some Collection<String>, at time: SimTime, done: Bool, advances: Int
    ) {
        guard overflowedAt == nil else { return }
        let line = Recording.advance(from: position, to: (time, done, advances)).map { $0 + "\n" } ?? ""
        var length = words.count
        for word in words { length += word.utf8.count }
        guard body.count + line.utf8.count + length <= Recording.limit else {
            overflowedAt = time
            return
        }
        body.append(contentsOf: line.utf8)
        var first = true
        for word in words {
            if !first { body.append(32) }
            body.append(contentsOf: word.utf8)
            first = false
        }
        body.append(10)
        position = (time, done, advances)
        commands += 1
    }

    /// Moves the log's position to where a breakpoint stopped time, with no command: the replay,
    /// which defines the same breakpoints, stops there too, and the line after it goes on as `c`
    /// went on. Without it the stop and the `c` after it were one time line, and the replay,
    /// stopped at the breakpoint, ran what came after the `c` there.
    mutating func mark(at time: SimTime, done: Bool, advances: Int) {
        guard overflowedAt == nil,
            let line = Recording.advance(from: position, to: (time, done, advances)).map({ $0 + "\n" })
        else { return }
        guard body.count + line.utf8.count <= Recording.limit else {
            overflowedAt = time
            return
        }
        body.append(contentsOf: line.utf8)
        position = (time, done, advances)
    }

    /// The line that moves a replay from one position to another, or nil when they are the same.
    ///
    /// Positions only move forward: an instant once done stays done. An advance that ends where
    /// it began at a done instant (`run until` whose condition holds at once) may still have
    /// processed that instant again — its main-thread step runs the work a command issued after
    /// the instant left for it — so it is written too; processing it again with no command in
    /// between changes nothing, so one line stands for any number.
    static func advance(
        from p: (time: SimTime, done: Bool, advances: Int), to q: (time: SimTime, done: Bool, advances: Int)
    ) -> String? {
        if p.time == q.time && p.done == q.done && !(q.done && q.advances != p.advances) { return nil }
        return q.done ? "run through \(q.time)" : "run to \(q.time)"
    }

    /// The whole script: a header, the preamble, the commands, and the time line that ends at
    /// `now` (`done`: with its instant's events processed). A plugin is required where it was
    /// loaded: in the preamble if before the log started, else in its place among the commands.
    func script(path: String, now: SimTime, done: Bool, advances: Int) -> String {
        var text = "# A debugsh session recorded with 'record': replay it with 'debugsh \(path)'.\n"
        text += "# Each command runs at the virtual time it was issued: 'run to' and 'run through' lines\n"
        text += "# move time as the session did.\n"
        if keepGoing {
            text += "# A scheduled command failed during the session, which went on: so does the replay.\n"
            text += "set shell.stop-on-error off\n"
        }
        for line in preamble { text += line + "\n" }
        text += String(decoding: body, as: UTF8.self)
        if let end = Recording.advance(from: position, to: (now, done, advances)) { text += end + "\n" }
        return text
    }
}
