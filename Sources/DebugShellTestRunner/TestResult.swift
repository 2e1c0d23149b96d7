import DebugShellCore

/// One failure of a file: a failed `expect`, an error, a crash, a timeout, a moved metric.
struct TestFailure {
    enum Kind: String {
        case expect, error, crash, timeout, baseline
    }

    var kind: Kind
    /// Where: the script (or a file it sourced) and the line, when known.
    var file: String
    var line: Int?
    /// The whole message (`expectation failed: main.hangs == 2 (main.hangs = 1)`).
    var message: String
    var condition: String?
    var values: String?
    /// Virtual time, when the failure happened in the simulation.
    var time: SimTime?

    /// `file:line`, or the file.
    var location: String { line.map { "\(file):\($0)" } ?? file }

    /// One line for the summary and the annotations.
    var summary: String {
        var text = "\(location): \(message)"
        if let time { text += " [at \(time)]" }
        return text
    }

    /// A short title: what kind of failure.
    var title: String {
        switch kind {
        case .expect: return "expect failed"
        case .error: return "error"
        case .crash: return "crashed"
        case .timeout: return "timed out"
        case .baseline: return "metrics moved from the baseline"
        }
    }
}

/// How a file's run ended.
struct TestResult {
    enum Status: String {
        case passed, failed, error, skipped
    }

    var file: TestFile
    var status: Status
    var failures: [TestFailure] = []
    /// Wall-clock seconds the child ran.
    var seconds: Double = 0
    var stdout = ""
    var stderr = ""
    /// The final metrics (name, type, text), in `metrics`' order.
    var metrics: [(name: String, type: String, text: String)] = []
    var skipReason: String?
    /// The baseline's metrics that moved (``Baseline``), for the table.
    var moved: [Baseline.Move] = []
    /// Run with --baseline, the baseline holds no entry for it.
    var notInBaseline = false
}
