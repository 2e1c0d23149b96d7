import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// The command running now, innermost (a scheduled one inside a `run`): what last words name.
struct RunningCommand {
    /// Its words as typed, and where it was issued.
    var words: ArraySlice<Word>
    var location: SourceLocation
    var scheduled: Bool
    /// Once parsed, when `record` keeps it: its words (aliases expanded) and where it was issued.
    var recorded: (words: ArraySlice<Word>, at: SessionRecorder.Position)?
}

extension Session {
    /// Runs `body`, a call into the code of the tool at `tool`, noting it on the device (and
    /// `label`, the name the call is about: a metric, a setting) for a trap's last words; what the
    /// tool registers meanwhile is its own.
    @inline(__always)
    func calling<T, E: Error>(
        _ kind: RunningCode.Kind, tool: Int, label: String? = nil, _ body: () throws(E) -> T
    ) throws(E) -> T {
        let device = engine
        let saved = device.running
        device.running = RunningCode(kind: kind, tool: Int32(truncatingIfNeeded: tool), time: device.now)
        let savedLabel = toolCallLabel
        if let label { toolCallLabel = label }
        defer {
            device.running = saved
            toolCallLabel = savedLabel
        }
        return try body()
    }

    /// What trapped, in what, when, and during which command — the first part of the last words
    /// the front end prints when a trap ends the process (`signal`: the trap's signal):
    /// `plugin 'careless' trapped in its display-link callback at 1.250s, during 'run 2s' (s.dsh:5)`.
    /// Read in the rescue's copy of the process, so it may take its time.
    public func trapDescription(signal: Int32) -> String {
        let running = engine.running
        let index = Int(running.tool)
        let descriptors = registry.toolDescriptors
        let toolName = descriptors.indices.contains(index) ? descriptors[index].name : nil
        var who: String
        var ours = false
        if let toolName {
            if let plugin = plugins.first(where: { $0.tools.contains(toolName) })?.name ?? loadingPlugin {
                who = plugin == toolName ? "plugin '\(plugin)'" : "plugin '\(plugin)' (tool '\(toolName)')"
            } else {
                who = "the built-in tool '\(toolName)'"
                ours = true
            }
        } else {
            who = "debugsh"
            ours = true
        }
        let at = running.time.eventStamp
        let label = toolCallLabel.map { " '\(VisibleText.escaped($0))'" } ?? ""
        let timer: String = {
            guard running.detail >= 0, let info = engine.timerInfo(TimerID(rawValue: running.detail)),
                !info.label.isEmpty
            else { return "" }
            return " '\(VisibleText.escaped(info.label))'"
        }()
        var place: String
        var duringCommand = true
        switch running.kind {
        case .initializer: place = "in init(host:)"
        case .command:
            place = "in its command"
            if let command = runningCommands.last {
                place += " '\(VisibleText.escaped(Session.text(of: command.words)))'"
                if let line = command.location.text { place += " (\(line))" }
            }
            duringCommand = false
        case .metric: place = "in metric(_:)" + (label.isEmpty ? "" : " for\(label)")
        case .metricNames: place = "in metricNames()"
        case .statusLine: place = "in statusLine()"
        case .candidates: place = "in candidates(for:)"
        case .settingChange: place = "in settingDidChange(_:)" + (label.isEmpty ? "" : " for\(label)")
        case .runLoopTimer: place = "in its NSTimer callback\(timer)"
        case .dispatchTimer: place = "in its GCD timer handler\(timer)"
        case .displayLink: place = "in its display-link callback\(timer)"
        case .mainBlock: place = "in a main-queue block it queued"
        case .observer: place = "in device(_:observed:)"
        case .shell: place = ""
        }
        var text = "\(who) \(Session.trapVerb(signal))"
        if !place.isEmpty { text += " \(place)" }
        text += " at \(at)"
        if duringCommand, let command = runningCommands.last {
            text += ", during '\(VisibleText.escaped(Session.text(of: command.words)))'"
            if let line = command.location.text { text += " (\(line))" }
        }
        if ours { text += ": a bug in debugsh; please report it, with the recording if there is one" }
        return text
    }

    /// How the signal reads in last words: a Swift trap (a failed precondition, a forced nil, an
    /// index out of range, an overflow) is SIGILL on x86-64 and SIGTRAP on arm64.
    static func trapVerb(_ signal: Int32) -> String {
        switch signal {
        case 4, 5: return "trapped"
        case 6: return "aborted"
        case 7: return "crashed (bus error)"
        case 8: return "crashed (arithmetic exception)"
        case 11: return "crashed (segmentation fault)"
        default: return "crashed (signal \(signal))"
        }
    }

    /// Writes the recording as it stands, for a trap's rescue: the command that was running is in
    /// it, with the time line that reaches the instant of the trap, so that its replay runs into
    /// the same trap; a last comment gives the last words.
    ///
    /// - Returns: the file and the commands it keeps, or the failure; nil when not recording.
    public func rescueRecording(note: String) -> (path: String, result: Result<Int, FileIO.Failure>)? {
        guard let path = recorder.path else { return nil }
        // The command that was running, which the log keeps once it returns.
        if let recorded = runningCommands.last(where: { $0.recorded != nil })?.recorded {
            recorder.log(recorded.words, at: recorded.at)
        }
        // A callback trapped while time ran: the replay processes that instant, and so traps.
        let duringTime = engine.running.kind.isCallback
        if let failure = writeRecording(endingDone: duringTime ? true : nil, note: note) {
            return (path, .failure(failure))
        }
        return (path, .success(recorder.recording.commands))
    }
}
