import BuiltInTools
import DebugShellTesting
import Testing

@testable import DebugShell

/// Help fits the terminal (issue 37, 7): every help page of every command and verb, at 80
/// columns, has no line wider than 80 — a USAGE line wraps between its parts, never inside
/// `[--quiet <duration>]` (a terminal cut `<duratio` / `n>]`) — and `apropos` with several words
/// finds the topics that mention all of them.
@Suite struct HelpWidthTests {
    @Test func everyHelpPageFitsEightyColumns() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, options: SessionOptions(width: 80), sink: sink)
        var pages: [String] = []
        for command in session.vocabulary.registry.commands {
            pages.append(command.spec.name)
            for verb in command.spec.verbs where !verb.name.isEmpty {
                pages.append("\(command.spec.name) \(verb.name)")
            }
        }
        #expect(pages.count > 60)
        for page in pages {
            sink.clear()
            _ = session.runLine("help \(page)")
            // Examples are transcripts, shown as a session prints them; every other line fits.
            var inExamples = false
            var wide: [Substring] = []
            for line in sink.standardOutput.split(separator: "\n", omittingEmptySubsequences: false) {
                if line == "EXAMPLES:" {
                    inExamples = true
                } else if !line.isEmpty && !line.hasPrefix(" ") {
                    inExamples = false
                }
                if !inExamples && line.count > 80 { wide.append(line) }
            }
            #expect(wide.isEmpty, "help \(page):\n\(wide.joined(separator: "\n"))")
            // No usage part is cut in two.
            for line in sink.standardOutput.split(separator: "\n") where line.hasPrefix("USAGE: ") {
                let opened = line.count { $0 == "[" } - line.count { $0 == "]" }
                #expect(opened == 0, "help \(page): \(line)")
            }
        }
    }

    @Test func aproposFindsTopicsThatMentionEveryWord() throws {
        let sink = MemorySink()
        let session = try Session(tools: BuiltInTools.all, sink: sink)
        _ = session.runLine("apropos timer scroll")
        #expect(sink.standardOutput.contains("rule T7 — Default-mode timers and scrolling"), "\(sink.standardOutput)")
        sink.clear()
        _ = session.runLine("apropos xyzzy plugh")
        #expect(sink.standardOutput == "nothing matches 'xyzzy plugh', as a phrase or word by word\n")
    }
}
