import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// What a trap's last words say: who trapped (a plugin, a built-in tool, debugsh), in what
/// call, when, and during which command — read in the rescue's copy of the process, so it may
/// take its time (docs/Plugins.md, "When a plugin traps").
struct LastWords {
    let engine: DeviceEngine
    let registry: ToolRegistry
    let tools: ToolSet
    /// The commands running, innermost last.
    let running: [RunningCommand]

    /// `plugin 'careless' trapped in its display-link callback at 1.250s, during 'run 2s' (s.dsh:5)`;
    /// `verb` says what the code did (`trapped`, `did not return`, `called exit(3)`); `from` names
    /// the place after "from" rather than "in" (`did not return from its command …`); `nobody` is
    /// who is named when no tool's code ran (nil: debugsh, a bug); `thread`: it trapped on a
    /// thread that is neither the session's nor one of debugsh's own, so a plugin's.
    func description(_ verb: String, from: Bool = false, nobody: String? = nil, thread: Bool = false) -> String {
        let code = engine.running
        let index = Int(code.tool)
        let descriptors = registry.toolDescriptors
        let toolName = descriptors.indices.contains(index) ? descriptors[index].name : nil
        var who: String
        var ours = false
        let load = tools.loading
        if thread {
            // Which plugin's thread is not known (a Swift trap's instruction is in the Swift
            // runtime, not the plugin): the one loaded, else the ones that may be.
            let names = tools.plugins.map(\.name) + (load?.name.map { [$0] } ?? [])
            switch names.count {
            case 0:
                who = "debugsh"
                ours = true
            case 1: who = "plugin '\(names[0])'"
            default: who = "a plugin (one of: \(names.joined(separator: ", ")))"
            }
        } else if let toolName {
            if let plugin = tools.plugins.first(where: { $0.tools.contains(toolName) })?.name ?? tools.loadingPlugin {
                who = plugin == toolName ? "plugin '\(plugin)'" : "plugin '\(plugin)' (tool '\(toolName)')"
            } else {
                who = "the built-in tool '\(toolName)'"
                ours = true
            }
        } else if code.kind.isLoad, let load {
            // Its tools are not registered yet: the plugin by name once its manifest said it,
            // else the library by the path given.
            who = load.name.map { "plugin '\($0)'" } ?? "the plugin library '\(VisibleText.escaped(load.path))'"
        } else if code.kind == .descriptor, let type = tools.describing {
            who = "the built-in tool type \(type)"
            ours = true
        } else {
            who = nobody ?? "debugsh"
            ours = nobody == nil
        }
        // Outside the calls into a tool's code the record of what runs says nothing of when:
        // the device's clock does (a trap at 1.5 s read 0.000s).
        let at = (code.kind == .shell || thread ? engine.now : code.time).eventStamp
        let label = tools.callLabel.map { " '\(VisibleText.escaped($0))'" } ?? ""
        let timer: String = {
            guard code.detail >= 0, let info = engine.timerInfo(TimerID(rawValue: code.detail)),
                !info.label.isEmpty
            else { return "" }
            return " '\(VisibleText.escaped(info.label))'"
        }()
        var place: String
        var duringCommand = true
        switch code.kind {
        case .initializer: place = "in init(host:)"
        case .command:
            place = "in its command"
            if let command = running.last {
                place += " '\(VisibleText.escaped(command.words.commandText))'"
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
        case .libraryLoad: place = "while the dynamic linker loaded it (its initializers)"
        case .versionEntryPoint: place = "in its entry point \(DebugShellPlugin.versionSymbol)"
        case .manifestEntryPoint: place = "in its entry point \(DebugShellPlugin.manifestSymbol)"
        case .descriptor:
            place = "in its descriptor" + (tools.describing.map { " (\($0).descriptor)" } ?? "")
        case .isSaying: place = "in isSaying(_:)" + (label.isEmpty ? "" : " for\(label)")
        case .jsonResult, .streamedOutput:
            place = code.kind == .jsonResult ? "in its JSON result" : "in its streamed output"
            if let command = running.last {
                place += " '\(VisibleText.escaped(command.words.commandText))'"
                if let line = command.location.text { place += " (\(line))" }
            }
            duringCommand = false
        case .deinitAtReset: place = "in its deinit at reset"
        case .shell: place = ""
        }
        if thread {
            place = who == "debugsh" ? "in a thread other than the session's" : "in a thread it started"
            duringCommand = true
        }
        if from, place.hasPrefix("in ") { place = "from " + place.dropFirst(3) }
        var text = "\(who) \(verb)"
        if !place.isEmpty { text += " \(place)" }
        text += " at \(at)"
        if duringCommand, let command = running.last {
            text += ", during '\(VisibleText.escaped(command.words.commandText))'"
            if let line = command.location.text { text += " (\(line))" }
        }
        if ours { text += ": a bug in debugsh; please report it, with the recording if there is one" }
        return text
    }

    /// How the signal reads in last words: a Swift trap (a failed precondition, a forced nil, an
    /// index out of range, an overflow) is SIGILL on x86-64 and SIGTRAP on arm64.
    static func verb(_ signal: Int32) -> String {
        switch signal {
        case 4, 5: return "trapped"
        case 6: return "aborted"
        case 7: return "crashed (bus error)"
        case 8: return "crashed (arithmetic exception)"
        case 11: return "crashed (segmentation fault)"
        default: return "crashed (signal \(signal))"
        }
    }
}

extension RunningCode.Kind {
    /// A call into a plugin while `plugin load` loads it, before its tools are registered.
    var isLoad: Bool {
        switch self {
        case .libraryLoad, .versionEntryPoint, .manifestEntryPoint, .descriptor: return true
        default: return false
        }
    }
}
