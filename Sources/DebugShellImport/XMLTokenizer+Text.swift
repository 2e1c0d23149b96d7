/// Character data and the markup skipped around it: text with its references and its UTF-8
/// checked, CDATA sections, comments and processing instructions (the XML declaration among
/// them) — each read in pieces, so none of them makes the buffer grow with its length.
extension XMLTokenizer {
    // MARK: - Text

    mutating func text() throws(ImportError) -> Token {
        var i = 0
        var white = true
        var decode = false
        scanning: while true {
            // The common bytes, without leaving the loop.
            let p = buffer + start
            let n = end - start
            while i < n {
                let c = p[i]
                if c > 0x20 && c < 0x80 && c != 0x3C && c != 0x26 && c != 0x5D {
                    white = false
                } else if !(c == 0x20 || c == 0x0A || c == 0x09) {
                    break
                }
                i += 1
            }
            if start + i == end {
                // Long text comes in pieces; else read on until the text ends.
                if i >= Self.chunkBytes { break scanning }
                if try !refill() { break scanning }
                continue
            }
            let c = buffer[start + i]
            switch c {
            case 0x3C: break scanning
            case 0x26:
                white = false
                decode = true
                i = try reference(at: i)
            case 0x5D:
                white = false
                if try byte(i + 1) == 0x5D, try byte(i + 2) == 0x3E {
                    throw error("']]>' in text: XML allows it only to end a CDATA section", token: i)
                }
                i += 1
            case 0x0D:
                decode = true
                i += 1
            default:
                white = false
                i = try character(at: i)
            }
        }
        pos = start + i
        textStart = 0
        textEnd = i
        textDecoding = decode ? .references : .none
        textIsWhitespace = white
        if !white && stage != .root {
            throw error("text outside the root element", token: firstNonSpace(below: i))
        }
        return .text
    }

    func firstNonSpace(below n: Int) -> Int {
        var k = 0
        while k < n, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[start + k]) { k += 1 }
        return k
    }

    /// A byte that is neither ASCII text nor markup, at `i`: a control character (an error), or
    /// the first of a UTF-8 sequence, checked whole. The index after it.
    mutating func character(at i: Int) throws(ImportError) -> Int {
        guard let c = try byte(i) else { return i }
        if c < 0x80 {
            if c == 0x09 || c == 0x0A || c == 0x0D || c >= 0x20 { return i + 1 }
            throw error("control character \(hex(c)): XML allows tab, newline and carriage return only", token: i)
        }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch c {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xED:
            length = 3
            high = 0x9F
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw error("not UTF-8: byte \(hex(c))", token: i)
        }
        for k in 1..<length {
            guard let next = try byte(i + k) else {
                throw error("not UTF-8: a sequence cut by the end of the file", token: i)
            }
            let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard next >= lo && next <= hi else { throw error("not UTF-8: byte \(hex(next))", token: i + k) }
        }
        // U+FFFE and U+FFFF are not XML characters.
        if c == 0xEF, try byte(i + 1) == 0xBF, let last = try byte(i + 2), last >= 0xBE {
            throw error("character U+FFF\(last == 0xBE ? "E" : "F") is not allowed in XML", token: i)
        }
        return i + length
    }

    /// An entity or character reference at `i` (an `&`), checked: the index after its `;`.
    mutating func reference(at i: Int) throws(ImportError) -> Int {
        var j = i + 1
        var body: [UInt8] = []
        while true {
            guard let c = try byte(j) else { throw truncated("inside an entity reference") }
            if c == 0x3B { break }
            body.append(c)
            j += 1
            if body.count > 32 || c == 0x3C || c == 0x26 || c == 0x20 || c == 0x0A {
                throw error("'&' that starts no entity: write '&amp;' for an '&'", token: i)
            }
        }
        if Self.scalar(ofReference: body) == nil {
            let name = String(decoding: body, as: UTF8.self)
            if body.first == UInt8(ascii: "#") {
                throw error("'&\(name);' is not a character XML allows", token: i)
            }
            throw error(
                "unknown entity '&\(name);' (XML has &amp; &lt; &gt; &quot; &apos; and character references)",
                token: i)
        }
        return j + 1
    }

    /// The character a reference's body (between `&` and `;`) stands for, if it is one XML allows.
    static func scalar(ofReference body: [UInt8]) -> Unicode.Scalar? {
        switch body {
        case Array("amp".utf8): return "&"
        case Array("lt".utf8): return "<"
        case Array("gt".utf8): return ">"
        case Array("quot".utf8): return "\""
        case Array("apos".utf8): return "'"
        default: break
        }
        guard body.count >= 2, body[0] == UInt8(ascii: "#") else { return nil }
        let hexadecimal = body[1] == UInt8(ascii: "x")
        let digits = body.dropFirst(hexadecimal ? 2 : 1)
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for d in digits {
            let v: UInt32
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(d - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hexadecimal: v = UInt32(d - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hexadecimal: v = UInt32(d - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * (hexadecimal ? 16 : 10) + v
            if value > 0x10FFFF { return nil }
        }
        // XML's Char: tab, newline, carriage return, and everything from space but the
        // surrogates, U+FFFE and U+FFFF.
        let allowed =
            value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF)
            || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000
        return allowed ? Unicode.Scalar(value) : nil
    }

    /// Appends the current text token, its references replaced and its line ends normalized.
    func appendText(to out: inout [UInt8]) {
        append(from: textStart, to: textEnd, decoding: textDecoding, attribute: false, into: &out)
    }

    /// The current text token's bytes as read (no references in them), when it needs no
    /// decoding; else nil.
    var rawText: UnsafeBufferPointer<UInt8>? {
        textDecoding != .none ? nil : UnsafeBufferPointer(start: buffer + start + textStart, count: textEnd - textStart)
    }

    func append(from a: Int, to b: Int, decoding: Decoding, attribute: Bool, into out: inout [UInt8]) {
        let p = buffer + start
        guard decoding != .none else {
            out.append(contentsOf: UnsafeBufferPointer(start: p + a, count: b - a))
            return
        }
        var k = a
        while k < b {
            let c = p[k]
            if c == 0x26 && decoding == .references {
                var j = k + 1
                var body: [UInt8] = []
                while j < b && p[j] != 0x3B {
                    body.append(p[j])
                    j += 1
                }
                if let scalar = Self.scalar(ofReference: body) { out.append(contentsOf: Array(String(scalar).utf8)) }
                k = j + 1
            } else if c == 0x0D {
                // A CR LF pair, or a lone CR, is one newline (a space in an attribute).
                out.append(attribute ? 0x20 : 0x0A)
                k += (k + 1 < b && p[k + 1] == 0x0A) ? 2 : 1
            } else {
                out.append(attribute && (c == 0x0A || c == 0x09) ? 0x20 : c)
                k += 1
            }
        }
    }

    /// Skips a comment from `<!--` to `-->`, in pieces (a comment can be long); `--` inside is
    /// an error, as XML has it.
    mutating func comment() throws(ImportError) {
        var i = 4
        while true {
            guard let c = try byte(i) else { throw truncated("inside a comment") }
            if c == 0x2D, try byte(i + 1) == 0x2D {
                guard try byte(i + 2) == UInt8(ascii: ">") else {
                    throw error("'--' inside a comment: XML forbids it", token: i)
                }
                pos = start + i + 3
                return
            }
            i = c >= 0x20 && c < 0x80 ? i + 1 : try character(at: i)
            if i > Self.chunkBytes {
                start += i
                i = 0
            }
        }
    }

    /// The text of a CDATA section, up to `]]>`, in pieces when long.
    mutating func cdata() throws(ImportError) -> Token {
        var i = 0
        var white = true
        while true {
            guard let c = try byte(i) else { throw truncated("inside a CDATA section") }
            if c == 0x5D, try byte(i + 1) == 0x5D, try byte(i + 2) == 0x3E {
                inCDATA = false
                pos = start + i + 3
                break
            }
            if !Self.isSpace(c) { white = false }
            i = c >= 0x20 && c < 0x80 ? i + 1 : try character(at: i)
            if i >= Self.chunkBytes {
                pos = start + i
                break
            }
        }
        textStart = 0
        textEnd = i
        // A CDATA section is read as is, but for its line ends.
        textDecoding = .none
        for k in 0..<i where buffer[start + k] == 0x0D { textDecoding = .lineEnds }
        textIsWhitespace = white
        return .text
    }

    /// A processing instruction from `<?` to `?>`: skipped, but an XML declaration must come
    /// first and say UTF-8 if it names an encoding.
    mutating func processingInstruction(atStart: Bool) throws(ImportError) {
        guard let first = try byte(2) else { throw truncated("inside a tag") }
        guard Self.startsName(first) else { throw error("expected a name after '<?'", token: 0) }
        let targetEnd = try nameEnd(from: 2)
        let target = String(
            decoding: UnsafeBufferPointer(start: buffer + start + 2, count: targetEnd - 2), as: UTF8.self)
        let isDeclaration = target.lowercased() == "xml"
        if isDeclaration && (target != "xml" || !atStart) {
            throw error("an XML declaration that is not at the start of the file", token: 0)
        }
        var i = targetEnd
        var content: [UInt8] = []
        while true {
            guard let c = try byte(i) else { throw truncated("inside the processing instruction <?\(target)") }
            if c == UInt8(ascii: "?"), try byte(i + 1) == UInt8(ascii: ">") {
                pos = start + i + 2
                break
            }
            if isDeclaration {
                content.append(c)
                if content.count > 1024 { throw error("an XML declaration longer than 1 KiB", token: 0) }
            }
            i = c >= 0x20 && c < 0x80 ? i + 1 : try character(at: i)
            if !isDeclaration && i > Self.chunkBytes {
                start += i
                i = 0
            }
        }
        if isDeclaration, let encoding = Self.declaredEncoding(content) {
            let name = encoding.lowercased()
            guard name == "utf-8" || name == "utf8" else {
                throw error("the file says it is \(encoding): debugsh reads UTF-8 XML, as xctrace writes it", token: 0)
            }
        }
    }

    /// The `encoding="…"` of an XML declaration's content, if it has one.
    static func declaredEncoding(_ content: [UInt8]) -> String? {
        let text = String(decoding: content, as: UTF8.self)
        guard let range = text.firstRange(of: "encoding") else { return nil }
        var rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != quote })
    }
}

/// `0x1F`: a byte in messages.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return "0x" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
}
