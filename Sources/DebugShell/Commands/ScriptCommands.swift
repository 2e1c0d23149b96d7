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

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let text = call[words].map(\.text).joined(separator: " ")
        // Control characters are shown escaped unless asked for as they are; newlines and tabs,
        // which "\n" and "\t" write on purpose, stay.
        let shown = call[raw] ? text : VisibleText.escaped(text, keepingLayout: true)
        // An echo of nothing prints an empty line.
        return CommandOutput(text: shown.isEmpty ? "\n" : shown, json: .fields(["text": .string(text)]))
    }
}

/// `example`: run one of the example scripts compiled into debugsh (`help examples` lists them).
struct ExampleCommand: BuiltInCommand {
    static let name = ArgumentSpec.optional(
        "name", .word, abstract: "The example's name, as 'help examples' lists it ('tour').", as: String.self)
    static let print = OptionSpec.flag("print", abstract: "Print the script instead of running it.")

    static let spec = CommandSpec(
        "example",
        abstract: "Run an example script that comes with debugsh, or list them (the same as 'help examples').",
        discussion:
            "The scripts of the repository's Examples folder are compiled into the binary, so they run wherever "
            + "debugsh is installed. One runs as 'source' runs a file, its errors named 'Examples/<name>.dsh:<line>'; "
            + "'--print' prints it, to copy and change ('example tour --print > tour.dsh' in a shell: "
            + "'debugsh -c \"example tour --print\"').",
        arguments: [name], options: [print],
        examples: [
            Example(
                """
                > example tuor
                error: no example 'tuor'; did you mean 'tour'? ('help examples' lists them)
                """)
        ])

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        guard let name = call[name] else {
            if call[print] { throw CommandError("'example --print' needs a name ('help examples' lists them)") }
            return context.helpTopics.examplesList()
        }
        let wanted = name.hasSuffix(".dsh") ? String(name.dropLast(4)) : name
        guard let example = BundledExamples.all.first(where: { $0.name == wanted }) else {
            var message = "no example '\(name)'"
            if let guess = Suggest.closest(to: wanted, in: BundledExamples.all.map(\.name)) {
                message += "; did you mean '\(guess)'?"
            }
            throw CommandError(message + " ('help examples' lists them)")
        }
        if call[print] {
            return CommandOutput(
                text: example.text, json: .fields(["name": .string(example.name), "text": .string(example.text)]))
        }
        let file = "Examples/\(example.name).dsh"
        var includedFrom = call.location.origin.includedFrom
        if let here = call.location.text { includedFrom.insert(here, at: 0) }
        return try context.shell.runNested(
            example.text + "\n", origin: ScriptOrigin(name: file, directory: ".", includedFrom: includedFrom),
            resolved: file)
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        nil
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

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        try source(call[file], at: call.location, in: context)
    }

    /// Runs a script file from inside a command (`source`): its errors name its own lines, and
    /// say where it was sourced from.
    static func source(_ path: String, at location: SourceLocation, in context: CommandContext) throws
        -> CommandOutput
    {
        let nesting = context.nesting
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
            text = try FileIO.readScript(resolved, interrupted: context.output.isInterrupted)
        } catch {
            if context.isInterrupted { throw SessionControl.interrupted(reported: false) }
            guard let line = error.line else { throw CommandError(error.message) }
            context.output.error(error.message, command: nil, location: SourceLocation(origin: origin, line: line))
            throw SessionControl.failedAndReported
        }
        return try context.shell.runNested(text, origin: origin, resolved: resolved)
    }

    /// `--check` reads the sourced file in its place.
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {
        try checker.checkSource(call[file], at: call.location)
    }

    /// A scheduled `source` reads its file relative to where it was issued: a recording writes
    /// the path absolute.
    static func recordedPath(of arguments: ArraySlice<Word>, verb: String, issuedAt location: SourceLocation)
        -> String?
    {
        guard arguments.count == 1, let word = arguments.first else { return nil }
        return FileIO.join(location.origin.directory, word.text)
    }
}
