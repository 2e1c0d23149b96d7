import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShellInterpreter

@Suite struct ValueParserTests {
    func ns(_ text: String, rate: Int = 60) throws(CommandError) -> Int64 {
        try ValueParser.duration(text, rate: rate).nanoseconds
    }

    /// Whatever debugsh prints for a duration or time parses back to the same nanoseconds:
    /// every magnitude from 1 ns to the horizon, in each unit the format picks.
    @Test(arguments: [1, 2, 3])
    func printedDurationsReadBackAsThemselves(seed: UInt64) throws {
        var rng = SplitMix(state: seed)
        for _ in 0..<2_000 {
            let digits = Int.random(in: 0...19, using: &rng)
            var n = Int64.random(in: 0...Int64.max, using: &rng)
            for _ in 0..<(19 - digits) { n /= 10 }
            let ns = min(n, SimTime.horizon.nanoseconds)
            let text = SimDuration(nanoseconds: ns).description
            #expect(try self.ns(text) == ns, "\(ns) → \(text)")
            #expect(try ValueParser.time(SimTime(nanoseconds: ns).description, rate: 60).nanoseconds == ns)
        }
    }

    @Test(
        arguments: [
            ("1ns", 1), ("2us", 2_000), ("2µs", 2_000), ("16ms", 16_000_000), ("1.5s", 1_500_000_000),
            ("0.000000001s", 1), ("2min", 120_000_000_000), ("0s", 0), ("16.666666ms", 16_666_666),
            ("1.000ms", 1_000_000), ("+3ms", 3_000_000),
        ] as [(String, Int64)])
    func durations(_ text: String, _ expected: Int64) throws {
        #expect(try ns(text) == expected)
    }

    @Test func framesAreWholePeriodsAtTheCurrentRate() throws {
        // <n>f = floor(n·1e9/R).
        #expect(try ns("1f") == 16_666_666)
        #expect(try ns("30f") == 500_000_000)
        #expect(try ns("1f", rate: 120) == 8_333_333)
        #expect(try ns("7f", rate: 120) == 58_333_333)
        #expect(throws: CommandError.self) { try ns("1.5f") }
    }

    @Test(arguments: [
        ("5", "add a unit"), ("1.5ns", "not a whole number of nanoseconds"), ("-5ms", "negative duration"),
        ("1e3s", "exponents are not allowed"), ("nan", "not a number"), ("5parsecs", "unknown unit 'parsecs'"),
        ("99999999999999999999999999999s", "horizon"), ("9999999999999999999999999999999999999999s", "too large"),
        ("200years", "unknown unit"),
        ("146000000000s", "beyond the 2^62 ns horizon"), ("1..2s", "not a number"), ("s", "expected a number"),
    ])
    func badDurations(_ text: String, _ message: String) {
        do {
            _ = try ns(text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func rates() throws {
        #expect(try ValueParser.rate("120Hz").hertz == 120)
        #expect(try ValueParser.rate("60").hertz == 60)
        #expect(try ValueParser.rate("1000hz").hertz == 1000)
        for bad in ["0Hz", "1001", "60.5Hz", "fast", "-60", "99999999999999999999Hz"] {
            #expect(throws: CommandError.self, "\(bad)") { try ValueParser.rate(bad) }
        }
    }

    @Test func integersNeverOverflow() throws {
        #expect(try ValueParser.integer("9223372036854775807", range: 0...Int64.max) == Int64.max)
        #expect(throws: CommandError.self) { try ValueParser.integer("9223372036854775808", range: 0...Int64.max) }
        #expect(throws: CommandError.self) { try ValueParser.integer("5", range: 1...3) }
        #expect(throws: CommandError.self) { try ValueParser.integer("1.0", range: 0...3) }
    }

    @Test func rectsAndBooleansAndNames() throws {
        #expect(try ValueParser.rect("0,0.5,390,844") == FrameRect(x: 0, y: 0.5, width: 390, height: 844))
        #expect(try ValueParser.rect("-10,-5,1,1").x == -10)
        #expect(throws: CommandError.self) { try ValueParser.rect("0,0,10") }
        #expect(throws: CommandError.self) { try ValueParser.rect("0,0,-1,10") }
        #expect(throws: CommandError.self) { try ValueParser.rect("0,0,nan,10") }
        #expect(try ValueParser.boolean("YES") && !ValueParser.boolean("off"))
        #expect(throws: CommandError.self) { try ValueParser.boolean("maybe") }
        #expect(ValueParser.isName("cell_7.a-b") && !ValueParser.isName("7cell") && !ValueParser.isName("a b"))
    }

    @Test func suggestions() {
        #expect(Suggest.closest(to: "fsp", in: ["fps", "layout"]) == "fps")
        #expect(Suggest.closest(to: "metrix", in: ["metrics", "get"]) == "metrics")
        #expect(Suggest.closest(to: "zz", in: ["at", "fps"]) == nil)
    }
}

/// Issue 30: a frame rate range is a value kind, parsed once (``FrameRateRange/parse(_:)``) by
/// the value parser, so the command parser refuses a bad range wherever a command is parsed — a
/// run, `--check`, a scheduled command — with the messages a run gave before.
@Suite struct FrameRateRangeKindTests {
    @Test(
        arguments: [
            ("80,120,120", 80, 120, 120), ("10,120", 10, 120, 0), ("10Hz,120hz", 10, 120, 0), ("60, 60", 60, 60, 0),
            ("1,1000,0", 1, 1000, 0),
        ] as [(String, Int, Int, Int)])
    func ranges(_ text: String, _ minimum: Int, _ maximum: Int, _ preferred: Int) throws {
        let range = try ValueParser.frameRateRange(text)
        #expect((range.minimum, range.maximum, range.preferred) == (minimum, maximum, preferred))
        #expect(try ValueParser.parse(text, as: .frameRateRange, rate: 60) == .frameRateRange(range))
    }

    /// The exact messages, as `fps start --range …` printed them before the range was a kind.
    @Test(
        arguments: [
            ("200,10", "frame rate range: minimum 200 Hz is above maximum 10 Hz"),
            ("0,0", "frame rate range: minimum 0 Hz is outside 1…1000 Hz"),
            ("10,2000", "frame rate range: maximum 2000 Hz is outside 1…1000 Hz"),
            ("10,120,5", "frame rate range: preferred 5 Hz is outside 10…120 Hz (0: no preference)"),
            ("x", "'x' is not a frame rate range: expected min,max[,preferred] in Hz, e.g. 80,120,120"),
            ("1,2,3,4", "'1,2,3,4' is not a frame rate range: expected min,max[,preferred] in Hz, e.g. 80,120,120"),
            ("", "'' is not a frame rate range: expected min,max[,preferred] in Hz, e.g. 80,120,120"),
            (
                "10Hz,abc",
                "'10Hz,abc' is not a frame rate range: 'abc' is not a whole number of hertz (min,max[,preferred], e.g. 80,120,120)"
            ),
            (
                "-1,60",
                "'-1,60' is not a frame rate range: '-1' is not a whole number of hertz (min,max[,preferred], e.g. 80,120,120)"
            ),
        ] as [(String, String)])
    func badRanges(_ text: String, _ message: String) {
        #expect(Self.message { try ValueParser.frameRateRange(text) } == message)
        #expect(Self.message { try ValueParser.parse(text, as: .frameRateRange, rate: 60) } == message)
    }

    /// The kind in words, for a tool's setting of another kind.
    @Test func describedInWords() throws {
        let range = try FrameRateRange(minimum: 10, maximum: 120)
        #expect(ValueParser.describe(.frameRateRange(range)) == "the frame rate range 10,120")
        #expect(ValueParser.describe(ValueKind.frameRateRange) == "a frame rate range min,max[,preferred]")
        #expect(ValueParser.mismatch(.frameRateRange(range), for: .frameRateRange, rate: 60) == nil)
        #expect(
            ValueParser.mismatch(.word("10,120"), for: .frameRateRange, rate: 60)
                == "the word '10,120', but it declares a frame rate range min,max[,preferred]")
    }

    /// The command parser reads `--range` as a range, and refuses a bad one with the value
    /// parser's message, not prefixed with the option's name as other kinds are (`--max: …`).
    @Test func theCommandParserRefusesABadRange() throws {
        let tool = ToolDescriptor(
            name: "meter", abstract: "A meter.",
            commands: [
                CommandSpec(
                    "meter", abstract: "Meter.",
                    verbs: [
                        VerbSpec(
                            "start", abstract: "Start.",
                            options: [
                                OptionSpec.frameRateRange("range", abstract: "The range."),
                                OptionSpec.rate("max", abstract: "The most.", default: .sixty),
                            ])
                    ])
            ])
        let registry = try RegistryGrammarTests.registry([tool])
        let parser = CommandParser(registry: registry, rate: 60)
        func parse(_ line: String) throws(CommandError) -> ParsedCommand {
            try parser.parse(line.split(separator: " ").map { Word(String($0)) }, text: line)
        }
        let parsed = try parse("meter start --range 80,120,120")
        #expect(parsed.invocation.values["range"] == .frameRateRange(try FrameRateRange.parse("80,120,120")))
        #expect(try parse("meter start --range=10,60").invocation.values["range"]?.description == "10,60")
        #expect(
            Self.message { try parse("meter start --range 200,10") }
                == "frame rate range: minimum 200 Hz is above maximum 10 Hz")
        #expect(Self.message { try parse("meter start --max 1001Hz") } == "--max: rate '1001Hz' is outside 1…1000 Hz")
        #expect(
            Self.message { try parse("meter start --range") }
                == "option '--range' of 'meter start' needs a value (min,max[,preferred])")
    }

    static func message(_ body: () throws -> some Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as CommandError {
            return error.message
        } catch {
            return "not a CommandError: \(error)"
        }
    }
}
