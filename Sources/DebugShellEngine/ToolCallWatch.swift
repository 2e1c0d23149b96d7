import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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
/// A note costs a load, a sequentially consistent store and a load, and is made only when a
/// watched tool's code starts or ends: the device's own callbacks and the built-in tools' cost
/// a compare.
public final class ToolCallWatch: Sendable {
    /// The one watch of the process: engines made anew by `reset` note into it too.
    public static let shared = ToolCallWatch()

    private let word = Atomic<UInt64>(0)
    private let firstWatched = Atomic<Int32>(.max)
    private let deadlineWord = Atomic<Int64>(0)
    /// Set while the watchdog ends a call: the session's thread waits at its next note.
    private let frozen = Atomic<Bool>(false)

    private init() {}

    /// The stamp now: odd while a watched tool's code runs; it changes whenever that code starts
    /// or ends.
    public var stamp: UInt64 { word.load(ordering: .relaxed) }

    /// Whose calls are watched: the tools from index `tool` on (those after the built-in ones).
    /// An engine reads it when it is made: call it before the session makes one.
    public func watchFrom(_ tool: Int32) { firstWatched.store(tool, ordering: .relaxed) }

    /// `plugin.deadline` in nanoseconds of wall time (0: none), for the watchdog to read.
    public var deadline: Int64 {
        get { deadlineWord.load(ordering: .relaxed) }
        set { deadlineWord.store(newValue, ordering: .relaxed) }
    }

    /// The first tool whose code is watched (`Int32.max`: none), as the engine reads it when it
    /// is made: set before the session makes its first (``watchFrom(_:)``).
    var firstWatchedTool: Int32 { firstWatched.load(ordering: .relaxed) }

    /// Whether the last note said a watched tool's code runs.
    @inline(__always) var inWatchedCode: Bool { word.load(ordering: .relaxed) & 1 != 0 }

    /// Notes that from now on a watched tool's code runs, or not; made before the device's
    /// record of whose code runs changes, so that a thread that waits here (``freeze(ifStill:)``)
    /// leaves that record as it was.
    @inline(__always) func note(inWatchedCode: Bool) {
        let old = word.load(ordering: .relaxed)
        word.store(((old | 1) &+ 1) | (inWatchedCode ? 1 : 0), ordering: .sequentiallyConsistent)
        if frozen.load(ordering: .sequentiallyConsistent) { waitWhileFrozen() }
    }

    @inline(never) private func waitWhileFrozen() {
        while frozen.load(ordering: .sequentiallyConsistent) { usleep(1000) }
    }

    /// For the watchdog, about to end the call whose stamp it read: stops the session's thread
    /// at its next note and says whether the call is still the one of `stamp`. If it is, the
    /// thread is still in it, or waits for ever at the note its return makes, with the
    /// device's record of the call as it was: the watchdog's copy of the process sees the call
    /// whole. If not, the call returned meanwhile: the thread goes on, and so does the watch.
    /// (The store and the load on each side are sequentially consistent: one side sees the
    /// other's.)
    public func freeze(ifStill stamp: UInt64) -> Bool {
        frozen.store(true, ordering: .sequentiallyConsistent)
        if word.load(ordering: .sequentiallyConsistent) == stamp { return true }
        frozen.store(false, ordering: .sequentiallyConsistent)
        return false
    }

    /// Notes the change from the code of the tool at `from` to that of the tool at `to`, when
    /// either is watched (`first`: the first watched tool, as the engine keeps it).
    @inline(__always) func noteChange(from: Int32, to: Int32, first: Int32) {
        if max(from, to) >= first { note(inWatchedCode: to >= first) }
    }
}
