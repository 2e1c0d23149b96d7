import DebugShellCore
import Testing

@testable import DebugShellInterpreter

@Suite struct LexerTests {
    func words(_ line: String) throws -> [[String]] {
        let (commands, error) = Lexer.lex(line)
        if let error { throw CommandError(error.message) }
        return commands.map { $0.words.map(\.text) }
    }

    @Test func quotesAndEscapes() throws {
        #expect(try words(#"echo 'a b' "c \"d\" \\ \n\t" e\ f"#) == [["echo", "a b", "c \"d\" \\ \n\t", "e f"]])
        #expect(try words(#"echo "x"'y'z"#) == [["echo", "xyz"]])
        #expect(try words(#"echo "\q""#) == [["echo", "\\q"]])
    }

    @Test func commentsAndSemicolons() throws {
        #expect(try words("echo a # comment ; echo b") == [["echo", "a"]])
        #expect(
            try words("echo a;echo b ; ; echo 'c;d' \"#\"") == [["echo", "a"], ["echo", "b"], ["echo", "c;d", "#"]])
        #expect(try words("   # only a comment\n\n\t\n") == [])
    }

    @Test func continuationNamesTheFirstLine() throws {
        let (commands, error) = Lexer.lex("echo a \\\n  b \\\n  c\necho d")
        #expect(error == nil)
        #expect(commands.map { $0.words.map(\.text) } == [["echo", "a", "b", "c"], ["echo", "d"]])
        #expect(commands.map(\.line) == [1, 4])
        // A backslash inside quotes or a comment does not continue.
        #expect(try words("echo 'a\\'\necho b") == [["echo", "a\\"], ["echo", "b"]])
        #expect(try words("echo a # c \\\necho b") == [["echo", "a"], ["echo", "b"]])
    }

    @Test func unterminatedQuotesAreErrorsWithTheirLine() {
        let (commands, error) = Lexer.lex("echo ok\necho 'oops\necho never")
        #expect(commands.count == 1)
        #expect(error?.line == 2)
        #expect(error?.message == "unterminated ' quote")
        #expect(Lexer.lex("echo \"x").error?.message == "unterminated \" quote")
    }

    @Test func lineLimitIsOneMebibyte() {
        let oneMB = "echo " + String(repeating: "x", count: 1_000_000)
        let (accepted, error) = Lexer.lex(oneMB)
        #expect(error == nil)
        #expect(accepted.first?.words.last?.text.count == 1_000_000)
        let tooLong = "echo " + String(repeating: "x", count: 1 << 20)
        #expect(Lexer.lex("echo ok\n" + tooLong).error?.line == 2)
    }

    @Test func quoteRoundTrips() throws {
        for text in ["plain", "a b", "q\"uo'te", "semi;colon", "#hash", "", "tab\there", "back\\slash"] {
            #expect(try words("echo " + Lexer.quote(text)) == [["echo", text]])
        }
    }
}
