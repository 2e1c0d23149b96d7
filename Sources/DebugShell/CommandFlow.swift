import DebugShellCore
import DebugShellInterpreter

/// How running some commands ended.
public enum ScriptOutcome: Equatable, Sendable {
    /// Every command ran (some may have failed under --keep-going).
    case finished
    /// A command failed and the script stopped there.
    case failed
    /// `exit` or `quit` asked to leave with this status.
    case exited(Int32)
    /// Ctrl-C stopped time.
    case interrupted
}

/// How a command came to run, which fixes how its echo and errors read and whether `history`
/// and `record` keep it.
enum CommandIssue {
    /// Typed, or read from a script or a sourced file at this place.
    case issued(at: SourceLocation)
    /// Run by the scheduler (`after`, `at`, `every`); scheduled at this place.
    case scheduled(from: SourceLocation)

    var location: SourceLocation {
        switch self {
        case .issued(let location), .scheduled(let location): return location
        }
    }

    var isScheduled: Bool {
        if case .scheduled = self { return true }
        return false
    }
}

/// Leaving or stopping: thrown out of commands and through nested sources.
enum SessionControl: Error {
    /// `exit` or `quit`.
    case exit(Int32)
    /// Ctrl-C; `reported` once a message named where it stopped (an inner `source`).
    case interrupted(reported: Bool)
    /// The command failed and its error has been printed already (a `source` whose script
    /// failed reports at the script's own line).
    case failedAndReported
}

/// A failed `expect`: the error it prints, and the condition and values it compared, which
/// `debugsh test` reports beside the line (docs/Testing.md).
struct ExpectationFailure: Error {
    let message: String
    let condition: String
    let values: String
}

extension ArraySlice where Element == Word {
    /// A command's text as written: its words as typed, joined by spaces (a scheduled command's
    /// text is made from them only when something shows it).
    var commandText: String { map(\.raw).joined(separator: " ") }
}
