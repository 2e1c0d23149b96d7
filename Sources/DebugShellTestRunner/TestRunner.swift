import ArgumentParser
import DebugShell
import DebugShellCore
import DebugShellInterpreter

#if canImport(Glibc)
    import Glibc
#endif

/// `debugsh test [file or folder …]`: each file in a fresh session — a child process of this
/// binary — files in parallel, a live progress line on a terminal, a summary and reports
/// (docs/Testing.md). Everything it prints leaves through the ``OutputRouter``.
public struct TestRunner {
    let options: TestOptions
    let output: OutputRouter
    /// The front end's interrupt flag: Ctrl-C, SIGTERM and SIGHUP stop the run.
    let interrupts: Interrupts
    let jobs: Int
    let timeout: (seconds: Double, text: String)?
    let annotate: Bool
    /// Where the runner keeps the children's reports and output while they run.
    let workFolder: String
    /// How many files the paths hold, before --shard and --filter.
    let found: Int

    /// Runs `debugsh test` with the arguments after `test`; returns the exit status.
    public static func main(_ arguments: [String], output: OutputRouter, interrupts: Interrupts) -> Int32 {
        let options: TestOptions
        do {
            options = try TestOptions.parse(arguments)
        } catch {
            let code = TestOptions.exitCode(for: error).rawValue
            if code == 0 {
                output.frontEndText(TestOptions.fullMessage(for: error) + "\n")
                return 0
            }
            return usage(TestOptions.message(for: error), output)
        }
        do {
            return try prepare(options, output, interrupts)
        } catch {
            return usage(error.message, output)
        }
    }

    /// The runner's line in `debugsh --help`.
    public static let mention =
        "\nSUBCOMMANDS:\n  test [file or folder ...]\n                          Run scripts as a test suite (docs/Testing.md; options: debugsh test -h).\n"

    static func usage(_ message: String, _ output: OutputRouter) -> Int32 {
        output.frontEndMessage(
            "test: \(message)\nUsage: debugsh test [options] [file or folder ...] (see 'debugsh test --help')")
        return 2
    }

    /// Checks the options, finds the files, and lists or runs them.
    static func prepare(
        _ options: TestOptions, _ output: OutputRouter, _ interrupts: Interrupts
    ) throws(TestFiles.UsageError) -> Int32 {
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let jobs = options.jobs ?? max(1, cores)
        guard jobs >= 1, jobs <= 1024 else {
            throw TestFiles.UsageError(message: "-j takes a number from 1 to 1024, not \(jobs)")
        }
        if let n = options.maxFail, n < 1 {
            throw TestFiles.UsageError(message: "--maxfail takes 1 or more, not \(n)")
        }
        guard options.slowest >= 0 else {
            throw TestFiles.UsageError(message: "--slowest takes 0 or more, not \(options.slowest)")
        }
        if options.strict && options.baseline == nil {
            throw TestFiles.UsageError(message: "--strict applies to --baseline, which is not given")
        }
        if options.check, options.baseline != nil || options.updateBaseline != nil {
            throw TestFiles.UsageError(
                message: "--check runs nothing, so it has no metrics for --baseline or --update-baseline")
        }
        var timeout: (Double, String)?
        if let text = options.timeout {
            guard let duration = try? ValueParser.duration(text, rate: 60), duration.nanoseconds > 0 else {
                throw TestFiles.UsageError(
                    message: "--timeout takes a duration above 0, as 60s or 500ms, not '\(text)'")
            }
            timeout = (Double(duration.nanoseconds) / 1e9, duration.description)
        }
        let annotate: Bool
        switch options.annotations {
        case "github": annotate = true
        case "none": annotate = false
        case nil: annotate = getenv("GITHUB_ACTIONS").map { String(cString: $0) == "true" } ?? false
        case let other?: throw TestFiles.UsageError(message: "--annotations takes github or none, not '\(other)'")
        }
        var files = try TestFiles.find(options.paths)
        let found = files.count
        guard !files.isEmpty else {
            let places = options.paths.isEmpty ? "the current folder" : options.paths.joined(separator: ", ")
            throw TestFiles.UsageError(message: "no *.dsh files in \(places)")
        }
        if let shard = options.shard {
            let (index, count) = try TestFiles.parseShard(shard)
            files = files.filter { TestFiles.inShard($0, index: index, count: count) }
        }
        if !options.filters.isEmpty {
            files = files.filter { file in options.filters.contains { TestFiles.matches(file, $0) } }
        }
        if options.lastFailed {
            // pytest's --lf: the files that failed last time, or all when none did.
            let failed = LastFailed.load()
            let chosen = files.filter { failed.contains($0.path) }
            if chosen.isEmpty {
                output.frontEndMessage("test: --lf: no file failed last time: running all \(files.count)")
            } else {
                files = chosen
            }
        }
        if options.list {
            output.frontEndText(files.map { VisibleText.escaped($0.path) + "\n" }.joined())
            return 0
        }
        var baseline: Baseline?
        if let path = options.baseline {
            baseline = try Baseline.load(path)
        }
        var template = "/tmp/debugsh-test-XXXXXX"
        if let tmp = getenv("TMPDIR").map({ String(cString: $0) }), !tmp.isEmpty, FileIO.isDirectory(tmp) {
            template = tmp + "/debugsh-test-XXXXXX"
        }
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else {
            throw TestFiles.UsageError(
                message: "cannot make a folder for the children's reports in \(template.dropLast(21))")
        }
        let runner = TestRunner(
            options: options, output: output, interrupts: interrupts, jobs: jobs, timeout: timeout, annotate: annotate,
            workFolder: String(cString: made), found: found)
        defer { rmdir(runner.workFolder) }
        return runner.run(files, baseline: baseline)
    }

    // MARK: - Running

    /// Runs the files, reports, and returns the exit status.
    func run(_ files: [TestFile], baseline: Baseline?) -> Int32 {
        interrupts.catchInterrupts()
        // A CI job cancelled (SIGTERM) or a terminal closed (SIGHUP) stops the children as
        // Ctrl-C does: they are in process groups of their own and would outlive the runner.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = interrupts.setFlag
        sigemptyset(&action.sa_mask)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in [SIGTERM, SIGHUP] {
            sigaction(signal, &action, nil)
            // A parent may have started us with them blocked (Foundation's Process does).
            sigaddset(&unblock, signal)
        }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        var childEnded = sigset_t()
        sigemptyset(&childEnded)
        sigaddset(&childEnded, SIGCHLD)
        sigprocmask(SIG_BLOCK, &childEnded, nil)
        let started = Clock.seconds()
        let progress = isatty(2) == 1 ? ProgressLine(output: output, total: files.count) : nil
        var results: [TestResult?] = Array(repeating: nil, count: files.count)
        var running: [Int: (index: Int, child: ChildProcess)] = [:]
        var next = 0
        var printed = 0
        var interrupted = false
        /// Files not started because --maxfail was reached.
        var stoppedEarly: Int?
        let maxFail = options.exitFirst ? 1 : options.maxFail
        let report = Reports(runner: self)

        // Skipped files never start.
        for (index, file) in files.enumerated() {
            if let head = RunnerFiles.head(file.path, limit: 4096), let reason = TestFiles.skipReason(head) {
                results[index] = TestResult(file: file, status: .skipped, skipReason: reason)
            }
        }
        func printReady() {
            while printed < files.count, let result = results[printed] {
                progress?.clear()
                report.fileDone(result)
                printed += 1
            }
        }
        while true {
            if interrupts.isInterrupted() && !interrupted {
                interrupted = true
                for (_, run) in running where run.child.terminatedAt == nil {
                    run.child.terminatedAt = Clock.seconds()
                    run.child.stoppedByInterrupt = true
                    run.child.signal(SIGTERM)
                }
            }
            // --maxfail (-x): once that many files failed or errored, no new file starts.
            let failedSoFar = results.count { $0?.status == .failed || $0?.status == .error }
            if let limit = maxFail, failedSoFar >= limit, next < files.count, stoppedEarly == nil {
                stoppedEarly = files.count - next - results[next...].count { $0 != nil }
            }
            while !interrupted && stoppedEarly == nil && running.count < jobs && next < files.count {
                let index = next
                next += 1
                if results[index] != nil { continue }
                let paths = childPaths(index)
                var arguments = [
                    CommandLine.arguments.first ?? "debugsh", "--test-report", paths.report, "--test-parent",
                    String(getpid()),
                ]
                if options.keepGoing { arguments.append("-k") }
                if options.check { arguments.append("--check") }
                arguments += ["--", files[index].path]
                if let child = ChildProcess.start(arguments, stdout: paths.stdout, stderr: paths.stderr) {
                    running[Int(child.pid)] = (index, child)
                } else {
                    results[index] = TestResult(
                        file: files[index], status: .error,
                        failures: [
                            TestFailure(
                                kind: .error, file: files[index].path, message: "could not start a child process")
                        ])
                }
            }
            printReady()
            if running.isEmpty && (next >= files.count || interrupted || stoppedEarly != nil) { break }
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            if pid > 0, let (index, child) = running.removeValue(forKey: Int(pid)) {
                results[index] = finished(files[index], index: index, child: child, status: status, baseline: baseline)
                progress?.done(results[index]?.status ?? .error)
                continue
            }
            let now = Clock.seconds()
            for (_, run) in running {
                if let limit = timeout, run.child.terminatedAt == nil, now - run.child.started > limit.seconds {
                    run.child.terminatedAt = now
                    run.child.signal(SIGTERM)
                } else if let at = run.child.terminatedAt, !run.child.killed, now - at > ChildProcess.grace {
                    run.child.killed = true
                    run.child.signal(SIGKILL)
                }
            }
            progress?.draw(now: now - started, running: running.values.map { files[$0.index].path })
            // Sleep until a child ends (SIGCHLD, blocked so that it waits here) or 20 ms pass, for
            // the timeouts, Ctrl-C and the progress line: a loaded machine schedules a blocked
            // waiter at once, where a poll would wait for its turn.
            var wait = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            _ = sigtimedwait(&childEnded, nil, &wait)
        }
        progress?.clear()
        printReady()
        let done = results.compactMap { $0 }
        if interrupted {
            output.frontEndMessage("test: interrupted; \(done.count) of \(files.count) files ran")
        }
        if let stoppedEarly, let maxFail, !interrupted {
            output.frontEndMessage(
                "test: stopped after \(maxFail) failed file\(maxFail == 1 ? "" : "s") (\(options.exitFirst ? "-x" : "--maxfail \(maxFail)")); \(stoppedEarly) file\(stoppedEarly == 1 ? "" : "s") not run"
            )
        }
        if !options.check { LastFailed.store(done, output: output) }
        let seconds = Clock.seconds() - started
        let status = report.finish(done, total: max(found, files.count), seconds: seconds, baseline: baseline)
        return interrupted ? 130 : status ?? 0
    }

    func childPaths(_ index: Int) -> (report: String, stdout: String, stderr: String) {
        ("\(workFolder)/\(index).report", "\(workFolder)/\(index).out", "\(workFolder)/\(index).err")
    }

    /// Reads what a child left and decides the file's result.
    func finished(
        _ file: TestFile, index: Int, child: ChildProcess, status: Int32, baseline: Baseline?
    ) -> TestResult {
        let paths = childPaths(index)
        defer { [paths.report, paths.stdout, paths.stderr].forEach(RunnerFiles.remove) }
        var result = TestResult(file: file, status: .passed)
        result.seconds = Clock.seconds() - child.started
        result.stdout = RunnerFiles.text(paths.stdout)
        result.stderr = RunnerFiles.text(paths.stderr)
        let reportText =
            RunnerFiles.tail(paths.report, limit: 1 << 28).map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        var ended = false
        var stoppedAt: TestFailure?
        // Where the script ended (its `exit`, else its last command): an `exit N` and a moved
        // baseline are placed there, so that annotations and JUnit carry a line.
        var endFile = file.path
        var endLine: Int?
        for line in reportText.split(separator: "\n") {
            let fields = ReportLine.fields(line)
            switch fields.first {
            case "F" where fields.count >= 9:
                // Under --check nothing ran: a problem has a line, not a virtual time.
                let time = options.check ? nil : Int64(fields[4]).map { SimTime(nanoseconds: $0) }
                let place = fields[2].isEmpty ? file.path : fields[2]
                var failure = TestFailure(
                    kind: fields[1] == "expectation" ? .expect : .error, file: place, line: Int(fields[3]),
                    message: fields[5], condition: fields[6].isEmpty ? nil : fields[6],
                    values: fields[7].isEmpty ? nil : fields[7], time: time)
                if !fields[8].isEmpty { failure.message += " (sourced from \(fields[8]))" }
                if fields[1] == "interrupted" {
                    stoppedAt = failure
                } else {
                    result.failures.append(failure)
                }
            case "M" where fields.count >= 4:
                result.metrics.append((fields[1], fields[2], fields[3]))
            case "L" where fields.count >= 3:
                if !fields[1].isEmpty { endFile = fields[1] }
                endLine = Int(fields[2])
            case "E":
                ended = true
            default:
                break
            }
        }
        let signal = status & 0x7f
        let exitCode = (status >> 8) & 0xff
        let lastWords =
            result.stderr.split(separator: "\n").last { !$0.allSatisfy { $0 == " " } }.map(String.init) ?? ""
        if child.terminatedAt != nil {
            if let limit = timeout, !child.stoppedByInterrupt {
                var failure = TestFailure(
                    kind: .timeout, file: stoppedAt?.file ?? file.path, line: stoppedAt?.line,
                    message: "timed out after \(limit.text) (wall clock)", time: stoppedAt?.time)
                if child.killed { failure.message += "; killed (SIGKILL) after \(Int(ChildProcess.grace))s more" }
                result.failures.append(failure)
            } else {
                result.failures.append(
                    TestFailure(
                        kind: .error, file: file.path, line: stoppedAt?.line, message: "interrupted",
                        time: stoppedAt?.time))
            }
        } else if signal != 0 || (!ended && exitCode >= 128 && exitCode != 130) {
            let number = signal != 0 ? signal : exitCode - 128
            // The last words of a trap name the command's place: `(file.dsh:9)`.
            var line: Int?
            if let range = lastWords.firstRange(of: "(\(file.path):") {
                line = Int(lastWords[range.upperBound...].prefix { $0.isNumber })
            }
            result.failures.append(
                TestFailure(
                    kind: .crash, file: file.path, line: line,
                    message: "crashed: \(SignalName.of(number))" + (lastWords.isEmpty ? "" : " — \(lastWords)")))
        } else if let stoppedAt {
            result.failures.append(
                TestFailure(
                    kind: .error, file: stoppedAt.file, line: stoppedAt.line, message: stoppedAt.message,
                    time: stoppedAt.time))
        } else if !ended {
            result.failures.append(
                TestFailure(
                    kind: .error, file: file.path,
                    message: "exited with status \(exitCode) before its report ended"
                        + (lastWords.isEmpty ? "" : ": \(lastWords)")))
        } else if exitCode != 0 && result.failures.isEmpty {
            result.failures.append(
                TestFailure(
                    kind: .error, file: endFile, line: endLine,
                    message: "exited with status \(exitCode)" + (lastWords.isEmpty ? "" : ": \(lastWords)")))
        }
        if ended, let baseline, result.failures.allSatisfy({ $0.kind == .expect }) {
            let baselinePath = options.baseline ?? "."
            let key = options.baseline.map { Baseline.key(of: file, baselinePath: $0) } ?? file.key
            if baseline.entry(key, legacy: file.key) == nil && !result.metrics.isEmpty {
                // Nothing to compare: said in the summary, a failure under --strict.
                result.notInBaseline = true
                if options.strict {
                    result.failures.append(
                        TestFailure(
                            kind: .baseline, file: endFile, line: endLine,
                            message: "not in the baseline \(baselinePath) (as '\(key)'): nothing to compare (--strict)")
                    )
                }
            }
            result.moved = baseline.compare(key, legacy: file.key, result.metrics)
            if !result.moved.isEmpty {
                result.failures.append(
                    TestFailure(
                        kind: .baseline, file: endFile, line: endLine,
                        message:
                            "\(result.moved.count) metric\(result.moved.count == 1 ? "" : "s") moved from the baseline: "
                            + result.moved.prefix(3).map { "\($0.metric) \($0.from) → \($0.to)" }.joined(
                                separator: ", ")
                            + (result.moved.count > 3 ? " and \(result.moved.count - 3) more" : "")))
            }
        }
        if result.failures.contains(where: { $0.kind == .error || $0.kind == .crash || $0.kind == .timeout }) {
            result.status = .error
        } else if !result.failures.isEmpty {
            result.status = .failed
        }
        return result
    }
}

/// The live line on a terminal's standard error: one line redrawn, erased at the end.
final class ProgressLine {
    let output: OutputRouter
    let total: Int
    var finished = 0
    var failed = 0
    var lastDraw = -1.0
    var shown = false

    init(output: OutputRouter, total: Int) {
        self.output = output
        self.total = total
    }

    func done(_ status: TestResult.Status) {
        finished += 1
        if status == .failed || status == .error { failed += 1 }
        lastDraw = -1
    }

    func draw(now: Double, running: [String]) {
        guard now - lastDraw >= 0.1 else { return }
        lastDraw = now
        var columns = winsize()
        let width = ioctl(2, UInt(TIOCGWINSZ), &columns) == 0 && columns.ws_col > 0 ? Int(columns.ws_col) : 80
        var text = "\(finished)/\(total) files · \(failed) failed · \(Clock.text(now))s"
        if let first = running.sorted().first { text += " · running \(VisibleText.escaped(first))" }
        if running.count > 1 { text += " and \(running.count - 1) more" }
        output.frontEndErrorText("\r\u{1B}[K" + String(text.unicodeScalars.prefix(max(10, width - 1))))
        shown = true
    }

    func clear() {
        guard shown else { return }
        output.frontEndErrorText("\r\u{1B}[K")
        shown = false
    }
}

/// What `--lf` reads: the files that failed or errored in the last run, one path per line, in
/// `.debugsh-cache/lastfailed` of the current folder (a hidden folder the runner never searches).
enum LastFailed {
    static let folder = ".debugsh-cache"
    static let path = folder + "/lastfailed"

    static func load() -> Set<String> {
        guard FileIO.exists(path) else { return [] }
        return Set(RunnerFiles.text(path).split(separator: "\n").map(String.init))
    }

    /// The last run's failures: those remembered, less the files that ran now and did not fail,
    /// plus those that failed now. A folder that cannot be written loses only the memory.
    static func store(_ results: [TestResult], output: OutputRouter) {
        var failed = load()
        for result in results where result.status != .skipped {
            if result.status == .failed || result.status == .error {
                failed.insert(result.file.path)
            } else {
                failed.remove(result.file.path)
            }
        }
        if failed.isEmpty && !FileIO.exists(path) { return }
        mkdir(folder, 0o755)
        do {
            try FileIO.writeAtomically(failed.sorted().map { $0 + "\n" }.joined(), to: path)
        } catch {
            output.frontEndMessage("test: cannot remember the failed files for --lf: \(error.message)")
        }
    }
}
