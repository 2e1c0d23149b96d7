/// Where the session is in nested scripts and scheduled commands: what `source` and the
/// scheduler share, so that a script that sources itself stops once and a scheduled command
/// cannot move time.
struct ScriptNesting {
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

    /// A command typed or read from a script the user named, not from a sourced file or the
    /// scheduler: `history` keeps it.
    var isTopLevel: Bool { depth == 0 && !inScheduledCommand }
}
