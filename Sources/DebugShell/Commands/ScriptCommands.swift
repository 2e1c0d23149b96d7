import DebugShellCore
import DebugShellInterpreter

/// `echo`: print the words.
struct EchoCommand: BuiltInCommand {
    static let words = ArgumentSpec.words(
        "words", abstract: "The words to print, separated by one space.", optional: true)
    static let raw = OptionSpec.flag("raw", abstract: "Print control characters as they are.")

    static let spec = CommandSpec(
        "echo", abstract: "Print the words.",
        discussion:
            "Control characters other than newline and tab are printed escaped (ESC as \\x1b), so that an echo "
            + "never sends the terminal an escape sequence by accident; --raw prints them as they are.",
        arguments: [
            words
        ],
        options: [raw],
        examples: [Example("> echo hello,   world\nhello, world")])

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let text = call[words].map(\.text).joined(separator: " ")
        // Control characters are shown escaped unless asked for as they are; newlines and tabs,
        // which "\n" and "\t" write on purpose, stay.
        let shown = call[raw] ? text : VisibleText.escaped(text, keepingLayout: true)
        // An echo of nothing prints an empty line.
        return CommandOutput(text: shown.isEmpty ? "\n" : shown, json: .fields(["text": .string(text)]))
    }
}

/// `source`: run a script, relative to the including script's folder.
struct SourceCommand: BuiltInCommand {
    static let file = ArgumentSpec.path("file", abstract: "The script.")

    static let spec = CommandSpec(
        "source", abstract: "Run a script; relative paths resolve against the including script's folder.",
        discussion:
            "A script is a regular file or a pipe of UTF-8 text, at most 256 MiB; sources nest at most 64 deep, "
            + "and a script that sources itself stops at that depth, once.",
        arguments: [file],
        examples: [
            Example("> source no-such-file.dsh\nerror: cannot open 'no-such-file.dsh': No such file or directory")
        ])

    /// Its commands are recorded one by one, in its place.
    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        try session.source(call[file], at: call.location)
    }
}

extension Session {
    /// Runs a script file from inside a command (`source`): its errors name its own lines, and
    /// say where it was sourced from.
    func source(_ path: String, at location: SourceLocation) throws -> CommandOutput {
        guard nesting.depth < ScriptNesting.maxDepth else {
            // Every `source` of the chain stops, --keep-going or not: reported once, here.
            if nesting.depth > nesting.baseDepth { nesting.abandoning = true }
            throw CommandError("source nesting deeper than \(ScriptNesting.maxDepth) (does a script source itself?)")
        }
        let resolved = FileIO.join(location.origin.directory, path)
        var includedFrom = location.origin.includedFrom
        if let here = location.text { includedFrom.insert(here, at: 0) }
        let origin = ScriptOrigin(name: resolved, directory: FileIO.directory(of: resolved), includedFrom: includedFrom)
        let text: String
        do {
            text = try FileIO.readScript(resolved, interrupted: isInterrupted)
        } catch {
            if isInterrupted() { throw SessionControl.interrupted(reported: false) }
            guard let line = error.line else { throw CommandError(error.message) }
            output.error(error.message, command: nil, location: SourceLocation(origin: origin, line: line))
            throw SessionControl.failedAndReported
        }
        nesting.depth += 1
        let outcome = runScript(text, origin: origin)
        nesting.depth -= 1
        if nesting.abandoning {
            if nesting.depth <= nesting.baseDepth { nesting.abandoning = false }
            throw SessionControl.failedAndReported
        }
        switch outcome {
        case .finished: return CommandOutput(json: .fields(["file": .string(resolved)]))
        case .failed: throw SessionControl.failedAndReported
        case .exited(let status): throw SessionControl.exit(status)
        case .interrupted: throw SessionControl.interrupted(reported: true)
        }
    }
}
