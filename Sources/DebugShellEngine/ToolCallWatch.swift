import Synchronization

/// Whether a plugin's code runs now, as another thread can see it: debugsh's watchdog
/// (Sources/debugsh/Watchdog.swift) reads it to find a plugin call that does not return
/// (docs/Plugins.md, "When a plugin does not return").
///
/// The thread that runs the session notes each change of whose code runs — the device around
/// each callback it makes and each observer it calls, the session around each call into a tool
/// (``DeviceEngine/running``) — in one word, ``stamp``: its lowest bit says that a watched
/// tool's code runs, the rest counts the changes. A stamp the watchdog reads twice, odd both
/// times and unchanged, is one call that has run all that time without returning. Only the
/// plugins' tools are watched (from ``watchFrom(_:)``): a built-in tool's command may take as
/// long as its work takes.
///
/// A note costs a relaxed load and store (plain moves on x86-64 and arm64: one writer), and is
/// made only when a watched tool's code starts or ends.
public final class ToolCallWatch: Sendable {
    /// The one watch of the process: engines made anew by `reset` note into it too.
    public static let shared = ToolCallWatch()

    private let word = Atomic<UInt64>(0)
    private let firstWatched = Atomic<Int32>(.max)
    private let deadlineWord = Atomic<Int64>(0)

    private init() {}

    /// The stamp now: odd while a watched tool's code runs; it changes whenever that code starts
    /// or ends.
    public var stamp: UInt64 { word.load(ordering: .relaxed) }

    /// Whose calls are watched: the tools from index `tool` on (those after the built-in ones).
    public func watchFrom(_ tool: Int32) { firstWatched.store(tool, ordering: .relaxed) }

    /// `plugin.deadline` in nanoseconds of wall time (0: none), for the watchdog to read.
    public var deadline: Int64 {
        get { deadlineWord.load(ordering: .relaxed) }
        set { deadlineWord.store(newValue, ordering: .relaxed) }
    }

    /// Whether the code of the tool at `tool` (-1: debugsh's own) is watched.
    @inline(__always) func isWatched(_ tool: Int32) -> Bool { tool >= firstWatched.load(ordering: .relaxed) }

    /// Whether the last note said a watched tool's code runs.
    @inline(__always) var inWatchedCode: Bool { word.load(ordering: .relaxed) & 1 != 0 }

    /// Notes that from now on a watched tool's code runs, or not.
    @inline(__always) func note(inWatchedCode: Bool) {
        let old = word.load(ordering: .relaxed)
        word.store(((old | 1) &+ 1) | (inWatchedCode ? 1 : 0), ordering: .relaxed)
    }

    /// Notes the change from the code of the tool at `from` to that of the tool at `to`, when
    /// either is watched.
    @inline(__always) func noteChange(from: Int32, to: Int32) {
        let first = firstWatched.load(ordering: .relaxed)
        if from >= first || to >= first { note(inWatchedCode: to >= first) }
    }
}
