import DebugShellCore
import DebugShellImport
import DebugShellInterpreter

/// `import`: read a timeline a real device recorded — an Instruments trace exported by `xctrace`,
/// a CSV log — or that debugsh wrote (`fps frames --csv`, `trace save`), as the recording
/// `recording` and the `rec.*` metrics read (docs/Import.md).
struct ImportCommand: BuiltInCommand {
    static let paths = ArgumentSpec.words(
        "path", .path, abstract: "The exported tables (.xml, one or several per file), the TOC, or folders of them.")
    static let file = ArgumentSpec.path("file", abstract: "The file.")

    enum Verb: String, ToolVerbs {
        case xctrace, csv, chrome

        var declaration: VerbSpec {
            switch self {
            case .xctrace:
                return VerbSpec(
                    "xctrace",
                    abstract:
                        "Import tables an Instruments trace exported with 'xctrace export' (hitches, display, frames).",
                    discussion:
                        "Export them on a Mac: 'xcrun xctrace export --input App.trace --xpath '/trace-toc/run[@number=\"1\"]/data/table[@schema=\"hitches\"]' --output hitches.xml', one table per file or several, and the TOC with --toc. Tables are chosen by schema, columns by name: hitches (or hitches-summary), display-vsyncs-interval, displayed-surfaces-interval, display-surface-swap, device-display-info, hitches-updates, hitches-renders, hitches-frame-lifetimes, core-animation-fps-estimate. 'fps hitches --xctrace <file>' writes the simulation's hitches as a hitches-summary table. docs/Import.md has the details.",
                    arguments: [ImportCommand.paths],
                    examples: [
                        Example(
                            "> import xctrace no-such.xml\nerror: no-such.xml: cannot open: No such file or directory")
                    ])
            case .csv:
                return VerbSpec(
                    "csv",
                    abstract:
                        "Import a CSV log: a display link's callbacks (timestamp, …) or frames (vsync, commit, render, present, …).",
                    discussion:
                        "The header names the columns; docs/Import.md has both shapes. 'fps frames --csv <file>' writes the frames shape.",
                    arguments: [ImportCommand.file],
                    examples: [
                        Example("> import csv no-such.csv\nerror: no-such.csv: cannot open: No such file or directory")
                    ])
            case .chrome:
                return VerbSpec(
                    "chrome",
                    abstract: "Import a Chrome trace that 'trace save' wrote: its vsyncs, frames and hitches.",
                    arguments: [ImportCommand.file],
                    examples: [
                        Example(
                            "> import chrome no-such.json\nerror: no-such.json: cannot open: No such file or directory"
                        )
                    ])
            }
        }
    }

    static let spec = CommandSpec(
        "import",
        abstract:
            "Import a recording of a real device (xctrace, CSV) or of debugsh (a Chrome trace), beside the simulation.",
        discussion:
            "An import is all or nothing: a file that cannot be read leaves the recording open before it as it was. A new import takes the place of the one before. 'recording' reads it; the rec.* metrics answer 'get', 'expect' and baselines. Ctrl-C stops a long import.",
        verbs: Verb.declarations)

    /// Recorded by itself, with absolute paths: a replay reads the same files from any folder.
    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let verb = try call.verb(Verb.self)
        let interrupted = context.output.isInterrupted
        let paths: [String]
        switch verb {
        case .xctrace:
            paths = call[Self.paths].map(\.text)
            guard !paths.isEmpty else { throw CommandError("'import xctrace' needs the exported files or a folder") }
        case .csv, .chrome:
            paths = [call[Self.file]]
        }
        let timeline: RecordedTimeline
        do {
            switch verb {
            case .xctrace: timeline = try XCTraceImport.read(paths, interrupted: interrupted)
            case .csv: timeline = try CSVImport.read(paths[0], interrupted: interrupted)
            case .chrome: timeline = try ChromeTraceImport.read(paths[0], interrupted: interrupted)
            }
        } catch {
            if interrupted() { throw SessionControl.interrupted(reported: false) }
            throw CommandError(error.description)
        }
        let replaced = context.imported.timeline != nil
        let words = ["import", verb.rawValue] + paths.map { FileIO.absolute($0) }
        context.imported.open(timeline, importWords: words)
        context.recorder.logCommand(words)
        guard let analysis = context.imported.analysis else { return .silent }
        var line =
            "imported \(verb == .chrome ? "chrome" : timeline.format.rawValue) (\(paths.count == 1 ? paths[0] : "\(paths.count) paths")"
        // A recording saved by `recording save` reads back as the recording it was.
        if verb == .chrome, timeline.format != .chrome { line += ", saved from \(timeline.format.rawValue)" }
        line += "): "
        line += "\(grouped(analysis.frameCount)) frames"
        if analysis.hasHitchList { line += ", \(analysis.hitches.count) hitches" }
        if !timeline.linkCallbacks.isEmpty { line += ", \(grouped(timeline.linkCallbacks.count)) link callbacks" }
        line += " over \(analysis.span)"
        if timeline.refreshInterval != nil { line += ", " + RecordingCommand.display(timeline) }
        if replaced { line += " (in place of the recording before)" }
        return CommandOutput(
            text: ([line] + timeline.notes.map { "note: \($0)" }).joined(separator: "\n"),
            json: RecordingCommand.summary(timeline, analysis).json)
    }
}
