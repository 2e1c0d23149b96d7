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

/// Splits script text into commands (README, The command language).
///
/// One command per line; `;` separates commands, but inside a block `{ … }` (a word `{`
/// alone opens one) it is a word; `#` outside quotes begins a comment;
/// `'…'` quotes literally; `"…"` quotes with `\"`, `\\`, `\n`, `\t`; outside quotes `\` escapes
/// the next character; a trailing `\` continues the line. Lines are limited to 1 MiB.
public enum Lexer {
    /// The longest logical line accepted (README, Limits).
    public static let maxLineBytes = 1 << 20

    /// Lexes a whole script. Stops at the first error, returning what came before it.
    public static func lex(_ text: String, firstLine: Int = 1) -> (commands: [LexedCommand], error: LexError?) {
        var commands: [LexedCommand] = []
        var failure: LexError?
        forEachLogicalLine(text, firstLine: firstLine) { result in
            switch result {
            case .success(let lexed):
                commands += lexed
                return true
            case .failure(let error):
                failure = error
                return false
            }
        }
        return (commands, failure)
    }

    /// Lexes a script one logical line at a time (a trailing `\` joins lines; errors name the
    /// first), handing each line's commands, or its error, to `body`, which returns false to stop.
    /// A script run this way holds one line's commands at a time, however long it is.
    public static func forEachLogicalLine(
        _ text: String, firstLine: Int = 1, _ body: (Result<[LexedCommand], LexError>) -> Bool
    ) {
        let bytes = Array(text.utf8)[...]
        var lineNumber = firstLine
        var pending: [UInt8] = []
        var pendingStart = firstLine
        var start = bytes.startIndex
        let end = bytes.endIndex
        while start < end {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? end
            var line = bytes[start..<newline]
            start = newline == end ? end : newline + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if pending.isEmpty { pendingStart = lineNumber }
            lineNumber += 1
            if pending.count + line.count > maxLineBytes {
                pending.removeAll()
                if !body(.failure(LexError(message: "line longer than 1 MiB (the limit)", line: pendingStart))) {
                    return
                }
                continue
            }
            let continues = endsWithContinuation(line)
            if continues && start < end {
                pending += line.dropLast()
                continue
            }
            if continues { line = line.dropLast() }
            let result: Result<[LexedCommand], LexError>
            do {
                if pending.isEmpty {
                    result = .success(try lexLine(line, line: pendingStart))
                } else {
                    pending += line
                    result = .success(try lexLine(pending[...], line: pendingStart))
                }
            } catch {
                result = .failure(error)
            }
            pending.removeAll(keepingCapacity: true)
            if !body(result) { return }
        }
    }

    /// Whether a line ends with a `\` that continues it: an odd run of backslashes outside
    /// quotes and comments.
    public static func endsWithContinuation(_ line: Substring) -> Bool {
        endsWithContinuation(Array(line.utf8)[...])
    }

    static func endsWithContinuation(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.last == UInt8(ascii: "\\") else { return false }
        var quote: UInt8 = 0
        var escaped = false
        for c in line {
            if escaped {
                escaped = false
                continue
            }
            if quote != 0 {
                if c == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
                    escaped = true
                } else if c == quote {
                    quote = 0
                }
                continue
            }
            switch c {
            case UInt8(ascii: "\\"): escaped = true
            case UInt8(ascii: "'"), UInt8(ascii: "\""): quote = c
            case UInt8(ascii: "#"): return false
            default: break
            }
        }
        return escaped && quote == 0
    }

    /// Lexes one logical line into its commands.
    public static func lexLine(_ line: String, line number: Int) throws(LexError) -> [LexedCommand] {
        try lexLine(Array(line.utf8)[...], line: number)
    }

    /// Lexes one logical line, given as UTF-8 bytes. Quotes, escapes, `;` and `#` are ASCII, so
    /// the scan works on bytes; multi-byte characters pass through untouched.
    static func lexLine(_ bytes: ArraySlice<UInt8>, line number: Int) throws(LexError) -> [LexedCommand] {
        var commands: [LexedCommand] = []
        var words: [Word] = []
        var text: [UInt8] = []
        var wordStart = -1
        var quoted = false
        var commandStart = -1
        var commandEnd = -1
        // `{ a; b }`: inside a block (a word `{` alone, unquoted), `;` is a word of the command,
        // not its end (`after 300ms { a; b }`, docs/Decisions.md).
        var blockDepth = 0
        // The open `{` words of the command, to note each one's `}` (Word.partner).
        var opens: [Int] = []

        func endWord(at end: Int) {
            if wordStart >= 0 {
                var closes: Int?
                if !quoted && end - wordStart == 1 {
                    if bytes[wordStart] == UInt8(ascii: "{") {
                        blockDepth += 1
                        opens.append(words.count)
                    } else if bytes[wordStart] == UInt8(ascii: "}") && blockDepth > 0 {
                        blockDepth -= 1
                        closes = opens.popLast()
                    }
                }
                words.append(
                    Word(
                        text: String(decoding: text, as: UTF8.self),
                        raw: String(decoding: bytes[wordStart..<end], as: UTF8.self), quoted: quoted))
                if let open = closes { words[open].partner = Int32(clamping: words.count - 1 - open) }
            }
            text.removeAll(keepingCapacity: true)
            wordStart = -1
            quoted = false
        }
        func endCommand(at end: Int) {
            endWord(at: end)
            if !words.isEmpty {
                let source = commandStart >= 0 ? String(decoding: bytes[commandStart..<commandEnd], as: UTF8.self) : ""
                commands.append(LexedCommand(words: words, line: number, text: source))
            }
            words = []
            opens.removeAll(keepingCapacity: true)
            commandStart = -1
            commandEnd = -1
            blockDepth = 0
        }
        func begin(_ i: Int) {
            if wordStart < 0 { wordStart = i }
            if commandStart < 0 { commandStart = i }
        }

        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                endWord(at: i)
                i += 1
            case UInt8(ascii: ";"):
                if blockDepth > 0 {
                    endWord(at: i)
                    begin(i)
                    text.append(c)
                    i += 1
                    commandEnd = i
                    endWord(at: i)
                } else {
                    endCommand(at: i)
                    i += 1
                }
            case UInt8(ascii: "#"):
                endCommand(at: i)
                return commands
            case UInt8(ascii: "'"):
                begin(i)
                quoted = true
                i += 1
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: "'")) else {
                    throw LexError(message: "unterminated ' quote", line: number)
                }
                text += bytes[i..<close]
                i = close + 1
                commandEnd = i
            case UInt8(ascii: "\""):
                begin(i)
                quoted = true
                i += 1
                var closed = false
                while i < end {
                    let d = bytes[i]
                    if d == UInt8(ascii: "\"") {
                        closed = true
                        i += 1
                        break
                    }
                    if d == UInt8(ascii: "\\"), i + 1 < end {
                        let e = bytes[i + 1]
                        switch e {
                        case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                        case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                        case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(e)
                        default:
                            text.append(d)
                            text.append(e)
                        }
                        i += 2
                        continue
                    }
                    text.append(d)
                    i += 1
                }
                if !closed { throw LexError(message: "unterminated \" quote", line: number) }
                commandEnd = i
            case UInt8(ascii: "\\"):
                begin(i)
                i += 1
                if i < end {
                    quoted = true
                    // The escaped character, whole even if it takes several bytes.
                    var j = i + 1
                    while j < end && bytes[j] & 0xC0 == 0x80 { j += 1 }
                    text += bytes[i..<j]
                    i = j
                }
                commandEnd = i
            default:
                begin(i)
                text.append(c)
                i += 1
                commandEnd = i
            }
        }
        endCommand(at: end)
        return commands
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
