import DebugShellCore

/// A failure as `debugsh test`'s child reports it to the runner (docs/Testing.md).
public struct ReportedFailure: Sendable {
    public enum Kind: String, Sendable {
        /// An `expect` whose condition did not hold; the script goes on.
        case expectation
        /// A command that failed (or a line that could not be read).
        case error
        /// An interrupt stopped the script (the runner's timeout sends SIGTERM, read as one).
        case interrupted
    }

    public var kind: Kind
    /// The script's name as errors print it; nil for a typed command.
    public var file: String?
    public var line: Int
    /// The error's message, as printed after `error: `.
    public var message: String
    /// An `expect`'s condition and the values it compared (`main.hangs = 1`).
    public var condition: String?
    public var values: String?
    /// Virtual time when it happened.
    public var time: SimTime
    /// The `file:line` of each `source` that led there, innermost first.
    public var sourcedFrom: [String]
}

extension Session {
    /// Calls `body` for each error, failed `expect` and interrupt as it is printed, with where and
    /// when (`debugsh test`'s child writes them to the runner's report).
    public func observeFailures(_ body: @escaping (ReportedFailure) -> Void) {
        output.failureObserver = { [unowned self] message, location, interrupted in
            let expectation = interrupted ? nil : failedExpectation
            body(
                ReportedFailure(
                    kind: interrupted ? .interrupted : expectation != nil ? .expectation : .error,
                    file: location.origin.name, line: location.line, message: message,
                    condition: expectation?.condition, values: expectation?.values, time: engine.now,
                    sourcedFrom: location.origin.includedFrom))
        }
    }

    /// Every metric the session knows now and its value as `get` prints it, with its type
    /// (`integer`, `number`, `duration`, `time`, `word`, `none`): a test's final metrics, for
    /// baselines. At most `limit` of them, in `metrics`' order.
    public func finalMetrics(limit: Int = 10_000) -> [(name: String, type: String, text: String)] {
        allMetricNames().prefix(limit).map { name in
            let value = metricValueOrNone(name)
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
