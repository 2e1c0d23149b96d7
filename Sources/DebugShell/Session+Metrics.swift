import DebugShellCore
import DebugShellEngine
import DebugShellInterpreter
import DebugShellTrace

extension Session {
    /// A metric's type and value.
    ///
    /// - Throws: an unknown metric, with a did-you-mean.
    func readMetric(_ name: String) throws(CommandError) -> (MetricType, MetricValue) {
        if let spec = Session.coreMetrics.first(where: { $0.name == name }) {
            return (spec.type, coreMetric(name))
        }
        if let index = registry.toolIndex(forNamespace: name), let spec = registry.metricSpec(name),
            let value = tools[index].metric(name)
        {
            return (spec.type, value)
        }
        var message = "unknown metric '\(name)'"
        if let guess = Suggest.closest(to: name, in: allMetricNames()) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += " (see 'metrics')"
        }
        throw CommandError(message)
    }

    /// A metric's value, or `none` for an unknown one (conditions, after parsing).
    func metricValueOrNone(_ name: String) -> MetricValue {
        (try? readMetric(name))?.1 ?? .none
    }

    /// Reads one metric again and again (`run until` after each instant): the name is resolved
    /// once, so a check costs the tool's read and nothing else, even for a name with no value.
    func metricReader(_ name: String) -> () -> MetricValue {
        if Session.coreMetrics.contains(where: { $0.name == name }) {
            return { [unowned self] in coreMetric(name) }
        }
        if let index = registry.toolIndex(forNamespace: name), registry.metricSpec(name) != nil {
            let tool = tools[index]
            return { tool.metric(name) ?? .none }
        }
        return { .none }
    }

    /// Every metric name now: the shell's, then each tool's in registration order.
    public func allMetricNames() -> [String] {
        Session.coreMetrics.map(\.name) + tools.flatMap { $0.metricNames() }
    }

    private func coreMetric(_ name: String) -> MetricValue {
        switch name {
        case "clock.now": return .time(engine.now)
        case "clock.vsyncs": return .integer(engine.vsyncCount)
        case "clock.rate": return .integer(Int64(engine.refreshRate.hertz))
        case "clock.mode": return .word(engine.mode.rawValue)
        case "main.busy_until": return .time(engine.busyUntil)
        case "main.hangs": return .integer(engine.hangs)
        case "main.busy_ratio": return engine.busyRatio().map { .number($0) } ?? .none
        case "render.commits": return .integer(engine.commits)
        case "render.presents": return .integer(engine.presents)
        default: return .none
        }
    }

    func metricsList(prefix: String) throws(CommandError) -> CommandOutput {
        let names = allMetricNames().filter { $0.hasPrefix(prefix) }
        guard !names.isEmpty else { throw CommandError("no metric starts with '\(prefix)'") }
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        for name in names {
            let value = metricValueOrNone(name)
            lines.append("\(name) = \(value.text)")
            json.append((name, value.json))
        }
        return CommandOutput(text: lines.joined(separator: "\n"), json: .object(json))
    }
}
