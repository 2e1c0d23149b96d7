import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter

/// Reads metrics — the shell's own from the device, a tool's by asking it — and the conditions
/// written over them (`expect`, `run until`, `break when`): names resolved with a did-you-mean,
/// a tool's answer checked against its declaration (docs/Plugins.md, "What the host checks").
/// It keeps nothing: the session makes one when it is needed.
struct MetricReader {
    let vocabulary: Vocabulary
    let tools: ToolSet
    let simulation: Simulation
    let imported: ImportedTimeline
    let output: OutputRouter

    private var registry: ToolRegistry { vocabulary.registry }

    /// A metric's type and value: the shell's own, or a tool's. A tool's metric that it declares
    /// but answers `nil` for has no value (`none`), as does a family member it lists; a value of
    /// another type than declared is refused (docs/Plugins.md, "What the host checks").
    ///
    /// - Parameter listed: The tool listed the name in `metricNames()` (`metrics`), so a `nil`
    ///   answer is `none` without asking for the list again.
    /// - Throws: an unknown metric, with a did-you-mean; a tool's value of the wrong type.
    func read(_ name: String, listed: Bool = false) throws(CommandError) -> (MetricType, MetricValue) {
        let resolved = try resolve(name, listed: listed)
        if let refused = resolved.refused { throw CommandError(refused) }
        return (resolved.kind.type, resolved.value)
    }

    /// A metric's kind (its type, and a word metric's words) and value, and why a tool's value
    /// is refused, if it is (``read(_:listed:)`` throws it).
    ///
    /// - Throws: an unknown metric, with a did-you-mean.
    func resolve(_ name: String, listed: Bool = false) throws(CommandError) -> (
        kind: MetricKind, value: MetricValue, refused: String?
    ) {
        let registry = registry
        if let shell = ShellMetrics.named(name) { return (shell.spec.kind, shell.read(simulation.engine), nil) }
        if let recorded = RecordedMetrics.named(name) { return (recorded.spec.kind, recorded.value(imported), nil) }
        let index = registry.toolIndex(forNamespace: name)
        if let index, let spec = registry.metricSpec(name) {
            let tool = tools.instances[index]
            if let value = tools.calling(.metric, tool: index, label: name, { tool.metric(name) }) {
                let problem = MetricReader.typeProblem(value, spec, tool: registry.toolDescriptors[index].name, name)
                return (spec.kind, value, problem)
            }
            if listed || spec.name == name || names(of: index).contains(name) { return (spec.kind, .none, nil) }
        }
        var message = "unknown metric '\(name)'"
        if let index, names(of: index).contains(name) {
            message += ": tool '\(registry.toolDescriptors[index].name)' lists it but does not declare it"
        } else if let guess = Suggest.closest(to: name, in: allNames()) {
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
    func valueOrNone(_ name: String) -> MetricValue {
        (try? read(name))?.1 ?? .none
    }

    /// Reads one metric again and again (`run until` after each instant): the name is resolved
    /// once, so a check costs the tool's read and nothing else, even for a name with no value.
    /// A value of another type than declared reads as `none`, with a warning the first time.
    func reader(_ name: String) -> () -> MetricValue {
        if let shell = ShellMetrics.named(name) {
            return { [simulation] in shell.read(simulation.engine) }
        }
        if let recorded = RecordedMetrics.named(name) {
            return { [imported] in recorded.value(imported) }
        }
        let registry = registry
        if let index = registry.toolIndex(forNamespace: name), let spec = registry.metricSpec(name) {
            let tool = tools.instances[index]
            let toolName = registry.toolDescriptors[index].name
            return { [tools, output] in
                let value = tools.calling(.metric, tool: index, label: name) { tool.metric(name) } ?? .none
                if let problem = MetricReader.typeProblem(value, spec, tool: toolName, name) {
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
    func allNames(leftOut: (_ tool: String, _ name: String) -> Void = { _, _ in }) -> [String] {
        names(startingWith: "", stoppingWhen: { false }, leftOut: leftOut) ?? []
    }

    /// The metric names now that start with `prefix`, in ``allNames(leftOut:)``'s order, or nil
    /// when `interrupted` says so (Ctrl-C): it is asked before each tool lists its names and
    /// every 1,024 names while they are checked against the tool's declaration, so 100,000
    /// timers' 500,000 names stop within 1,024 of them (a tool's `metricNames()` is one call,
    /// never cut). What was gathered is dropped.
    ///
    /// - Parameter leftOut: Told of each name starting with `prefix` left out, with its tool's name.
    func names(
        startingWith prefix: String, stoppingWhen interrupted: () -> Bool,
        leftOut: (_ tool: String, _ name: String) -> Void = { _, _ in }
    ) -> [String]? {
        let engine = simulation.engine
        let registry = registry
        var all = ShellMetrics.all.filter { $0.isListed(engine) }.map(\.spec.name)
        // The recording's once one is imported.
        if imported.timeline != nil { all += RecordedMetrics.all.map(\.spec.name) }
        if imported.replay != nil { all += RecordedMetrics.replay.map(\.spec.name) }
        if !prefix.isEmpty { all.removeAll { !$0.hasPrefix(prefix) } }
        for index in tools.instances.indices {
            if interrupted() { return nil }
            let listed = names(of: index)
            if prefix.isEmpty { all.reserveCapacity(all.count + listed.count) }
            for (k, name) in listed.enumerated() {
                if k & 1023 == 1023 && interrupted() { return nil }
                guard prefix.isEmpty || name.hasPrefix(prefix) else { continue }
                if registry.declares(metric: name, tool: index) {
                    all.append(name)
                } else {
                    leftOut(registry.toolDescriptors[index].name, name)
                }
            }
        }
        return all
    }

    /// The names the tool at `index` lists (`metricNames()`), as it answers.
    func names(of index: Int) -> [String] {
        let tool = tools.instances[index]
        return tools.calling(.metricNames, tool: index) { tool.metricNames() }
    }

    /// A condition of `expect`, `run until`, `play until` or `break when`, its metrics checked
    /// to exist and its words to be the metrics' (the declared words, before anything runs).
    ///
    /// - Parameter pending: Told of each name that is a member of a declared family with no
    ///   such member now (`timer.t.fires` before timer `t` is made, or after a `reset`), which is
    ///   then taken with its family's kind instead of refused (`break when`, as LLDB's pending
    ///   breakpoints). Nil: such a name is unknown.
    func parseCondition(
        _ words: [Word], pending: ((String) -> Void)? = nil
    ) throws(CommandError) -> Condition {
        // A word metric's words are checked before a tool's answer for it is refused: a
        // misspelt word is wrong whatever the tool answers. Every other metric fails at its term,
        // as it always did.
        var refused: String?
        let registry = registry
        let condition = try Condition.parse(words, rate: vocabulary.rate) {
            name throws(CommandError) -> MetricKind in
            let resolved: (kind: MetricKind, value: MetricValue, refused: String?)
            do throws(CommandError) {
                resolved = try resolve(name)
            } catch {
                guard let pending, let spec = registry.metricSpec(name), spec.name != name else { throw error }
                pending(name)
                return spec.kind
            }
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
        condition.metrics.map { "\($0) = \(valueOrNone($0).text)" }.joined(separator: ", ")
    }

    /// Fails at once a condition that nothing could make hold before a timeout: a metric it
    /// compares has no value, its tool is idle (it shows no status line), and no scheduled
    /// command waits that could start it (docs/Decisions.md, Breakpoints).
    func checkCanEverHold(_ condition: Condition, what: String, commandsWaiting: Int) throws(CommandError) {
        guard condition.evaluate(valueOrNone).missing != nil, commandsWaiting == 0 else { return }
        let registry = registry
        for name in condition.metrics where ShellMetrics.named(name) == nil && RecordedMetrics.named(name) == nil {
            guard case .none = valueOrNone(name), let index = registry.toolIndex(forNamespace: name) else {
                continue
            }
            guard tools.statusLine(of: index) == nil else { continue }
            let toolName = registry.toolDescriptors[index].name
            throw CommandError(
                "\(what) \(condition.text): \(name) has no value, and nothing will give it one: "
                    + "the tool '\(toolName)' is idle and no command is scheduled (start it first, see 'help \(toolName)')"
            )
        }
    }

    /// Every metric the session knows now and its value as `get` prints it, with its type
    /// (`integer`, `number`, `duration`, `time`, `word`, `none`): a test's final metrics, for
    /// baselines. At most `limit` of them, in `metrics`' order.
    func finalValues(limit: Int) -> [(name: String, type: String, text: String)] {
        allNames().prefix(limit).map { name in
            let value = valueOrNone(name)
            let type: String
            switch value {
            case .integer: type = "integer"
            case .number: type = "number"
            case .duration: type = "duration"
            case .time: type = "time"
            case .word: type = "word"
            case .none: type = "none"
            }
            return (name, type, value.text)
        }
    }
}
