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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let words = call[metrics]
        guard !words.isEmpty else { throw CommandError("'get' needs a metric's name (see 'metrics')") }
        var names: [String] = []
        for word in words {
            guard word.text.contains("*") else {
                names.append(word.text)
                continue
            }
            let matching = session.allMetricNames().filter { GetCommand.matches(word.text, $0) }
            guard !matching.isEmpty else { throw CommandError("no metric matches '\(word.text)' (see 'metrics')") }
            names += matching
        }
        var lines: [String] = []
        var values: [(String, MetricType, MetricValue)] = []
        for name in names {
            let (type, value) = try session.readMetric(name)
            lines.append("\(name) = \(session.output.toolText(value.text, keepingLayout: false))")
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

    static func completeRest(label: String, words: [String], current: String, completer: Completer) -> Completion? {
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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let prefix = call[prefix] ?? ""
        var warnings: [String] = []
        let names = session.allMetricNames { tool, name in
            // A name the tool lists but does not declare is left out, and said so each time.
            if name.hasPrefix(prefix) {
                warnings.append("tool '\(tool)' lists the metric '\(name)' but does not declare it; not shown")
            }
        }.filter { $0.hasPrefix(prefix) }
        guard !names.isEmpty else { throw CommandError("no metric starts with '\(prefix)'") }
        if session.isInterrupted() { throw SessionControl.interrupted(reported: false) }
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        for (k, name) in names.enumerated() {
            // A long listing stops at Ctrl-C (docs/Limits.md, Stopping): 100,000 timers make 500,000 lines.
            if k & 1023 == 1023 && session.isInterrupted() { throw SessionControl.interrupted(reported: false) }
            let value: MetricValue
            do {
                value = try session.readMetric(name, listed: true).1
            } catch {
                // A value of another type than declared: shown as none, and why.
                value = .none
                warnings.append(error.message)
            }
            lines.append("\(name) = \(session.output.toolText(value.text, keepingLayout: false))")
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

    static func run(_ call: BuiltInCall, in session: Session) throws -> CommandOutput {
        let condition = try session.parseCondition(call[Self.condition])
        let (holds, missing) = condition.evaluate(session.metricValueOrNone)
        guard holds else {
            session.failedExpectation = (condition.text, session.describeValues(condition))
            if let missing { throw CommandError("expectation failed: \(missing) has no value yet") }
            throw CommandError("expectation failed: \(condition.text) (\(session.describeValues(condition)))")
        }
        return CommandOutput(json: .fields(["condition": .string(condition.text), "holds": true]))
    }

    static func completeRest(label: String, words: [String], current: String, completer: Completer) -> Completion? {
        completer.conditionCompletion(words: words)
    }
}

extension Session {
    /// A metric's type and value: the shell's own, or a tool's. A tool's metric that it declares
    /// but answers `nil` for has no value (`none`), as does a family member it lists; a value of
    /// another type than declared is refused (docs/Plugins.md, "What the host checks").
    ///
    /// - Parameter listed: The tool listed the name in `metricNames()` (`metrics`), so a `nil`
    ///   answer is `none` without asking for the list again.
    /// - Throws: an unknown metric, with a did-you-mean; a tool's value of the wrong type.
    func readMetric(_ name: String, listed: Bool = false) throws(CommandError) -> (MetricType, MetricValue) {
        let resolved = try resolveMetric(name, listed: listed)
        if let refused = resolved.refused { throw CommandError(refused) }
        return (resolved.kind.type, resolved.value)
    }

    /// A metric's kind (its type, and a word metric's words) and value, and why a tool's value
    /// is refused, if it is (``readMetric(_:listed:)`` throws it).
    ///
    /// - Throws: an unknown metric, with a did-you-mean.
    func resolveMetric(_ name: String, listed: Bool = false) throws(CommandError) -> (
        kind: MetricKind, value: MetricValue, refused: String?
    ) {
        if let shell = ShellMetrics.named(name) { return (shell.spec.kind, shell.read(engine), nil) }
        let index = registry.toolIndex(forNamespace: name)
        if let index, let spec = registry.metricSpec(name) {
            let tool = toolSet.instances[index]
            if let value = calling(.metric, tool: index, label: name, { tool.metric(name) }) {
                let problem = Session.typeProblem(value, spec, tool: registry.toolDescriptors[index].name, name)
                return (spec.kind, value, problem)
            }
            if listed || spec.name == name || metricNames(of: index).contains(name) { return (spec.kind, .none, nil) }
        }
        var message = "unknown metric '\(name)'"
        if let index, metricNames(of: index).contains(name) {
            message += ": tool '\(registry.toolDescriptors[index].name)' lists it but does not declare it"
        } else if let guess = Suggest.closest(to: name, in: allMetricNames()) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " (see 'metrics')"
        }
        throw CommandError(message)
    }

    /// Why a tool's value for a metric is refused: it is not of the declared type (`none` is
    /// every type's), or it is a word the metric does not declare. Nil when it is fine.
    static func typeProblem(_ value: MetricValue, _ spec: MetricSpec, tool: String, _ name: String) -> String? {
        let type: MetricType
        switch value {
        case .none: return nil
        case .integer: type = .integer
        case .number: type = .number
        case .duration: type = .duration
        case .time: type = .time
        case .word: type = .word
        }
        if type == spec.type {
            // A word outside the declared ones: a condition written with the declared words
            // would never see it (docs/Plugins.md, "What the host checks").
            guard case .word(let word) = value, let words = spec.words, !words.contains(word) else { return nil }
            return
                "tool '\(tool)' answered metric '\(name)' with '\(VisibleText.terminalSafe(word, keepingLayout: false))', "
                + "which is not one of its words: \(words.joined(separator: ", "))"
        }
        func article(_ t: MetricType) -> String { "\(t == .integer ? "an" : "a") \(t.rawValue)" }
        return "tool '\(tool)' answered metric '\(name)' with \(article(type)), but it declares \(article(spec.type))"
    }

    /// A metric's value, or `none` for an unknown one (conditions, after parsing).
    public func metricValueOrNone(_ name: String) -> MetricValue {
        (try? readMetric(name))?.1 ?? .none
    }

    /// Reads one metric again and again (`run until` after each instant): the name is resolved
    /// once, so a check costs the tool's read and nothing else, even for a name with no value.
    /// A value of another type than declared reads as `none`, with a warning the first time.
    func metricReader(_ name: String) -> () -> MetricValue {
        if let shell = ShellMetrics.named(name) {
            return { [unowned self] in shell.read(engine) }
        }
        if let index = registry.toolIndex(forNamespace: name), let spec = registry.metricSpec(name) {
            let tool = toolSet.instances[index]
            let toolName = registry.toolDescriptors[index].name
            return { [unowned self] in
                let value = calling(.metric, tool: index, label: name) { tool.metric(name) } ?? .none
                if let problem = Session.typeProblem(value, spec, tool: toolName, name) {
                    output.toolWarning(problem + "; read as none")
                    return .none
                }
                return value
            }
        }
        return { .none }
    }

    /// Every metric name now: the shell's, then each tool's in registration order. A name a tool
    /// lists but does not declare is left out (docs/Plugins.md, "What the host checks").
    ///
    /// - Parameter leftOut: Told of each name left out, with its tool's name.
    public func allMetricNames(leftOut: (_ tool: String, _ name: String) -> Void = { _, _ in }) -> [String] {
        var names = ShellMetrics.all.filter { $0.isListed(engine) }.map(\.spec.name)
        for index in toolSet.instances.indices {
            for name in metricNames(of: index) {
                if registry.declares(metric: name, tool: index) {
                    names.append(name)
                } else {
                    leftOut(registry.toolDescriptors[index].name, name)
                }
            }
        }
        return names
    }

    /// The names the tool at `index` lists (`metricNames()`), as it answers.
    func metricNames(of index: Int) -> [String] {
        let tool = toolSet.instances[index]
        return calling(.metricNames, tool: index) { tool.metricNames() }
    }

    /// A condition of `expect`, `run until`, `play until` or `break when`, its metrics checked
    /// to exist and its words to be the metrics' (the declared words, before anything runs).
    func parseCondition(_ words: [Word]) throws(CommandError) -> Condition {
        // A word metric's words are checked before a tool's answer for it is refused: a
        // misspelt word is wrong whatever the tool answers. Every other metric fails at its term,
        // as it always did.
        var refused: String?
        let condition = try Condition.parse(words, rate: engine.refreshRate.hertz) {
            name throws(CommandError) -> MetricKind in
            let resolved = try resolveMetric(name)
            if let problem = resolved.refused {
                guard case .word = resolved.kind else { throw CommandError(problem) }
                if refused == nil { refused = problem }
            }
            return resolved.kind
        }
        if let refused { throw CommandError(refused) }
        return condition
    }

    /// `a = 1, b = none`: the values a condition compared, for its failure.
    func describeValues(_ condition: Condition) -> String {
        condition.metrics.map { "\($0) = \(metricValueOrNone($0).text)" }.joined(separator: ", ")
    }
}
