import DebugShellEngine

/// What the front end's watchdog reads, from a thread of its own, while the session's thread may
/// be stuck in a plugin's code (docs/Plugins.md, "When a plugin does not return"): the device
/// notes each start and end of a plugin's code (``ToolCallWatch``), and `plugin.deadline` is
/// published here whenever it is set. Every member is safe to use from any thread.
public enum PluginCallWatch {
    /// Odd while a plugin's code runs; it changes whenever a plugin's code starts or ends, so
    /// one odd stamp read twice is one call that has not returned in between.
    public static var stamp: UInt64 { ToolCallWatch.shared.stamp }

    /// `plugin.deadline`, in nanoseconds of wall time; 0 (or less) for none.
    public static var deadline: Int64 { ToolCallWatch.shared.deadline }

    /// Watches the code of the tools from index `tool` on: the plugins' tools, which come after
    /// the built-in ones. Before the session is made: its device reads it once.
    public static func watchTools(from tool: Int) { ToolCallWatch.shared.watchFrom(Int32(clamping: tool)) }

    /// Stops the session's thread at its next note of a plugin's code, if the call of `stamp`
    /// is still running; false (and nothing stopped) when it returned meanwhile
    /// (``ToolCallWatch/freeze(ifStill:)``).
    public static func freeze(ifStill stamp: UInt64) -> Bool { ToolCallWatch.shared.freeze(ifStill: stamp) }
}
