import DebugShellTesting
import Foundation
import Testing

/// Bad input of every kind gives a clear error and a clean exit status, never a crash (docs/JSON.md).
@Suite struct BadInputTests {
    /// No Swift runtime crash text, ever.
    func expectNoCrash(_ r: Binary.Run, seed: UInt64? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let context = seed.map { "seed \($0) (DEBUGSH_TEST_SEED=\($0))\n" } ?? ""
        for marker in ["Fatal error", "Stack dump", "Backtrace", "Crash", "Illegal instruction", "Segmentation"] {
            #expect(!r.stderr.contains(marker), "\(context)\(r)", sourceLocation: sourceLocation)
        }
        #expect([0, 1].contains(r.status), "\(context)\(r)", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ("echo 'unterminated", "<stdin>:1: error: unterminated ' quote"),
        ("frobnicate", "<stdin>:1: error: unknown command 'frobnicate' (try 'help')"),
        ("stall 10ms --uii", "<stdin>:1: error: unknown option '--uii' for 'stall'; did you mean '--ui'?"),
        ("run 10parsecs", "<stdin>:1: error: '10parsecs': unknown unit 'parsecs' (use ns, us, ms, s, min or f)"),
        ("run 0.5ns", "<stdin>:1: error: '0.5ns' is not a whole number of nanoseconds"),
        (
            "run 99999999999999999999999s",
            "<stdin>:1: error: '99999999999999999999999s' is beyond the 2^62 ns horizon (about 146 years)"
        ),
        ("run nan", "<stdin>:1: error: 'nan' is not a duration (not a number)"),
        (
            "run 1000000000000000000000000000000min",
            "<stdin>:1: error: '1000000000000000000000000000000min' is beyond the 2^62 ns horizon (about 146 years)"
        ),
        (
            "run 1000000000000000000000000000000f",
            "<stdin>:1: error: '1000000000000000000000000000000f' is beyond the 2^62 ns horizon (about 146 years)"
        ),
        (
            "expect clock.now == 1267650600228229401496703205375min",
            "<stdin>:1: error: clock.now is a time: '1267650600228229401496703205375min' is beyond the 2^62 ns horizon (about 146 years)"
        ),
        ("run NaNs", "<stdin>:1: error: 'NaNs' is not a duration (not a number)"),
        ("run -5ms", "<stdin>:1: error: negative duration '-5ms' is not allowed"),
        ("run 5", "<stdin>:1: error: '5' is not a duration: add a unit (ns, us, ms, s, min) or f for frames"),
        ("step 99999999999999999999", "<stdin>:1: error: integer '99999999999999999999' is too large"),
        ("display rate 5000Hz", "<stdin>:1: error: rate '5000Hz' is outside 1…1000 Hz"),
        ("expect clock.rate == 1e9", "<stdin>:1: error: clock.rate is an integer: '1e9' is not an integer"),
        ("get nope.metric", "<stdin>:1: error: unknown metric 'nope.metric' (see 'metrics')"),
        ("at -1s echo x", "<stdin>:1: error: negative duration '-1s' is not allowed"),
        ("every 0s echo x", "<stdin>:1: error: every needs an interval of at least 1us (got 0s)"),
        ("run until bogus > 1", "<stdin>:1: error: unknown metric 'bogus' (see 'metrics')"),
        ("exit 300", "<stdin>:1: error: '300' is outside 0…255"),
    ])
    func badCommands(_ line: String, _ error: String) throws {
        let r = try Binary.run([], stdin: line + "\n")
        #expect(r.stderr == error + "\n")
        #expect(r.status == 1)
        expectNoCrash(r)
    }

    @Test func binaryScriptFile() throws {
        let dir = try Binary.folder([:])
        try Data([0x65, 0x63, 0x68, 0x6F, 0x0A, 0x00, 0xFF, 0xFE]).write(to: dir.appendingPathComponent("bin.dsh"))
        let r = try Binary.run(["bin.dsh"], directory: dir)
        #expect(r.stderr == "bin.dsh:2: error: binary file (a NUL byte): debugsh scripts are text\n")
        #expect(r.status == 1)
        let viaSource = try Binary.run(["-c", "source bin.dsh"], directory: dir)
        #expect(
            viaSource.stderr
                == "bin.dsh:2: error: binary file (a NUL byte): debugsh scripts are text (sourced from <command-line>:1)\n"
        )
        #expect(viaSource.status == 1)
    }

    @Test func invalidUTF8() throws {
        let r = try Binary.run([], stdinData: Data([0x65, 0x63, 0x68, 0x6F, 0x20, 0x61, 0x0A, 0xC3, 0x28, 0x0A]))
        #expect(r.stdout == "a\n")
        #expect(r.stderr == "<stdin>:2: error: not UTF-8 text: '\\xc3(' (debugsh scripts are UTF-8)\n")
        #expect(r.status == 1)
    }

    @Test func aOneMegabyteLineIsAcceptedAndALongerOneRefused() throws {
        let word = String(repeating: "x", count: 1_000_000)
        let ok = try Binary.run([], stdin: "echo \(word)\necho done\n")
        #expect(ok.status == 0)
        #expect(ok.stdout == "\(word)\ndone\n")
        let tooLong = String(repeating: "y", count: (1 << 20) + 10)
        let r = try Binary.run(["-k"], stdin: "echo before\necho \(tooLong)\necho after\n")
        #expect(r.stdout == "before\nafter\n")
        #expect(r.stderr == "<stdin>:2: error: line longer than 1 MiB (the limit)\n")
        #expect(r.status == 1)
    }

    @Test func randomBytesNeverCrash() throws {
        let (start, seed) = SplitMix.seeded()
        var generator = start
        var bytes: [UInt8] = []
        let alphabet = Array(
            "run step at every after expect get set alias source echo --ui --times 1s 5ms -3 nan ' \" \\ ; # = == >= and or f Hz µs\n 9999999999999999999999 x.y"
                .utf8)
        for _ in 0..<20_000 {
            bytes.append(
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 1...255, using: &generator))
        }
        let r: Binary.Run
        do {
            r = try Binary.run(["-k"], stdinData: Data(bytes), timeout: 300)
        } catch {
            Issue.record("no end after 300s: seed \(seed)")
            return
        }
        expectNoCrash(r, seed: seed)
    }

    @Test func garbageCommandsFromTheLanguageNeverCrash() throws {
        let pieces = [
            "run", "step", "after 1s", "at 0s", "every 1us --times 3", "expect", "get", "metrics", "set", "alias a =",
            "load gpu", "display rate", "stall", "animate", "scroll", "help", "apropos", "status", "history", "unalias",
            "1s", "-1s", "0", "99999999999999999999", "nan", "1e9", "'", "\"x", "--ui", "--times", "==", "and", "or",
            "a", "%1", "%*", ";", "#", "\\", "f", "30f", "1000Hz", "clock.now", "main.busy_ratio", "none", "reset",
            "1000000000000000000000000000000min", "99999999999999999999999999999f", "0.000000000000000000000000000001",
            "123456789012345678901234567890.5s", "-9223372036854775808", "9223372036854775807ns", "main.busy_ratio ==",
        ]
        let (start, seed) = SplitMix.seeded()
        var generator = start
        var lines: [String] = []
        for _ in 0..<3000 {
            let n = Int.random(in: 1...5, using: &generator)
            lines.append((0..<n).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: " "))
        }
        // A run that does not finish says its seed (DEBUGSH_TEST_SEED replays it).
        let r: Binary.Run
        do {
            r = try Binary.run(["-k"], stdin: lines.joined(separator: "\n") + "\n", timeout: 300)
        } catch {
            Issue.record("no end after 300s: seed \(seed)")
            return
        }
        expectNoCrash(r, seed: seed)
    }
}
