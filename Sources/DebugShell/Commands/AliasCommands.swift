import DebugShellCore
import DebugShellInterpreter

/// `alias`: define an alias, show one, or list them all.
struct AliasCommand: BuiltInCommand {
    static let definition = ArgumentSpec.words(
        "definition", abstract: "<name> = <expansion…>, or a name to show.", optional: true)

    static let spec = CommandSpec(
        "alias", abstract: "Define an alias ('alias name = expansion', %1…%9 and %*), or list them.",
        discussion:
            "debugsh starts with LLDB's one-letter aliases: c (play, as continue), p (get, as print), q (quit), "
            + "r (run) and s (step), and LLDB's long forms continue and print. 'alias' lists them beside yours; 'alias r = …' replaces one and 'unalias r' "
            + "removes it. A command's own name wins over an alias.",
        arguments: [
            definition
        ],
        examples: [
            Example(
                """
                > alias twice = echo %1 %1
                > twice hey
                hey hey
                > alias
                built-in, as in LLDB ('alias <name> = …' replaces one, 'unalias <name>' removes it):
                  c = play         LLDB's continue: time runs on, with the wall clock, until 'pause' or Ctrl-C
                  p = get          LLDB's print: one metric, as 'name = value'
                  q = quit         LLDB's quit
                  r = run          LLDB's run
                  s = step         LLDB's step: to the next vsync
                  continue = play  LLDB's continue, as 'c'
                  print = get      LLDB's print, as 'p'
                yours:
                  twice = echo %1 %1
                """)
        ])

    static let traits: CommandTraits = .notRecorded

    /// The one-letter aliases LLDB users type without thinking, defined at the start like the
    /// user's own: `alias` lists them, `alias r = …` replaces one, `unalias r` removes it.
    static let builtIns: [(name: String, expansion: String, lldb: String)] = [
        ("c", "play", "continue: time runs on, with the wall clock, until 'pause' or Ctrl-C"),
        ("p", "get", "print: one metric, as 'name = value'"),
        ("q", "quit", "quit"),
        ("r", "run", "run"),
        ("s", "step", "step: to the next vsync"),
        // LLDB's long forms of the same commands (issue 23): 'continue' is whatever 'c' is.
        ("continue", "play", "continue, as 'c'"),
        ("print", "get", "print, as 'p'"),
    ]

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        try define(call, in: context.vocabulary)
    }

    /// Defines, shows or lists aliases in `vocabulary` (`--check` defines them as a run would).
    /// With `lldbForm` (`command alias`), LLDB's `NAME EXPANSION…` without `=` is taken too.
    static func define(_ call: BuiltInCall, in vocabulary: Vocabulary, lldbForm: Bool = false) throws(CommandError)
        -> CommandOutput
    {
        let words = call[definition]
        if words.isEmpty { return list(vocabulary.aliases) }
        let name = words[0].text
        if words.count == 1 {
            guard let found = vocabulary.aliases[name] else { throw CommandError("unknown alias '\(name)'") }
            return CommandOutput(
                text: "\(name) = \(VisibleText.escaped(found.expansion))\(found.builtIn ? " (built-in)" : "")",
                json: .fields([
                    "name": .string(name), "expansion": .string(found.expansion), "built_in": .bool(found.builtIn),
                ]))
        }
        let hasEquals = words[1].text == "=" && !words[1].quoted
        guard hasEquals || lldbForm else {
            throw CommandError(
                "expected 'alias \(name) = <expansion>' (or LLDB's 'command alias \(name) <expansion>')")
        }
        guard ValueParser.isName(name) else {
            throw CommandError("'\(VisibleText.escaped(name))' is not a valid alias name: \(ValueParser.nameRule)")
        }
        if vocabulary.registry.command(exactly: name) != nil {
            throw CommandError("'\(name)' is a command; an alias cannot replace it")
        }
        let expansion = words.dropFirst(hasEquals ? 2 : 1).map(\.raw).joined(separator: " ")
        guard !expansion.isEmpty else { throw CommandError("alias '\(name)' needs an expansion") }
        vocabulary.aliases.define(name, as: expansion)
        return CommandOutput(json: .fields(["name": .string(name), "expansion": .string(expansion)]))
    }

    /// `alias`: the built-in one-letter aliases still in force, then the user's, each in the
    /// order first defined; says so when the user has none.
    private static func list(_ aliases: AliasTable) -> CommandOutput {
        let all = aliases.inOrder
        let builtIn = all.filter(\.alias.builtIn)
        let own = all.filter { !$0.alias.builtIn }
        var lines: [String] = []
        if !builtIn.isEmpty {
            let width = builtIn.map { $0.name.count + 3 + $0.alias.expansion.count }.max() ?? 0
            lines.append("built-in, as in LLDB ('alias <name> = …' replaces one, 'unalias <name>' removes it):")
            for entry in builtIn {
                let lldb = builtIns.first { $0.name == entry.name }?.lldb ?? ""
                lines.append("  " + "\(entry.name) = \(entry.alias.expansion)".padding(width) + "  LLDB's \(lldb)")
            }
        }
        if own.isEmpty {
            lines.append("no aliases of your own: 'alias <name> = <expansion>' defines one")
        } else {
            if !builtIn.isEmpty { lines.append("yours:") }
            let indent = builtIn.isEmpty ? "" : "  "
            lines += own.map { "\(indent)\($0.name) = \(VisibleText.escaped($0.alias.expansion))" }
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: .array(
                all.map {
                    .fields([
                        "name": .string($0.name), "expansion": .string($0.alias.expansion),
                        "built_in": .bool($0.alias.builtIn),
                    ])
                }))
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        Completion(candidates: words.isEmpty ? completer.aliasNames : [])
    }

    /// `--check` defines the alias as running the line would, so that later lines expand.
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {
        _ = try define(call, in: checker.vocabulary)
    }
}

/// `unalias`: remove an alias.
struct UnaliasCommand: BuiltInCommand {
    static let name = ArgumentSpec.name("name", .alias, abstract: "The alias.")

    static let spec = CommandSpec(
        "unalias", abstract: "Remove an alias.",
        arguments: [name],
        examples: [
            Example(
                """
                > alias greet = echo hi
                > greet
                hi
                > unalias greet
                > greet
                error: unknown command 'greet'; did you mean 'get'?
                > unalias greet
                error: unknown alias 'greet'
                """),
            Example(
                """
                > unalias s
                > s
                error: ambiguous command 's': status, step, scroll, stall, source, set, settings
                """),
        ])

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        try remove(call, in: context.vocabulary)
    }

    private static func remove(_ call: BuiltInCall, in vocabulary: Vocabulary) throws(CommandError) -> CommandOutput {
        let name = call[name]
        guard vocabulary.aliases.remove(name) else { throw CommandError("unknown alias '\(name)'") }
        return .silent
    }

    /// `--check` removes the alias as running the line would.
    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {
        _ = try remove(call, in: checker.vocabulary)
    }
}

/// `history`: the session's commands, numbered since the start.
struct HistoryCommand: BuiltInCommand {
    static let count = ArgumentSpec.optional("n", .integer(1...Int64.max), abstract: "How many.", as: Int64.self)

    static let spec = CommandSpec(
        "history", abstract: "Show the session's commands (the last 10,000 are kept), the last n of them.",
        arguments: [count],
        examples: [Example("> echo a\na\n> history 2\n    1  echo a\n    2  history 2")])

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let history = context.history
        let kept = history.entries.count
        let shown = call[count].map { Int(min($0, Int64(kept))) } ?? kept
        let start = kept - shown
        var lines: [String] = []
        for i in start..<kept {
            let number = String(history.dropped + i + 1)
            lines.append(
                String(repeating: " ", count: max(0, 5 - number.count)) + number + "  "
                    + VisibleText.escaped(history.entries[i]))
        }
        return CommandOutput(
            text: lines.joined(separator: "\n"), json: .array(history.entries[start...].map { .string($0) }))
    }
}

/// `command`: LLDB's `command` family, spelled as LLDB users type it — `command alias`,
/// `command unalias`, `command source`, `command history` run `alias`, `unalias`, `source` and
/// `history` (docs/Decisions.md, "LLDB's words").
struct CommandFamilyCommand: BuiltInCommand {
    enum Verb: String, ToolVerbs {
        case alias, unalias, source, history

        var declaration: VerbSpec {
            switch self {
            case .alias:
                return VerbSpec(
                    "alias",
                    abstract: "LLDB's 'command alias': the same as 'alias', with LLDB's form without '=' too.",
                    arguments: [AliasCommand.definition],
                    examples: [
                        Example("> command alias hi = echo hello\n> hi\nhello"),
                        Example("> command alias rr run 100ms\n> rr\n> get clock.now\nclock.now = 100ms"),
                    ])
            case .unalias:
                return VerbSpec(
                    "unalias", abstract: "LLDB's 'command unalias': the same as 'unalias'.",
                    arguments: [UnaliasCommand.name],
                    examples: [Example("> command unalias s\n> alias s\nerror: unknown alias 's'")])
            case .source:
                return VerbSpec(
                    "source", abstract: "LLDB's 'command source': the same as 'source'.",
                    arguments: [SourceCommand.file],
                    examples: [
                        Example(
                            "> command source no-such-file.dsh\nerror: cannot open 'no-such-file.dsh': No such file or directory"
                        )
                    ])
            case .history:
                return VerbSpec(
                    "history", abstract: "LLDB's 'command history': the same as 'history'.",
                    arguments: [HistoryCommand.count],
                    examples: [Example("> echo a\na\n> command history 2\n    1  echo a\n    2  command history 2")])
            }
        }
    }

    static let spec = CommandSpec(
        "command", abstract: "LLDB's 'command alias', 'command unalias', 'command source' and 'command history'.",
        verbs: Verb.declarations)

    static let traits: CommandTraits = .notRecorded

    /// The command each verb stands for.
    private static func command(_ verb: Verb) -> any BuiltInCommand.Type {
        switch verb {
        case .alias: return AliasCommand.self
        case .unalias: return UnaliasCommand.self
        case .source: return SourceCommand.self
        case .history: return HistoryCommand.self
        }
    }

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let verb = try call.verb(Verb.self)
        // LLDB's own form, `command alias rr run 100ms`, as well as debugsh's `name = …`.
        if verb == .alias { return try AliasCommand.define(call, in: context.vocabulary, lldbForm: true) }
        return try command(verb).run(call, in: context)
    }

    static func check(_ call: BuiltInCall, in checker: inout ScriptChecker) throws(CommandError) {
        let verb = try call.verb(Verb.self)
        if verb == .alias {
            _ = try AliasCommand.define(call, in: checker.vocabulary, lldbForm: true)
            return
        }
        try command(verb).check(call, in: &checker)
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        Verb(rawValue: verb) == .alias
            ? AliasCommand.completeRest(verb: "", words: words, current: current, completer: completer) : nil
    }
}
