import DebugShellCore
import DebugShellTesting
import Testing

@testable import DebugShell
@testable import DebugShellInterpreter

/// A tool whose word metric answers a word it does not declare, beside one that takes any word.
final class MoodyTool: DebugTool {
    static let descriptor = ToolDescriptor(
        name: "moody", abstract: "Answers words.",
        commands: [CommandSpec("moody", abstract: "Change the mood.", arguments: [tone])],
        metrics: [
            MetricSpec("moody.tone", .word(["calm", "loud"]), abstract: "The tone."),
            MetricSpec("moody.label", .anyWord, abstract: "Any label."),
        ])

    static let tone = ArgumentSpec.word("tone", abstract: "The tone to answer.")

    var tone = "calm"

    init(host: any ToolHost) {}

    func run(_ invocation: Invocation) throws(CommandError) -> CommandOutput {
        tone = invocation[Self.tone]
        return .silent
    }

    func metric(_ name: String) -> MetricValue? {
        switch name {
        case "moody.tone": return .word(tone)
        case "moody.label": return .word("label-\(tone)")
        default: return nil
        }
    }
}

/// A tool's word metric declares its words, and the host holds the tool to them
/// (docs/Plugins.md, "What the host checks").
@Suite struct WordMetricHostTests {
    func expect(_ transcript: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let result = try Transcript.replay(transcript, tools: [MoodyTool.self])
        #expect(result.matches, "\(result)", sourceLocation: sourceLocation)
    }

    /// A word outside the declared ones is refused, naming the tool and the words, as a value of
    /// the wrong type is; `.anyWord` takes any word; conditions check the words before reading.
    @Test func aWordOutsideTheDeclaredOnesIsRefused() throws {
        try expect(
            """
            > get moody.tone
            moody.tone = calm
            > expect moody.tone == calm
            > moody shouty
            > get moody.tone
            error: tool 'moody' answered metric 'moody.tone' with 'shouty', which is not one of its words: calm, loud
            > expect moody.tone != calm
            error: tool 'moody' answered metric 'moody.tone' with 'shouty', which is not one of its words: calm, loud
            > expect moody.tone == shouty
            error: 'shouty' is not a value of moody.tone; it is one of calm, loud
            > expect moody.tone == lowd
            error: 'lowd' is not a value of moody.tone; it is one of calm, loud (did you mean 'loud'?)
            > get moody.label
            moody.label = label-shouty
            > expect moody.label == anything
            error: expectation failed: moody.label == anything (moody.label = label-shouty)
            > help moody.tone
            moody.tone (metric, word: calm|loud) — The tone.
            > help moody.label
            moody.label (metric, word (any)) — Any label.
            """)
    }

    /// `run until` reads a refused word as none, with a warning naming the tool, once.
    @Test func runUntilReadsARefusedWordAsNone() throws {
        let r = try Transcript.run(
            "after 10ms moody shouty\nrun until moody.tone == loud --timeout 50ms", tools: [MoodyTool.self])
        #expect(
            r.stderr.hasPrefix(
                "warning: tool 'moody' answered metric 'moody.tone' with 'shouty', which is not one of its words: calm, loud; read as none\n"
            ), "\(r.stderr)")
        #expect(r.outcome == .failed)
    }

    /// Completion offers a word metric's words after its operator.
    @Test func completionOffersTheWords() throws {
        let session = try Session(tools: [MoodyTool.self], sink: MemorySink())
        #expect(session.complete("expect moody.tone == ").candidates == ["calm", "loud"])
        #expect(session.complete("expect moody.tone != l").candidates == ["loud"])
        #expect(session.complete("expect clock.mode == ").candidates == ["default", "tracking"])
        #expect(session.complete("expect moody.label == ").candidates == [])
    }

    func register(_ kind: MetricKind) -> RegistrationError? {
        let d = ToolDescriptor(
            name: "t", abstract: "a", commands: [], metrics: [MetricSpec("t.m", kind, abstract: "A word.")])
        do {
            _ = try Session.makeRegistry(tools: [d])
            return nil
        } catch {
            return error
        }
    }

    /// A `.word` metric names its words, each one a condition can write, once; a bare `.word`
    /// does not compile, and `.word([])` is refused at registration naming the tool.
    @Test func aWordMetricWithoutItsWordsIsRefusedAtRegistration() throws {
        let empty = try #require(register(.word([])))
        #expect(
            empty.description
                == "tool 't': metric 't.m' is a word metric without its words: declare them, .word([\"a\", \"b\"]) or .word(of: AnEnum.self), or .anyWord for a word that is a name"
        )
        #expect(
            register(.word(["on", "none"]))?.description
                == "tool 't': metric 't.m' has the word 'none', which a condition cannot write: a word is letters, digits, '_', '-' and '.', and not 'none'"
        )
        #expect(
            register(.word(["on", "two words"]))?.description
                == "tool 't': metric 't.m' has the word 'two words', which a condition cannot write: a word is letters, digits, '_', '-' and '.', and not 'none'"
        )
        #expect(register(.word(["on", "off", "on"]))?.description == "tool 't': metric 't.m' has the word 'on' twice")
        #expect(register(.word(["on", "off"])) == nil)
        #expect(register(.anyWord) == nil)
        #expect(register(.word(of: RunLoopMode.self)) == nil)
    }
}
