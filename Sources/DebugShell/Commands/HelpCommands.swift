import DebugShellCore
import DebugShellInterpreter

/// `help`: a command, verb, metric, setting, alias or rule of the simulated device, or the
/// overview.
struct HelpCommand: BuiltInCommand {
    static let topic = ArgumentSpec.words(
        "topic", abstract: "A command, optionally with a verb; a metric; a setting; or a rule id.", optional: true,
        allowsOptions: true)
    static let full = OptionSpec.flag("full", abstract: "The whole help of a command or verb, every example included.")
    static let examples = OptionSpec.flag("examples", abstract: "Only the examples of a command or verb, all of them.")

    static let spec = CommandSpec(
        "help",
        abstract:
            "Show help for a command, a verb, a metric, a setting or a rule of the simulated device, or list them.",
        discussion:
            "A command's help is one page: its usage, verbs, arguments and options, and at most two examples; a last MORE line says what it left out, which --examples (the examples alone) and --full (everything) print. At the prompt, help longer than the terminal goes through $PAGER, or a built-in pager when PAGER is unset; scripts and pipes never page. A rule is named by its id in docs/Semantics.md, in any case: 'help RL6', 'help s4.1', 'help DL-A' (a worked example). It prints the rule, the kinds of source it rests on and why, and the commands, metrics and settings it touches. Help texts that cite rules end in a RULES line naming them.",
        arguments: [
            topic
        ],
        options: [full, examples],
        examples: [
            Example(
                """
                > help echo
                echo — Print the words.

                Control characters other than newline and tab are printed escaped (ESC as \\x1b),
                so that an echo never sends the terminal an escape sequence by accident; --raw
                prints them as they are.

                USAGE: echo [<words…>] [--raw]

                ARGUMENTS:
                  <words…>  The words to print, separated by one space.

                OPTIONS:
                  --raw  Print control characters as they are.

                EXAMPLES:
                  > echo hello,   world
                  hello, world
                """),
            Example(
                """
                > help s4.2
                S4.2 — One instant's order, step 2 (a step of S4)

                Mode changes due at t: a scroll starting or ending.

                SOURCE: model

                WHY: see 'help S4' (One instant's order).

                TOUCHES:
                  after, at, every, scroll, run

                In docs/Semantics.md under S4.
                > help main.hangs
                main.hangs (metric, integer) — Main-thread items of 250 ms or more (RL6).
                RULES: RL6 (type 'help RL6')
                """),
        ])

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        guard !(call[full] && call[examples]) else {
            throw CommandError("'help' takes --full or --examples, not both")
        }
        let detail: HelpRenderer.Detail = call[full] ? .full : call[examples] ? .examples : .short
        context.output.pagesNextResult = true
        return try context.helpTopics.topic(call[topic].map(\.text), detail: detail)
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        if words.isEmpty {
            // Rule ids only once the word starts like one, so 'help <tab>' stays the commands.
            let rules = current.first?.isUppercase == true ? RuleBook.rules.map(\.id) : []
            return Completion(candidates: completer.commandNames + rules)
        }
        if words.count == 1, let command = completer.command(exactly: words[0]) {
            return Completion(candidates: command.spec.namedVerbs.map(\.name))
        }
        return nil
    }
}

/// `apropos`: every topic whose help mentions a word or phrase, best matches first.
struct AproposCommand: BuiltInCommand {
    static let word = ArgumentSpec.words("word", abstract: "The word or phrase to look for (case-insensitive).")

    static let spec = CommandSpec(
        "apropos", abstract: "Search the help of every command, option, metric, setting and rule for a word.",
        discussion:
            "Best matches first: the word as a whole word of a name (main.hangs for 'hangs'), starting a word of "
            + "a name (main.hangs for 'hang'), a whole word of the help text, starting a word of it, then anywhere. "
            + "Several words, or a quoted phrase, are searched as one phrase; when nothing holds the phrase, "
            + "each word on its own, and the topics that mention every one of them are listed "
            + "(apropos scroll timers). Each line wraps at the terminal's width.",
        arguments: [
            word
        ],
        examples: [
            Example(
                """
                > apropos coalesc
                setting runloop.coalescing — Coalesce timer wake-ups within tolerance and leeway
                    (T5, D2).
                rule T5 — Tolerance and coalescing
                timer plot — Chart a timer's lateness per firing over time, late firings by
                    cause (K2).
                rule D2 — Leeway
                rule K2 — Lateness and its cause
                """)
        ])

    static let traits: CommandTraits = .notRecorded

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        context.output.pagesNextResult = true
        return context.helpTopics.apropos(call[word].map(\.text).joined(separator: " "))
    }
}
