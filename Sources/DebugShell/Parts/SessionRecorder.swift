import DebugShellCore
import DebugShellEngine

/// `record`: the log of the session's commands since the start or the last `reset`, and the
/// file it is written to while recording.
struct SessionRecorder {
    /// Where a command was issued, as the log places it: the time, whether that instant's events
    /// were done, and how many instants the device had processed.
    typealias Position = (time: SimTime, done: Bool, advances: Int)

    /// The commands since the start or the last `reset`, each at the instant it was issued.
    private(set) var recording = Recording()
    /// The file written, while recording.
    var path: String?
    /// The size of the log when the file was last written.
    var writtenAt = 0
    /// How many times the file was written since the start (for the tests: recording a script
    /// of n commands writes it O(log n) times).
    var writes = 0

    var isWriting: Bool { path != nil }

    /// A new log, after `reset`: `preamble` puts a fresh session in the state it starts from.
    mutating func restart(preamble: [String]) {
        recording = Recording(preamble: preamble)
    }

    /// Where a command issued now would stand in the log.
    func position(of engine: DeviceEngine) -> Position {
        (engine.now, engine.instantDone, engine.instantsProcessed)
    }

    /// Logs a command (aliases expanded: a recording replays without them), issued at `position`.
    mutating func log(_ words: ArraySlice<Word>, at position: Position) {
        recording.append(
            words: words.lazy.map(\.raw), at: position.time, done: position.done, advances: position.advances)
    }

    /// A scheduled command failed during the session, which went on: so must a replay.
    mutating func replayMustKeepGoing() { recording.keepGoing = true }
}
