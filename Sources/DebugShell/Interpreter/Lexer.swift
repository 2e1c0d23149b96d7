import DebugShellCore

/// One command of a script: its words and the line it starts on.
public struct LexedCommand: Sendable {
    public var words: [Word]
    /// The line the command starts on (a continued line is named by its first line).
    public var line: Int
    /// The command's text as written, for `--echo`, history and JSON.
    public var text: String
}

/// A lexing error: an unterminated quote, an overlong line.
public struct LexError: Error, Sendable {
    public var message: String
    public var line: Int
}

/// Splits script text into commands (SPEC §3).
///
/// One command per line; `;` separates commands; `#` outside quotes begins a comment;
/// `'…'` quotes literally; `"…"` quotes with `\"`, `\\`, `\n`, `\t`; outside quotes `\` escapes
/// the next character; a trailing `\` continues the line. Lines are limited to 1 MiB.
public enum Lexer {
    /// The longest logical line accepted (SPEC §13).
    public static let maxLineBytes = 1 << 20

    /// Lexes a whole script. Stops at the first error, returning what came before it.
    public static func lex(_ text: String, firstLine: Int = 1) -> (commands: [LexedCommand], error: LexError?) {
        var commands: [LexedCommand] = []
        var lineNumber = firstLine
        var pending = ""
        var pendingStart = firstLine
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { lines.removeLast() }
        for rawLine in lines {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if pending.isEmpty { pendingStart = lineNumber }
            if pending.utf8.count + line.utf8.count > maxLineBytes {
                return (commands, LexError(message: "line longer than 1 MiB (the limit)", line: pendingStart))
            }
            if endsWithContinuation(line) {
                pending += line.dropLast()
                lineNumber += 1
                continue
            }
            pending += line
            do {
                commands += try lexLine(pending, line: pendingStart)
            } catch {
                return (commands, error)
            }
            pending = ""
            lineNumber += 1
        }
        if !pending.isEmpty {
            do {
                commands += try lexLine(pending, line: pendingStart)
            } catch {
                return (commands, error)
            }
        }
        return (commands, nil)
    }

    /// Whether a line ends with a `\` that continues it: an odd run of backslashes outside
    /// quotes and comments.
    public static func endsWithContinuation(_ line: Substring) -> Bool {
        guard line.hasSuffix("\\") else { return false }
        var quote: Character?
        var escaped = false
        for c in line {
            if escaped {
                escaped = false
                continue
            }
            if let q = quote {
                if c == "\\" && q == "\"" { escaped = true } else if c == q { quote = nil }
                continue
            }
            switch c {
            case "\\": escaped = true
            case "'", "\"": quote = c
            case "#": return false
            default: break
            }
        }
        return escaped && quote == nil
    }

    /// Lexes one logical line into its commands.
    public static func lexLine(_ line: String, line number: Int) throws(LexError) -> [LexedCommand] {
        var commands: [LexedCommand] = []
        var words: [Word] = []
        var text = ""
        var raw = ""
        var inWord = false
        var quoted = false
        var commandText = ""

        func endWord() {
            if inWord { words.append(Word(text: text, raw: raw, quoted: quoted)) }
            text = ""
            raw = ""
            inWord = false
            quoted = false
        }
        func endCommand() {
            endWord()
            if !words.isEmpty {
                commands.append(
                    LexedCommand(words: words, line: number, text: trimmed(commandText)))
            }
            words = []
            commandText = ""
        }

        var chars = Array(line.unicodeScalars)[...]
        while let c = chars.popFirst() {
            switch c {
            case " ", "\t":
                endWord()
                commandText.unicodeScalars.append(c)
            case ";":
                endCommand()
            case "#":
                endCommand()
                return commands
            case "'":
                inWord = true
                quoted = true
                raw.unicodeScalars.append(c)
                commandText.unicodeScalars.append(c)
                var closed = false
                while let d = chars.popFirst() {
                    raw.unicodeScalars.append(d)
                    commandText.unicodeScalars.append(d)
                    if d == "'" {
                        closed = true
                        break
                    }
                    text.unicodeScalars.append(d)
                }
                if !closed { throw LexError(message: "unterminated ' quote", line: number) }
            case "\"":
                inWord = true
                quoted = true
                raw.unicodeScalars.append(c)
                commandText.unicodeScalars.append(c)
                var closed = false
                while let d = chars.popFirst() {
                    raw.unicodeScalars.append(d)
                    commandText.unicodeScalars.append(d)
                    if d == "\"" {
                        closed = true
                        break
                    }
                    if d == "\\", let e = chars.popFirst() {
                        raw.unicodeScalars.append(e)
                        commandText.unicodeScalars.append(e)
                        switch e {
                        case "n": text += "\n"
                        case "t": text += "\t"
                        case "\"", "\\": text.unicodeScalars.append(e)
                        default:
                            text.unicodeScalars.append(d)
                            text.unicodeScalars.append(e)
                        }
                        continue
                    }
                    text.unicodeScalars.append(d)
                }
                if !closed { throw LexError(message: "unterminated \" quote", line: number) }
            case "\\":
                inWord = true
                raw.unicodeScalars.append(c)
                commandText.unicodeScalars.append(c)
                if let e = chars.popFirst() {
                    quoted = true
                    raw.unicodeScalars.append(e)
                    commandText.unicodeScalars.append(e)
                    text.unicodeScalars.append(e)
                }
            default:
                inWord = true
                text.unicodeScalars.append(c)
                raw.unicodeScalars.append(c)
                commandText.unicodeScalars.append(c)
            }
        }
        endCommand()
        return commands
    }

    static func trimmed(_ s: String) -> String {
        var scalars = s.unicodeScalars[...]
        while let f = scalars.first, f == " " || f == "\t" { scalars.removeFirst() }
        while let l = scalars.last, l == " " || l == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    /// Quotes a word so that it lexes back as itself (alias expansion).
    public static func quote(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ isPlain($0) }) { return text }
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    private static func isPlain(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case " ", "\t", "\n", ";", "#", "'", "\"", "\\": return false
        default: return c.value >= 0x20
        }
    }
}
