import DebugShell
import DebugShellCore
import DebugShellInterpreter

/// What `debugsh test` prints and writes: a line per file as the files finish (in file order),
/// then the failures, the metrics that moved, the slowest files and the counts; JSON lines under
/// `--json`; GitHub annotations; the JUnit XML; the updated baseline (docs/Testing.md).
struct Reports {
    let runner: TestRunner
    var options: TestOptions { runner.options }
    var output: OutputRouter { runner.output }

    /// Text for the human: on standard output, or on standard error under `--json`.
    func say(_ text: String) {
        if options.json { output.frontEndErrorText(text) } else { output.frontEndText(text) }
    }

    /// A file's line, in file order.
    func fileDone(_ result: TestResult) {
        if options.json {
            output.frontEndText(Self.json(result).serialized + "\n")
        } else {
            let word: String
            switch result.status {
            case .passed: word = "PASS "
            case .failed: word = "FAIL "
            case .error: word = "ERROR"
            case .skipped: word = "SKIP "
            }
            let tail =
                result.status == .skipped
                ? " (\(VisibleText.escaped(result.skipReason ?? "skipped")))" : " (\(Clock.text(result.seconds))s)"
            output.frontEndText("\(word) \(VisibleText.escaped(result.file.path))\(tail)\n")
            if options.verbose {
                for failure in result.failures {
                    output.frontEndText("      \(VisibleText.escaped(failure.summary))\n")
                }
            }
        }
        output.flush()
    }

    /// The end: reports, baseline, summary. Returns the exit status, or nil for the default.
    func finish(_ results: [TestResult], total: Int, seconds: Double, baseline: Baseline?) -> Int32? {
        var status: Int32?
        annotate(results)
        if let path = options.junit {
            do {
                try FileIO.writeAtomically(JUnit.document(results, seconds: seconds), to: path)
            } catch {
                output.frontEndMessage("test: --junit: \(error.message)")
                status = 1
            }
        }
        if let path = options.updateBaseline {
            do {
                let count = try Baseline.update(path, with: results)
                say("baseline \(path): \(count) file\(count == 1 ? "" : "s") stored\n")
            } catch {
                output.frontEndMessage("test: --update-baseline: \(error.message)")
                status = 1
            }
        }
        let failures = results.filter { $0.status == .failed || $0.status == .error }
        if !failures.isEmpty {
            say("\nfailures:\n")
            for result in failures {
                for failure in result.failures {
                    say(
                        "  \(failure.kind == .expect || failure.kind == .baseline ? "FAIL " : "ERROR") \(VisibleText.escaped(failure.summary))\n"
                    )
                }
            }
        }
        let missing = results.filter(\.notInBaseline)
        if !missing.isEmpty, let path = options.baseline {
            say(
                "\n\(missing.count) file\(missing.count == 1 ? "" : "s") not in the baseline \(VisibleText.escaped(path)), nothing compared"
                    + (options.strict ? " (--strict: each fails)" : " (--strict makes each fail)") + ":\n")
            for result in missing { say("  \(VisibleText.escaped(result.file.path))\n") }
        }
        let moved = results.filter { !$0.moved.isEmpty }
        if !moved.isEmpty {
            say("\nmetrics that moved (from the baseline → this run):\n")
            for result in moved { say(Baseline.table(result)) }
        }
        let ran = results.filter { $0.status != .skipped }
        if options.slowest > 0 && !ran.isEmpty {
            say("\nslowest:\n")
            let slowest = ran.enumerated().sorted { ($0.element.seconds, $1.offset) > ($1.element.seconds, $0.offset) }
                .prefix(options.slowest)
            for (_, result) in slowest {
                say("  \(Clock.text(result.seconds))s  \(VisibleText.escaped(result.file.path))\n")
            }
        }
        let counts = Counts(results)
        let summary =
            "\(counts.passed) passed, \(counts.failed) failed, \(counts.errors) error\(counts.errors == 1 ? "" : "s"), "
            + "\(counts.skipped) skipped — \(results.count) file\(results.count == 1 ? "" : "s")"
            + (results.count < total ? " of \(total)" : "") + " in \(Clock.text(seconds))s (-j \(runner.jobs))\n"
        say((results.isEmpty ? "" : "\n") + summary)
        if results.isEmpty { output.frontEndMessage("test: no file selected (by --shard or --filter)") }
        if options.json {
            output.frontEndText(
                JSONValue.object([
                    (
                        "summary",
                        .object([
                            ("files", .int(Int64(results.count))), ("passed", .int(Int64(counts.passed))),
                            ("failed", .int(Int64(counts.failed))), ("errors", .int(Int64(counts.errors))),
                            ("skipped", .int(Int64(counts.skipped))), ("seconds", Self.seconds(seconds)),
                        ])
                    )
                ]).serialized + "\n")
        }
        output.flush()
        if counts.failed + counts.errors > 0 { return 1 }
        return status
    }

    struct Counts {
        var passed = 0, failed = 0, errors = 0, skipped = 0
        init(_ results: [TestResult]) {
            for r in results {
                switch r.status {
                case .passed: passed += 1
                case .failed: failed += 1
                case .error: errors += 1
                case .skipped: skipped += 1
                }
            }
        }
    }

    // MARK: GitHub annotations

    /// `::error file=…,line=…,title=…::message`, one per failure, in file order: on standard
    /// output, or standard error under `--json` (the runner reads workflow commands from both).
    func annotate(_ results: [TestResult]) {
        guard runner.annotate else { return }
        for result in results {
            for failure in result.failures { say(Self.annotation(failure) + "\n") }
        }
    }

    static func annotation(_ failure: TestFailure) -> String {
        var properties = "file=\(escapeProperty(failure.file))"
        if let line = failure.line { properties += ",line=\(line)" }
        properties += ",title=\(escapeProperty("debugsh test: " + failure.title))"
        var message = failure.message
        if let time = failure.time { message += " [at \(time)]" }
        return "::error \(properties)::\(escapeData(message))"
    }

    /// GitHub's escaping of a workflow command's message.
    static func escapeData(_ text: String) -> String {
        // By Unicode scalars: "\r\n" is one Character, neither "\r" nor "\n".
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// GitHub's escaping of a workflow command's property.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }

    // MARK: JSON

    static func seconds(_ seconds: Double) -> JSONValue {
        .number(MetricNumber(thousandths: Int64((seconds * 1000).rounded())))
    }

    /// A file's JSON line (docs/JSON.md).
    static func json(_ result: TestResult) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("file", .string(result.file.path)), ("status", .string(result.status.rawValue)),
            ("seconds", seconds(result.seconds)),
        ]
        if let reason = result.skipReason { fields.append(("reason", .string(reason))) }
        fields.append(
            (
                "failures",
                .array(
                    result.failures.map { f in
                        .object([
                            ("kind", .string(f.kind.rawValue)), ("file", .string(f.file)),
                            ("line", f.line.map { .int(Int64($0)) } ?? .null), ("message", .string(f.message)),
                            ("condition", f.condition.map { .string($0) } ?? .null),
                            ("values", f.values.map { .string($0) } ?? .null),
                            ("t_ns", f.time.map { .int($0.nanoseconds) } ?? .null),
                        ])
                    })
            ))
        fields.append(
            (
                "moved",
                .array(
                    result.moved.map { m in
                        .object([
                            ("metric", .string(m.metric)), ("from", .string(m.from)), ("to", .string(m.to)),
                            ("delta", .string(m.delta)), ("tolerance", .string(m.tolerance)),
                        ])
                    })
            ))
        return .object(fields)
    }
}

extension String {
    func replacingAll(_ target: Character, _ replacement: String) -> String {
        guard contains(target) else { return self }
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}

/// The JUnit XML report: one test suite, one test case per file, each failed `expect` a
/// `<failure>`, each error, crash or timeout an `<error>`, the child's standard output and error
/// attached; valid against Jenkins' junit-10.xsd (Tests/Fixtures/junit-10.xsd).
enum JUnit {
    static func document(_ results: [TestResult], seconds: Double) -> String {
        let counts = Reports.Counts(results)
        let time = Clock.text(seconds)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"debugsh test\" tests=\"\(results.count)\" failures=\"\(counts.failed)\" "
            + "errors=\"\(counts.errors)\" time=\"\(time)\">\n"
        xml +=
            "  <testsuite name=\"debugsh test\" tests=\"\(results.count)\" failures=\"\(counts.failed)\" "
            + "errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\" time=\"\(time)\" "
            + "timestamp=\"\(Clock.isoNow())\">\n"
        for result in results {
            let path = result.file.path
            let folder = path.split(separator: "/").dropLast().joined(separator: ".")
            xml +=
                "    <testcase classname=\"\(attribute(folder.isEmpty ? "." : folder))\" name=\"\(attribute(path))\" "
                + "time=\"\(Clock.text(result.seconds))\">\n"
            if result.status == .skipped {
                xml += "      <skipped message=\"\(attribute(result.skipReason ?? "skipped"))\"/>\n"
            }
            // One element per testcase, with every failure in it: several <failure>s are legal
            // but some readers (xunitparser, junit2html) keep only the last (issue 37, 4). An
            // error, crash or timeout makes it an <error>; its message is the first failure's,
            // its text each failure at its line, then a baseline's table.
            if let first = result.failures.first {
                let isError = result.failures.contains { !($0.kind == .expect || $0.kind == .baseline) }
                let element = isError ? "error" : "failure"
                let lead =
                    result.failures.first { isError ? !($0.kind == .expect || $0.kind == .baseline) : true } ?? first
                var message = lead.location + ": " + lead.message
                if result.failures.count > 1 { message += " (and \(result.failures.count - 1) more)" }
                var body = result.failures.map(\.summary).joined(separator: "\n")
                if result.failures.contains(where: { $0.kind == .baseline }) { body += "\n" + Baseline.table(result) }
                xml +=
                    "      <\(element) message=\"\(attribute(message))\" "
                    + "type=\"\(lead.kind.rawValue)\">\(text(body))</\(element)>\n"
            }
            if !result.stdout.isEmpty { xml += "      <system-out>\(text(result.stdout))</system-out>\n" }
            if !result.stderr.isEmpty { xml += "      <system-err>\(text(result.stderr))</system-err>\n" }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Text content: `&`, `<`, `>` escaped, and characters XML 1.0 does not allow (control
    /// characters but tab, newline and return; U+FFFE, U+FFFF) written as `\xNN` / `\u{…}`.
    static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    let hex = String(c.value, radix: 16, uppercase: true)
                    out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else if c.value == 0xFFFE || c.value == 0xFFFF {
                    out += "\\u{\(String(c.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    /// An attribute's value: as ``text(_:)``, quotes and line breaks escaped too.
    static func attribute(_ s: String) -> String {
        var out = ""
        for c in text(s).unicodeScalars {
            switch c {
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
