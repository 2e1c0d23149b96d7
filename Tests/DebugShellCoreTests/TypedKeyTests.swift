import DebugShellCore
import Testing

/// Issue 30: every typed option may declare its default; the frame-rate range is a value kind of
/// the API; a tool's verbs and commands are enums (`ToolVerbs`, `ToolCommands`).
@Suite struct TypedKeyTests {
    /// An invocation of `x y` with these values.
    func invocation(_ values: [String: ArgumentValue] = [:], verb: String = "y") -> Invocation {
        Invocation(command: "x", verb: verb, text: "x \(verb)", values: values, flags: [])
    }

    /// Each typed option factory with a default: the key reads its default when the option is not
    /// given and the value when it is, help shows the default as the command line writes it, and
    /// `defaultValue` is the default.
    @Test func everyTypedOptionFactoryTakesADefault() throws {
        let range = try FrameRateRange(minimum: 80, maximum: 120, preferred: 120)
        let other = try FrameRateRange(minimum: 10, maximum: 60)
        try expectDefault(
            OptionSpec.duration("o", abstract: "a", default: .milliseconds(250)), "250ms", .duration(.seconds(1)),
            .seconds(1))
        try expectDefault(
            OptionSpec.time("o", abstract: "a", default: SimTime(nanoseconds: 5)), "5ns",
            .time(SimTime(nanoseconds: 7)), SimTime(nanoseconds: 7))
        try expectDefault(
            OptionSpec.rate("o", abstract: "a", default: try RefreshRate(hertz: 120)), "120Hz",
            .rate(try RefreshRate(hertz: 30)), try RefreshRate(hertz: 30))
        try expectDefault(OptionSpec.integer("o", in: 1...9, abstract: "a", default: 3), "3", .integer(4), 4)
        try expectDefault(OptionSpec.decimal("o", abstract: "a", default: 0.5), "0.5", .decimal(2), 2)
        try expectDefault(OptionSpec.boolean("o", abstract: "a", default: true), "on", .boolean(false), false)
        try expectDefault(
            OptionSpec.rect("o", abstract: "a", default: FrameRect(x: 1, y: 2, width: 3, height: 4)), "1,2,3,4",
            .rect(.zero), .zero)
        try expectDefault(OptionSpec.word("o", abstract: "a", default: "w"), "w", .word("v"), "v")
        try expectDefault(
            OptionSpec.name("o", NameDomain("view"), abstract: "a", default: "window"), "window", .word("header"),
            "header")
        try expectDefault(OptionSpec.path("o", abstract: "a", default: "out.svg"), "out.svg", .word("a.svg"), "a.svg")
        try expectDefault(
            OptionSpec.frameRateRange("o", abstract: "a", default: range), "80,120,120", .frameRateRange(other), other)
        try expectDefault(
            OptionSpec.choice("o", among: [RunLoopMode.common, .default], abstract: "a", default: .common), "common",
            .word("default"), RunLoopMode.default)
        try expectDefault(
            OptionSpec.choice("o", abstract: "a", default: Tone.loud), "loud", .word("quiet"), Tone.quiet)
    }

    func expectDefault<Value: Equatable>(
        _ key: OptionKey<Value>, _ defaultText: String, _ given: ArgumentValue, _ read: Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(key.optionSpec.defaultText == defaultText, sourceLocation: sourceLocation)
        #expect(invocation()[key] == key.defaultValue, sourceLocation: sourceLocation)
        #expect(invocation([key.name: given])[key] == read, sourceLocation: sourceLocation)
        #expect(
            key.defaultValue != read, "the test's value must differ from the default", sourceLocation: sourceLocation)
    }

    /// The same factories without a default read as nil when not given, and help shows the
    /// `defaultText` given, if any.
    @Test func withoutADefaultAnOptionReadsAsNil() throws {
        let rate = OptionSpec.rate("rate", abstract: "a", defaultText: "the display's")
        #expect(invocation()[rate] == nil)
        #expect(rate.optionSpec.defaultText == "the display's")
        let range = OptionSpec.frameRateRange("range", abstract: "a")
        #expect(invocation()[range] == nil)
        #expect(range.optionSpec.defaultText == nil)
        #expect(range.optionSpec.usage == "--range min,max[,preferred]")
        let given = try FrameRateRange(minimum: 10, maximum: 120)
        #expect(invocation(["range": .frameRateRange(given)])[range] == given)
        // A value of another kind is not a range.
        #expect(invocation(["range": .word("10,120")])[range] == nil)
        #expect(invocation()[OptionSpec.name("n", NameDomain("view"), abstract: "a")] == nil)
        #expect(invocation()[OptionSpec.path("p", abstract: "a")] == nil)
    }

    /// An optional choice argument with a default reads as its case when left out.
    @Test func aChoiceArgumentMayDeclareItsDefault() {
        let tone = ArgumentSpec.choice("tone", abstract: "a", default: Tone.quiet)
        #expect(tone.argumentSpec.isOptional)
        #expect(tone.argumentSpec.usage == "[quiet|loud]")
        #expect(invocation()[tone] == .quiet)
        #expect(invocation(["tone": .word("loud")])[tone] == .loud)
    }

    /// A required range argument reads as the range given.
    @Test func aRangeArgument() throws {
        let range = ArgumentSpec.frameRateRange("range", abstract: "a")
        #expect(range.argumentSpec.kind == .frameRateRange)
        #expect(range.argumentSpec.usage == "<range>")
        let given = try FrameRateRange(minimum: 30, maximum: 60, preferred: 60)
        #expect(invocation(["range": .frameRateRange(given)])[range] == given)
    }

    /// A range as a value: written as `FrameRateRange.parse` reads it, in text and in JSON.
    @Test func aRangeIsAValue() throws {
        let range = try FrameRateRange(minimum: 80, maximum: 120, preferred: 120)
        #expect(range.argumentValue == .frameRateRange(range))
        #expect(FrameRateRange(argumentValue: .frameRateRange(range)) == range)
        #expect(FrameRateRange(argumentValue: .word("80,120,120")) == nil)
        #expect(ArgumentValue.frameRateRange(range).description == "80,120,120")
        #expect(ArgumentValue.frameRateRange(try FrameRateRange(minimum: 10, maximum: 60)).description == "10,60")
        #expect(ArgumentValue.frameRateRange(range).json == .string("80,120,120"))
        #expect(try FrameRateRange.parse(range.description) == range)
        #expect(ValueKind.frameRateRange.placeholder == "min,max[,preferred]")
    }

    // MARK: Verbs and commands as enums

    enum Verb: String, ToolVerbs {
        case show = ""
        case start, stop

        var declaration: VerbSpec {
            switch self {
            case .show: return VerbSpec("", abstract: "Show.")
            case .start: return VerbSpec("start", abstract: "Start.")
            case .stop: return VerbSpec("stop", abstract: "Stop.")
            }
        }
    }

    enum Command: String, ToolCommands {
        case x, other

        var declaration: CommandSpec {
            switch self {
            case .x: return CommandSpec("x", abstract: "X.", verbs: Verb.declarations, defaultVerb: Verb.show.rawValue)
            case .other: return CommandSpec("other", abstract: "Other.")
            }
        }
    }

    /// The enum's declarations are its cases' in order, and an invocation's verb and command
    /// read back as the cases; a name the enum does not declare is the built-ins' error.
    @Test func verbsAndCommandsRoundTrip() throws {
        #expect(Verb.declarations.map(\.name) == ["", "start", "stop"])
        #expect(Command.declarations.map(\.name) == ["x", "other"])
        #expect(Command.x.declaration.verbs.map(\.name) == Verb.allCases.map(\.rawValue))
        for verb in Verb.allCases {
            #expect(try invocation(verb: verb.rawValue).verb(Verb.self) == verb)
        }
        #expect(try invocation().command(Command.self) == .x)
        #expect(message { try invocation(verb: "launch").verb(Verb.self) } == "'x' has no verb 'launch'")
        let stranger = Invocation(command: "fps", verb: "", text: "fps", values: [:], flags: [])
        #expect(message { try stranger.command(Command.self) } == "'fps' is not a command of this tool")
        // The string stays what it was: plugins that switch on it keep working.
        #expect(invocation(verb: "start").verb == "start")
    }
}

/// The message of the error `body` throws; nil when it throws none.
func message(_ body: () throws -> some Any) -> String? {
    do {
        _ = try body()
        return nil
    } catch let error as CommandError {
        return error.message
    } catch {
        return "not a CommandError: \(error)"
    }
}

enum Tone: String, CommandLineChoice {
    case quiet, loud
}
