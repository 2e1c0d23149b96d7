import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// What a built-in command may use of the shell: the parts it acts on, each with its own
/// behaviour, and never the session's own state — as an LLDB command gets an ExecutionContext
/// (target, process, thread, frame) and its interpreter, not the debugger's fields. The session
/// makes one for each command it runs.
struct CommandContext {
    /// The device (``engine``) and what the shell checks before handing it work.
    let simulation: Simulation
    /// Commands, metrics, settings and aliases.
    let vocabulary: Vocabulary
    /// The tools, their plugins and the calls into their code.
    let tools: ToolSet
    /// `after`, `at`, `every`.
    let scheduler: CommandScheduler
    /// `record`.
    let recorder: SessionRecorder
    /// `trace`.
    let tracing: TraceSession
    /// The recording imported (`import`, `recording`).
    let imported: ImportedTimeline
    /// The one way time moves, and the breakpoints.
    let time: TimeDriver
    /// `source` levels and scheduled commands.
    let nesting: ScriptNesting
    /// Where output goes.
    let output: OutputRouter
    /// The commands typed and read so far.
    let history: CommandHistory
    /// What only the session itself does.
    let shell: any CommandShell

    /// The device now.
    var engine: DeviceEngine { simulation.engine }

    /// Reads metrics and the conditions written over them.
    var metrics: MetricReader {
        MetricReader(vocabulary: vocabulary, tools: tools, simulation: simulation, imported: imported, output: output)
    }

    /// What `help` knows, at the width help is wrapped to.
    var helpTopics: HelpTopics { vocabulary.helpTopics(width: output.options.width) }

    /// Whether an interrupt (Ctrl-C) asks whatever runs to stop.
    var isInterrupted: Bool { output.isInterrupted() }
}

/// What only the session does for a command (LLDB's commands reach their CommandInterpreter
/// the same way): run a script one level deeper, start a fresh simulation, load a plugin, and
/// say how many commands failed.
protocol CommandShell: AnyObject {
    /// Runs a script's text as `source` does, one level deeper.
    func runNested(_ text: String, origin: ScriptOrigin, resolved: String) throws -> CommandOutput
    /// A fresh simulation: a new device at the current rate, new tool instances (`reset`).
    func resetSimulation()
    /// The same, with a fixed display of this rate and buffer count (`replay start`).
    func resetSimulation(display: (rate: RefreshRate, buffers: Int)?)
    /// Loads a plugin library and registers its tools, all or none; with `expected`, only if
    /// its plugin has that name.
    func loadPlugin(_ path: String, named expected: String?) throws(CommandError) -> LoadedPlugin
    /// Commands that failed so far.
    var failures: Int { get }
}
