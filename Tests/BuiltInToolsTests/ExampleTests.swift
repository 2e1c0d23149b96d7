import BuiltInTools
import DebugShell
import DebugShellCore
import DebugShellTesting
import Testing

/// Every example of every built-in command and every built-in tool is a test: `help` prints the
/// same transcripts, so the help never lies.
@Suite struct ExampleTests {
    @Test(arguments: Transcript.allExamples(tools: BuiltInTools.all))
    func example(_ labeled: LabeledExample) throws {
        try Transcript.expectMatch(labeled, tools: BuiltInTools.all)
    }

    /// Each verb of each tool has at least one example, and so has each built-in that can show one.
    @Test func everyToolVerbHasAnExample() {
        for tool in BuiltInTools.all {
            for command in tool.descriptor.commands {
                for verb in command.verbs {
                    let label = verb.name.isEmpty ? command.name : "\(command.name) \(verb.name)"
                    #expect(!verb.examples.isEmpty, "'\(label)' of \(tool.descriptor.name) has no example")
                }
            }
        }
    }

    @Test func builtInToolsRegister() throws {
        _ = try Session(tools: BuiltInTools.all, sink: MemorySink())
    }
}
