import DebugShellCore
import DebugShellInterpreter

/// Where the session is in nested scripts and scheduled commands, and which commands run now:
/// what `source`, the scheduler, the time driver and the recorder share, so that a script that
/// sources itself stops once, a scheduled command cannot move time, and a trap's last words name
/// the command that was running.
final class ScriptNesting {
    /// The deepest `source` nesting (README, Limits).
    static let maxDepth = 64

    /// `source` levels now.
    var depth = 0
    /// The `source` level at which the current scheduled command started.
    var baseDepth = 0
    /// A `source` passed the nesting limit: every `source` above the base level stops, whatever
    /// `--keep-going` says, so a script that sources itself fails once (SPEC §13).
    var abandoning = false
    /// Running a scheduled command, or a file it sources: time may not advance, the simulation
    /// may not reset, and errors say when they happened.
    var inScheduledCommand = false
    /// Running a breakpoint's commands (`break command add`): the breakpoint's stop runs them
    /// again in a replay, so `record` and `history` keep none of them.
    var inBreakpointCommands = false
    /// The last command of the script itself (not of a file it sources, a scheduled one or a
    /// breakpoint's), and the `exit` or `quit` that ended the session, if one did
    /// (``Session/endPlace``).
    var lastPlace: SourceLocation?
    var exitPlace: SourceLocation?
    /// The commands running now, innermost last (a scheduled one inside a `run`, a sourced
    /// file's inside `source`), for a trap's last words.
    var running: [RunningCommand] = []

    /// A command typed or read from a script the user named, not from a sourced file or the
    /// scheduler: `history` keeps it.
    var isTopLevel: Bool { depth == 0 && !inScheduledCommand && !inBreakpointCommands }
}

/// The command running now, innermost (a scheduled one inside a `run`): what last words name.
struct RunningCommand {
    /// Its words as typed, and where it was issued.
    var words: ArraySlice<Word>
    var location: SourceLocation
    var scheduled: Bool
    /// Once parsed, when `record` keeps it: its words (aliases expanded) and where it was issued.
    var recorded: (words: ArraySlice<Word>, at: SessionRecorder.Position)?
}
