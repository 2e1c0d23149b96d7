import DebugShellTesting
import Foundation
import Testing

/// Scripts made from the command language's grammar, run on the built binary (issue 15): every
/// run ends, within a memory bound, with exit status 0, 1 or 2, no crash text, and the
/// same output when run again.
///
/// `DEBUGSH_TEST_SEED` reproduces a run; `DEBUGSH_FUZZ_SCRIPTS` sets how many scripts (default
/// 240: a few seconds of the suite's time).
@Suite struct FuzzTests {
    static let scripts =
        ProcessInfo.processInfo.environment["DEBUGSH_FUZZ_SCRIPTS"].flatMap { Int($0) } ?? 240
    /// Each run ends (within Spawned's hang guard, never a speed bound) and within this much memory.
    static let secondsBound = Spawned.hangGuard
    static let megabytesBound = 300.0

    struct Case: Sendable {
        var files: [String: String]
        var arguments: [String]
    }

    @Test func grammarScriptsEndBoundedAndDeterministic() throws {
        let (start, seed) = SplitMix.seeded()
        var generator = ScriptGenerator(rng: start)
        let cases = (0..<FuzzTests.scripts).map { _ in generator.makeCase() }
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            let c = cases[index]
            do {
                let dir = try Binary.folder(c.files)
                defer { try? FileManager.default.removeItem(at: dir) }
                let first = try Spawned.run(c.arguments, directory: dir, seconds: FuzzTests.secondsBound)
                let second = try Spawned.run(c.arguments, directory: dir, seconds: FuzzTests.secondsBound)
                var problems: [String] = []
                for run in [first, second] {
                    if run.timedOut { problems.append("did not end within \(FuzzTests.secondsBound) s") }
                    if run.peakMB > FuzzTests.megabytesBound { problems.append("peaked at \(run.peakMB) MB") }
                    if ![0, 1, 2].contains(run.status) { problems.append("exit status \(run.status)") }
                    for marker in [
                        "Fatal error", "Stack dump", "Backtrace", "Crash", "Illegal instruction", "Segmentation",
                    ]
                    where run.stderr.contains(marker) {
                        problems.append("crash text '\(marker)'")
                    }
                }
                failures.measure(
                    seconds: max(first.seconds, second.seconds), megabytes: max(first.peakMB, second.peakMB))
                if first.stdout != second.stdout || first.stderr != second.stderr || first.status != second.status {
                    problems.append("a second run differed")
                }
                if !problems.isEmpty {
                    failures.add(
                        "script \(index): \(problems.joined(separator: "; "))\narguments: \(c.arguments)\n"
                            + c.files.sorted { $0.key < $1.key }.map { "--- \($0.key):\n\($0.value)" }.joined()
                            + "--- first run: \(first)")
                }
            } catch {
                failures.add("script \(index): \(error)")
            }
        }
        for failure in failures.all {
            Issue.record("seed \(seed) (DEBUGSH_TEST_SEED=\(seed)): \(failure)")
        }
        print(
            "fuzz: \(cases.count) scripts run twice (seed \(seed)), \(failures.all.count) failed; slowest run "
                + "\(String(format: "%.2f", failures.slowest)) s, largest \(String(format: "%.1f", failures.largest)) MB"
        )
    }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    private(set) var slowest = 0.0
    private(set) var largest = 0.0
    func measure(seconds: Double, megabytes: Double) {
        lock.lock()
        slowest = max(slowest, seconds)
        largest = max(largest, megabytes)
        lock.unlock()
    }
    func add(_ text: String) {
        lock.lock()
        list.append(text)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}

/// Makes scripts from the command language: mostly valid commands of every built-in and tool,
/// with bad values, horizon values, nesting, aliases, sourced files and scheduled commands mixed
/// in. Durations stay small enough that a script runs in well under a second.
struct ScriptGenerator {
    var rng: SplitMix

    mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &rng)! }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func makeCase() -> FuzzTests.Case {
        var files = [
            "a.dsh": script(lines: count(1...6), nested: true),
            "b.dsh": script(lines: count(1...6), nested: true),
        ]
        var arguments = ["--no-rc"]
        if chance(0.4) { arguments.append("-k") }
        if chance(0.15) { arguments.append("--json") }
        if chance(0.1) { arguments.append("--echo") }
        if chance(0.2) {
            for _ in 0..<count(1...3) { arguments += ["-c", command(depth: 0)] }
        } else {
            files["main.dsh"] = script(lines: count(5...25), nested: false)
            arguments.append("main.dsh")
        }
        return FuzzTests.Case(files: files, arguments: arguments)
    }

    mutating func script(lines: Int, nested: Bool) -> String {
        (0..<lines).map { _ in nested && chance(0.2) ? pick(["source a.dsh", "source b.dsh"]) : line() }
            .joined(separator: "\n") + "\n"
    }

    mutating func line() -> String {
        if chance(0.08) { return (0..<count(2...3)).map { _ in command(depth: 0) }.joined(separator: "; ") }
        if chance(0.03) { return "# " + command(depth: 0) }
        return command(depth: 0)
    }

    // MARK: Values

    mutating func duration() -> String {
        pick([
            "0s", "1ns", "1us", "250us", "1ms", "5ms", "16ms", "17ms", "50ms", "100ms", "250ms", "1s", "1f", "3f",
            "1.5ms", "0.25s", "-1ms", "4611686018s", "4611686018427387904ns", "99999999999999999999s", "1e3ms", "ms",
            "nan",
        ])
    }
    mutating func runDuration() -> String {
        pick(["0s", "1ns", "1ms", "10ms", "16ms", "50ms", "100ms", "100ms", "300ms", "1s", "2f", "-5ms", "1e2ms"])
    }
    mutating func interval() -> String {
        pick(["100us", "1ms", "10ms", "16ms", "50ms", "100ms", "250ms", "1s", "0s", "999ns", "1ns", "-1ms"])
    }
    mutating func time() -> String {
        pick(["0s", "1ms", "50ms", "100ms", "500ms", "1s", "2f", "4611686018427387904ns", "-1s"])
    }
    mutating func view() -> String { pick(["v0", "v1", "v2", "v3", "window", "ghost"]) }
    mutating func timer() -> String { pick(["t0", "t1", "t2", "t3", "nope"]) }
    mutating func object() -> String { pick(["o0", "o1", "o2"]) }
    mutating func mode() -> String { pick(["default", "common", "tracking", "fast"]) }
    mutating func frame() -> String {
        pick([
            "0,0,100,100", "10.5,20,30,40", "0,0,390,844", "5,5,0,0", "1e3,0,1,1", "0,0,-1,5", "1,2,3",
            "100000000000000000000,0.5,1,2",
        ])
    }
    mutating func metric() -> String {
        pick([
            "clock.now", "clock.vsyncs", "clock.rate", "clock.mode", "main.busy_until", "main.hangs",
            "main.busy_ratio", "render.commits", "render.presents", "fps.value", "fps.render", "fps.hitches",
            "fps.hitch_ratio", "fps.tier", "fps.frame_p95", "layout.state", "layout.settled_at", "layout.changes",
            "layout.views", "timer.count", "timer.late", "timer.leaks", "timer.wakeups", "timer.t0.fires",
            "timer.t1.state", "nope.metric",
        ])
    }
    mutating func condition() -> String {
        let single =
            "\(metric()) \(pick(["==", "!=", "<", "<=", ">", ">="])) \(pick(["0", "1", "60", "0s", "1s", "none", "settled", "good", "0.5", "x"]))"
        return chance(0.2) ? "\(single) \(pick(["and", "or"])) \(metric()) >= 0" : single
    }

    // MARK: Commands

    mutating func command(depth: Int) -> String {
        switch count(0...99) {
        case 0..<14: return timeCommand()
        case 14..<22: return deviceCommand()
        case 22..<32 where depth < 2: return scheduled(depth: depth)
        case 22..<40: return shellCommand()
        case 40..<52: return fpsCommand()
        case 52..<68: return viewCommand()
        case 68..<74: return layoutCommand()
        case 74..<92: return timerCommand()
        case 92..<96: return aliasCommand(depth: depth)
        default: return badCommand()
        }
    }

    mutating func timeCommand() -> String {
        switch count(0...5) {
        case 0, 1, 2: return "run \(runDuration())"
        case 3: return "step \(pick(["", "1", "3", "0", "-1"]))"
        case 4: return "run until \(condition()) --timeout \(pick(["100ms", "500ms", "1s", "0s"]))"
        default: return "expect \(condition())"
        }
    }

    mutating func deviceCommand() -> String {
        switch count(0...6) {
        case 0: return "stall \(duration())\(chance(0.3) ? " --ui" : "")"
        case 1: return "load \(pick(["frame", "commit", "gpu"])) \(pick(["0s", "1ms", "5ms", "20ms", "50ms", "-1ms"]))"
        case 2: return pick(["load off", "load"])
        case 3: return "animate \(pick(["100ms", "500ms", "1s", "0s", "10s"]))"
        case 4: return "scroll \(pick(["100ms", "500ms", "1s", "0s"]))"
        case 5: return "display rate \(pick(["30", "60Hz", "120Hz", "1000Hz", "0Hz", "1001"]))"
        default: return pick(["clock", "display", "status", "tools", "metrics fps", "metrics", "get \(metric())"])
        }
    }

    mutating func scheduled(depth: Int) -> String {
        let inner = command(depth: depth + 1)
        switch count(0...2) {
        case 0: return "after \(pick(["0s", "1ns", "1ms", "10ms", "100ms", "-1ms", "4611686018427387904ns"])) \(inner)"
        case 1: return "at \(time()) \(inner)"
        default:
            let every = pick(["1ms", "10ms", "50ms", "250ms", "1s", "0s", "999ns"])
            return "every \(every) \(pick(["--times 2 ", "--times 5 ", "--times 0 ", ""]))\(inner)"
        }
    }

    mutating func shellCommand() -> String {
        pick([
            "echo \(pick(["hello", "'quoted words'", "\"a\\tb\"", "", "a#b", "x\\ y"]))",
            "get \(metric())", "expect \(condition())", "history \(pick(["1", "3", "0", ""]))",
            "set shell.stop-on-error \(pick(["on", "off"]))", "set runloop.coalescing \(pick(["on", "off"]))",
            "set timer.late-threshold \(pick(["2ms", "0s", "x"]))", "settings shell",
            "help \(pick(["run", "timer gcd", "view", "nope"]))",
            "apropos \(pick(["timer", "vsync", "zzz"]))", "reset",
            "status \(pick(["on", "off", "fps off", "bogus on"]))",
            "source \(pick(["a.dsh", "b.dsh", "missing.dsh"]))", "exit \(pick(["0", "1", "2"]))", "quit",
        ])
    }

    mutating func fpsCommand() -> String {
        switch count(0...5) {
        case 0:
            var c = "fps start"
            if chance(0.3) { c += " --mode \(mode())" }
            if chance(0.3) { c += " --window \(pick(["250ms", "1s", "0s", "16ms"]))" }
            if chance(0.2) { c += " --cost \(pick(["1ms", "20ms", "-1ms"]))" }
            if chance(0.2) { c += " --label \(pick(["on", "off"]))" }
            return c
        case 1: return pick(["fps stop", "fps reset", "fps", "fps show"])
        case 2: return pick(["fps frames --last 3", "fps frames --hitches", "fps history --last 2", "fps compare"])
        case 3: return "fps tiers \(pick(["apple", "wwdc20", "bogus"]))"
        case 4: return "fps watch \(pick(["hitches", "windows", "off", "hitches --over 5ms"]))"
        default: return "fps autohide \(pick(["on", "off"]))"
        }
    }

    mutating func viewCommand() -> String {
        switch count(0...8) {
        case 0, 1:
            var c = "view add \(view())"
            if chance(0.4) { c += " --parent \(view())" }
            if chance(0.5) { c += " --frame \(frame())" }
            if chance(0.2) { c += " --alpha \(pick(["0.5", "1", "2", "-1"]))" }
            if chance(0.1) { c += " --hidden on" }
            return c
        case 2: return "view set \(view()) --frame \(frame())"
        case 3: return "view remove \(view())"
        case 4: return "view animate \(view()) --frame \(frame()) --over \(pick(["100ms", "300ms", "1s", "0s"]))"
        case 5: return "view spin \(view())\(chance(0.5) ? " --for \(pick(["100ms", "1s"]))" : "")"
        case 6:
            return
                "view grow \(view()) \(pick(["1", "10", "50", "200", "0"]))\(chance(0.5) ? " --fanout \(pick(["1", "3", "8"]))" : "")"
        case 7:
            return
                "view tree\(chance(0.3) ? " \(view())" : "")\(chance(0.4) ? " --depth \(pick(["0", "2", "500"]))" : "")\(chance(0.3) ? " --limit \(pick(["1", "5", "1000"]))" : "")"
        default: return "view count\(chance(0.3) ? " \(view())" : "")"
        }
    }

    mutating func layoutCommand() -> String {
        switch count(0...3) {
        case 0:
            var c = "layout watch"
            if chance(0.3) { c += " \(view())" }
            if chance(0.4) { c += " --mode \(pick(["quiet", "seed"]))" }
            if chance(0.3) { c += " --quiet \(pick(["100ms", "200ms", "0s"]))" }
            if chance(0.3) { c += " --timeout \(pick(["500ms", "1s"]))" }
            if chance(0.2) { c += " --poll \(interval())" }
            return c
        case 1: return "layout stop"
        case 2: return "layout"
        default: return "layout diff"
        }
    }

    mutating func timerCommand() -> String {
        switch count(0...11) {
        case 0, 1:
            var c = "timer nstimer \(timer()) --interval \(interval())"
            if chance(0.6) { c += " --repeats" }
            if chance(0.2) { c += " --tolerance \(pick(["1ms", "10ms", "1s"]))" }
            if chance(0.3) { c += " --mode \(mode())" }
            if chance(0.2) { c += " --cost \(pick(["1ms", "30ms"]))" }
            if chance(0.1) { c += " --ui" }
            if chance(0.2) { c += " --target \(object())\(chance(0.5) ? " --weak" : "")" }
            return c
        case 2, 3:
            var c = "timer gcd \(timer()) --interval \(interval())"
            if chance(0.2) { c += " --start \(pick(["0s", "5ms", "1s"]))" }
            if chance(0.2) { c += " --leeway \(pick(["1ms", "1s"]))" }
            if chance(0.4) { c += " --queue \(pick(["main", "background"]))" }
            if chance(0.2) { c += " --cost \(pick(["1ms", "30ms"]))" }
            if chance(0.2) { c += " --once" }
            return c
        case 4: return "timer displaylink \(timer())\(chance(0.4) ? " --fps \(pick(["0", "30", "60", "1001"]))" : "")"
        case 5: return "timer after \(timer()) \(duration())"
        case 6: return "timer countdown \(timer()) \(pick(["0", "2", "3"]))"
        case 7: return "timer \(pick(["pause", "resume", "invalidate"])) \(timer())"
        case 8: return pick(["timer list", "timer list --all", "timer list --sort late --limit 2", "timer leaks"])
        case 9: return "timer show \(timer())\(chance(0.3) ? " --last 2" : "")"
        case 10: return "timer watch \(pick(["on", "off"]))"
        default: return "object \(pick(["new", "release"])) \(object())"
        }
    }

    mutating func aliasCommand(depth: Int) -> String {
        let name = pick(["q0", "q1", "q2"])
        switch count(0...3) {
        case 0: return "alias \(name) = \(depth < 2 ? command(depth: depth + 1) : "echo \(name)")"
        case 1: return "alias \(name) = \(pick(["q0", "q1", "q2"]))\(chance(0.5) ? " %1" : "")"
        case 2: return "unalias \(name)"
        default: return "\(name)\(chance(0.4) ? " x y" : "")"
        }
    }

    mutating func badCommand() -> String {
        pick([
            "frobnicate", "echo 'unterminated", "run", "run 5", "stall 10ms --uii", "timer", "view add 9bad",
            "expect", "after 1s", "every 1us", "at 0s run 1s", "after 1ms reset", "\"\"", ";", "run until",
            "alias = x", "get", "display rate", "\\",
        ])
    }
}
