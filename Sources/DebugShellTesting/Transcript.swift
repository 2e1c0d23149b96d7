import DebugShell
import DebugShellCore

/// Replays transcripts — `> command` lines each followed by its exact output — through a fresh
/// session, so that examples in declarations are tests (SwiftLint's triggering examples).
public enum Transcript {
    /// What a replay produced next to what was expected.
    public struct Result: Sendable, CustomStringConvertible {
        public var expected: String
        public var actual: String
        public var matches: Bool { expected == actual }
        public var description: String {
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            var out = "transcript differs (- expected, + actual):\n"
            for i in 0..<max(e.count, a.count) {
                let x = i < e.count ? String(e[i]) : nil
                let y = i < a.count ? String(a[i]) : nil
                if x == y {
                    out += "  \(x ?? "")\n"
                } else {
                    if let x { out += "- \(x)\n" }
                    if let y { out += "+ \(y)\n" }
                }
            }
            return out
        }
    }

    /// Replays `transcript` in a new interactive-style session (errors print as `error: …`).
    ///
    /// - Parameters:
    ///   - transcript: `> command` lines, each followed by its output.
    ///   - tools: the tools to register.
    public static func replay(_ transcript: String, tools: [any DebugTool.Type]) throws -> Result {
        let sink = MemorySink()
        let session = try Session(tools: tools, options: SessionOptions(), sink: sink)
        return replay(transcript, in: session, sink: sink)
    }

    /// Replays in an existing session.
    public static func replay(_ transcript: String, in session: Session, sink: MemorySink) -> Result {
        let example = Example(transcript)
        var expected: [String] = []
        var actual: [String] = []
        for step in example.steps {
            var output = step.output
            while output.last?.isEmpty == true { output.removeLast() }
            expected.append("> " + step.command)
            expected += output
            actual.append("> " + step.command)
            sink.clear()
            _ = session.runLine(step.command)
            var lines = sink.combined.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while lines.last?.isEmpty == true { lines.removeLast() }
            actual += lines
        }
        return Result(expected: expected.joined(separator: "\n"), actual: actual.joined(separator: "\n"))
    }

    /// Runs a whole script (as a file would run) and returns stdout, stderr and the outcome.
    public static func run(
        _ script: String, tools: [any DebugTool.Type], options: SessionOptions = SessionOptions(),
        name: String = "test.dsh"
    ) throws -> (stdout: String, stderr: String, outcome: ScriptOutcome) {
        let sink = MemorySink()
        let session = try Session(tools: tools, options: options, sink: sink)
        let outcome = session.runScript(script, origin: ScriptOrigin(name: name))
        return (sink.standardOutput, sink.standardError, outcome)
    }
}

/// An example of a command, with where it comes from (for parameterized tests).
public struct LabeledExample: Sendable, CustomStringConvertible {
    public var command: String
    public var example: Example
    public var description: String { "\(command) @ \(example)" }
}

extension Transcript {
    /// Every example declared by the built-ins and the given tools.
    public static func allExamples(tools: [any DebugTool.Type]) -> [LabeledExample] {
        examples(in: Session.builtInCommandSpecs + tools.flatMap { $0.descriptor.commands })
    }

    /// Every example the given tools declare, each labelled with its command and verb: the
    /// arguments of a parameterized test (see ``expectMatch(_:tools:sourceLocation:)``). The
    /// shell's own commands' examples are not among them.
    public static func examples(of tools: any DebugTool.Type...) -> [LabeledExample] {
        examples(in: tools.flatMap { $0.descriptor.commands })
    }

    private static func examples(in specs: [CommandSpec]) -> [LabeledExample] {
        var out: [LabeledExample] = []
        for spec in specs {
            for verb in spec.verbs {
                for example in verb.examples {
                    out.append(
                        LabeledExample(
                            command: verb.name.isEmpty ? spec.name : "\(spec.name) \(verb.name)", example: example))
                }
            }
        }
        return out
    }
}
