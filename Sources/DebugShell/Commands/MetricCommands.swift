import DebugShellCore
import DebugShellInterpreter

/// `get`: metrics, as `name = value`: several names (`p a b`), a family by a pattern (`'clock.*'`).
struct GetCommand: BuiltInCommand {
    static let metrics = ArgumentSpec.words(
        "metric", .name(.metric),
        abstract: "The metrics' names; '*' in a name stands for any part of names ('clock.*', 'timer.*.late').")

    static let spec = CommandSpec(
        "get", abstract: "Print metrics as 'name = value', exactly as 'expect' compares them.",
        discussion:
            "Several names print one line each, in the order given. A name with '*' prints every metric it "
            + "matches, in the order 'metrics' lists them: '*' matches any characters but '.', and a last part '*' "
            + "the rest of the name ('timer.*' matches 'timer.poll.late').",
        arguments: [metrics],
        examples: [
            Example("> get clock.rate\nclock.rate = 60"),
            Example("> get clock.rate main.hangs\nclock.rate = 60\nmain.hangs = 0"),
            Example(
                """
                > get 'clock.*'
                clock.now = 0s
                clock.vsyncs = 0
                clock.rate = 60
                clock.mode = default
                """),
        ])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let words = call[metrics]
        let metrics = context.metrics
        guard !words.isEmpty else { throw CommandError("'get' needs a metric's name (see 'metrics')") }
        var names: [String] = []
        for word in words {
            guard word.text.contains("*") else {
                names.append(word.text)
                continue
            }
            // Only names starting with the text before the `*` can match; gathering them stops at Ctrl-C.
            let head = String(word.text.prefix { $0 != "*" })
            guard let gathered = metrics.names(startingWith: head, stoppingWhen: context.output.isInterrupted) else {
                throw SessionControl.interrupted(reported: false)
            }
            let matching = gathered.filter { GetCommand.matches(word.text, $0) }
            guard !matching.isEmpty else { throw CommandError("no metric matches '\(word.text)' (see 'metrics')") }
            names += matching
        }
        var lines: [String] = []
        var values: [(String, MetricType, MetricValue)] = []
        for name in names {
            let (type, value) = try metrics.read(name)
            lines.append("\(name) = \(context.output.toolText(value.text, keepingLayout: false))")
            values.append((name, type, value))
        }
        let single = words.count == 1 && !words[0].text.contains("*")
        return CommandOutput(
            text: lines.joined(separator: "\n"),
            json: single
                ? .fields([
                    "metric": .string(values[0].0), "type": .string(values[0].1.rawValue), "value": values[0].2.json,
                ])
                : .fields([
                    "metrics": .array(
                        values.map {
                            .object([("metric", .string($0.0)), ("type", .string($0.1.rawValue)), ("value", $0.2.json)])
                        })
                ]))
    }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        // Every word is a metric's name: the names a condition starts with.
        completer.conditionCompletion(words: [])
    }

    /// Whether a name matches a pattern: `*` stands for any characters but `.`.
    static func matches(_ pattern: String, _ name: String) -> Bool {
        let p = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let n = name.split(separator: ".", omittingEmptySubsequences: false)
        // A trailing `*` part matches the rest of a family's name (`timer.*` for `timer.poll.late`).
        if p.last == "*", n.count >= p.count {
            return zip(p.dropLast(), n).allSatisfy { part($0, $1) }
        }
        return p.count == n.count && zip(p, n).allSatisfy { part($0, $1) }
    }

    private static func part(_ pattern: Substring, _ text: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return pattern == text }
        let head = pattern[..<star]
        let tail = pattern[pattern.index(after: star)...]
        guard text.hasPrefix(head) else { return false }
        let rest = text.dropFirst(head.count)
        if tail.isEmpty { return true }
        for i in rest.indices where part(tail, rest[i...]) { return true }
        return false
    }
}

/// `metrics`: every metric, or those starting with a prefix.
struct MetricsCommand: BuiltInCommand {
    static let prefix = ArgumentSpec.optional(
        "prefix", .word, abstract: "Only metrics whose names start with it.", as: String.self)

    static let spec = CommandSpec(
        "metrics", abstract: "Print every metric, or those starting with a prefix.",
        arguments: [
            prefix
        ],
        examples: [Example("> metrics render\nrender.commits = 0\nrender.presents = 0")])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let prefix = call[prefix] ?? ""
        var warnings: [String] = []
        let metrics = context.metrics
        // Gathering 100,000 timers' names stops at Ctrl-C too (issue 36, item 11).
        let gathered = metrics.names(startingWith: prefix, stoppingWhen: context.output.isInterrupted) { tool, name in
            // A name the tool lists but does not declare is left out, and said so each time.
            warnings.append("tool '\(tool)' lists the metric '\(name)' but does not declare it; not shown")
        }
        guard let names = gathered else { throw SessionControl.interrupted(reported: false) }
        guard !names.isEmpty else { throw CommandError("no metric starts with '\(prefix)'") }
        if context.isInterrupted { throw SessionControl.interrupted(reported: false) }
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        for (k, name) in names.enumerated() {
            // A long listing stops at Ctrl-C (docs/Limits.md, Stopping): 100,000 timers make 500,000 lines.
            if k & 1023 == 1023 && context.isInterrupted { throw SessionControl.interrupted(reported: false) }
            let value: MetricValue
            do {
                value = try metrics.read(name, listed: true).1
            } catch {
                // A value of another type than declared: shown as none, and why.
                value = .none
                warnings.append(error.message)
            }
            lines.append("\(name) = \(context.output.toolText(value.text, keepingLayout: false))")
            json.append((name, value.json))
        }
        return CommandOutput(text: lines.joined(separator: "\n"), json: .object(json), warnings: warnings)
    }
}

/// `expect`: fail unless a condition holds.
struct ExpectCommand: BuiltInCommand {
    static let condition = ArgumentSpec.words("condition", abstract: "The condition.")

    static let spec = CommandSpec(
        "expect", abstract: "Fail unless a condition holds: <metric> <op> <value>, joined by and/or.",
        discussion:
            "Values are written as 'get' prints them, so a printed value pastes back. == and != take a tolerance, "
            + "'± <value>' or '+- <value>': an event's time stamp has three decimals, so 'expect "
            + "layout.settled_at == 0.617s ± 1ms' holds for the stamp [0.617s]. A word metric is compared with one of "
            + "its words ('help <metric>' lists them): another word is an error, not a comparison that never holds.",
        arguments: [condition],
        examples: [
            Example(
                """
                > expect clock.rate == 60 and clock.mode == default
                > expect clock.vsyncs > 0
                error: expectation failed: clock.vsyncs > 0 (clock.vsyncs = 0)
                > expect main.busy_ratio >= 0.5
                error: expectation failed: main.busy_ratio has no value yet
                """),
            Example(
                """
                > step 36
                > get clock.now
                clock.now = 600ms
                > step
                > get clock.now
                clock.now = 616.666666ms
                > expect clock.now == 0.617s ± 1ms and clock.now != 0.6s +- 10ms
                > expect clock.now == 0.617s
                error: expectation failed: clock.now == 0.617s (clock.now = 616.666666ms)
                """),
        ])

    static func run(_ call: BuiltInCall, in context: CommandContext) throws -> CommandOutput {
        let metrics = context.metrics
        let condition = try metrics.parseCondition(call[Self.condition])
        let (holds, missing) = condition.evaluate(metrics.valueOrNone)
        guard holds else {
            // A typed failure: `debugsh test` reports the condition and the values beside the line.
            let values = metrics.describeValues(condition)
            throw ExpectationFailure(
                message: missing.map { "expectation failed: \($0) has no value yet" }
                    ?? "expectation failed: \(condition.text) (\(metrics.describeValues(condition)))",
                condition: condition.text, values: values)
        }
        return CommandOutput(json: .fields(["condition": .string(condition.text), "holds": true]))
    }

    static func condition(of call: BuiltInCall) -> [Word]? { call[condition] }

    static func completeRest(verb: String, words: [String], current: String, completer: Completer) -> Completion? {
        completer.conditionCompletion(words: words)
    }
}
