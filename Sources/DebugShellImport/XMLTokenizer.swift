#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A streaming, byte-level tokenizer for the XML that `xctrace export` writes, strict about
/// well-formedness: one root element, tags that match, attributes in `''` or `""` given once,
/// the five entities and character references, comments, processing instructions and CDATA
/// sections; UTF-8 only, no DOCTYPE. It reads the file a chunk at a time (``XMLByteSource``) and
/// keeps only the token being read, so what it holds does not grow with the file: a tag is at
/// most ``maxTagBytes`` long, and text, comments and CDATA of any length pass through in pieces.
///
/// Errors carry `file:line:column` (columns count characters, from 1). Lines are counted, eight
/// bytes at a time, only as bytes leave the buffer; a place is worked out only for an error.
/// (Its state is internal rather than private for XMLTokenizer+Text.swift, its other half.)
struct XMLTokenizer: ~Copyable {
    enum Token: Equatable {
        /// A start tag; a self-closing one (`<a/>`) is followed by its `.end`.
        case start(XMLName, selfClosing: Bool)
        case end(XMLName)
        /// Character data (text or CDATA), in ``textIsWhitespace``, ``appendText(to:)``; long text
        /// comes as several tokens in a row.
        case text
        case eof
    }

    /// The longest tag read (xctrace's are under 200 bytes).
    static let maxTagBytes = 1 << 20
    /// Elements open at once (xctrace nests five or six deep).
    static let maxDepth = 64
    /// Attributes of one tag (xctrace writes up to six).
    static let maxAttributes = 256
    /// Bytes read at a time, and the size of the pieces long text comes in.
    static let chunkBytes = 1 << 16

    let file: String
    let source: XMLByteSource
    let interrupted: () -> Bool

    /// The buffer: bytes `0..<end` are read; the current token starts at `start`, and the next
    /// one at `pos`. Byte 0 is byte `base` of the file.
    var buffer: UnsafeMutablePointer<UInt8>
    var capacity: Int
    var start = 0
    var pos = 0
    var end = 0
    var base = 0
    var atEOF = false
    /// The line, and the characters of it already counted, at byte `base`.
    var lineAtBase = 1
    var charsAtBase = 0

    var names = XMLNames()
    /// The elements open, outermost first: `depth` of them (at most ``maxDepth``).
    let open: UnsafeMutablePointer<XMLName>
    private(set) var depth = 0
    enum Stage { case prolog, root, epilog }
    var stage = Stage.prolog
    var pendingEnd: XMLName?
    var inCDATA = false
    /// 3 after a UTF-8 byte order mark: where an XML declaration may be.
    var bomLength = 0

    /// The current text token: bytes `start + textStart ..< start + textEnd`.
    var textStart = 0
    var textEnd = 0
    /// What reading the current text needs: nothing, line ends normalized (CDATA), or
    /// references replaced as well.
    enum Decoding { case none, lineEnds, references }
    var textDecoding = Decoding.none
    var textIsWhitespace = true

    /// The current start tag's attributes: names, and values as bytes from `start`.
    struct Attribute {
        var name: XMLName
        var start: Int
        var end: Int
        var needsDecoding: Bool
    }
    var attributes: UnsafeMutablePointer<Attribute>
    var attributeCapacity = 16
    var attributeCount = 0

    init(source: consuming XMLByteSource, interrupted: @escaping () -> Bool) {
        file = source.path
        self.source = source
        self.interrupted = interrupted
        capacity = 4 * Self.chunkBytes
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        open = UnsafeMutablePointer<XMLName>.allocate(capacity: Self.maxDepth)
        attributes = UnsafeMutablePointer<Attribute>.allocate(capacity: attributeCapacity)
    }

    deinit {
        buffer.deallocate()
        open.deallocate()
        attributes.deallocate()
    }

    /// Where the current token starts, as a byte offset in the file.
    var tokenOffset: Int { base + start }

    // MARK: - Places and errors

    /// The line and column (from 1, in characters) of a byte offset in the file: exact for an
    /// offset still in the buffer, else the place of the buffer's first byte.
    func place(of offset: Int) -> (line: Int, column: Int) {
        var line = lineAtBase
        var chars = charsAtBase
        let upTo = min(max(offset - base, 0), end)
        for k in 0..<upTo {
            let c = buffer[k]
            if c == 10 {
                line += 1
                chars = 0
            } else if c & 0xC0 != 0x80 {
                chars += 1
            }
        }
        return (line, chars + 1)
    }

    /// An error at a byte offset of the file.
    func error(_ message: String, at offset: Int) -> ImportError {
        let (line, column) = place(of: offset)
        return ImportError(message, file: file, line: line, column: column)
    }

    /// An error at byte `i` of the current token.
    func error(_ message: String, token i: Int) -> ImportError { error(message, at: base + start + i) }

    /// The file ends where a token or an element needed more.
    func truncated(_ what: String) -> ImportError {
        error("truncated: the file ends \(what)", at: base + end)
    }

    // MARK: - Reading

    /// Reads more bytes after `end`, keeping the current token (from `start`): false at the end
    /// of the file.
    mutating func refill() throws(ImportError) -> Bool {
        if atEOF { return false }
        if start > 0 { discard(start) }
        if capacity - end < Self.chunkBytes {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        let n = try source.read(into: buffer + end, count: capacity - end, interrupted: interrupted)
        if n == 0 {
            atEOF = true
            return false
        }
        end += n
        return true
    }

    /// Drops the buffer's first `k` bytes, counting their lines.
    mutating func discard(_ k: Int) {
        var newlines = 0
        var j = 0
        // Eight bytes at a time: a high bit for each byte that is a newline, counted.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while j + 8 <= k {
            let word = UnsafeRawPointer(buffer + j).loadUnaligned(as: UInt64.self) ^ (ones &* 10)
            let zero = ~(((word & low7) &+ low7) | word | low7)
            newlines += zero.nonzeroBitCount
            j += 8
        }
        while j < k {
            if buffer[j] == 10 { newlines += 1 }
            j += 1
        }
        var from = 0
        if newlines > 0 {
            lineAtBase += newlines
            charsAtBase = 0
            var last = k - 1
            while buffer[last] != 10 { last -= 1 }
            from = last + 1
        }
        for j in from..<k where buffer[j] & 0xC0 != 0x80 { charsAtBase += 1 }
        memmove(buffer, buffer + k, end - k)
        base += k
        end -= k
        pos -= k
        start -= k
    }

    /// Byte `i` of the current token, reading on when it is past the buffer; nil at the end of
    /// the file.
    @inline(__always)
    mutating func byte(_ i: Int) throws(ImportError) -> UInt8? {
        if start + i < end { return buffer[start + i] }
        while start + i >= end {
            if try !refill() { return nil }
        }
        return buffer[start + i]
    }

    /// The next token.
    mutating func next() throws(ImportError) -> Token {
        if let name = pendingEnd {
            pendingEnd = nil
            depth -= 1
            if depth == 0 { stage = .epilog }
            return .end(name)
        }
        // The last start tag's attributes are gone with it.
        attributeCount = 0
        // Comments and processing instructions are skipped here, in a loop: a file of a million
        // comments must not nest a million calls.
        while true {
            start = pos
            if inCDATA { return try cdata() }
            if start == end, try !refill() { return try finish() }
            if base + start == 0 { try byteOrderMark() }
            if start == end, try !refill() { return try finish() }
            let first = base + start == bomLength
            if buffer[start] != UInt8(ascii: "<") { return try text() }
            if let token = try markup(first: first) { return token }
        }
    }

    /// At the end of the file: every element must be closed, and there must have been one.
    mutating func finish() throws(ImportError) -> Token {
        if depth > 0 {
            let inner = (max(0, depth - 4)..<depth).reversed().map { "<\(names.string(open[$0]))>" }
            throw truncated("inside " + inner.joined(separator: " in "))
        }
        if stage == .prolog {
            if base + end == 0 { throw ImportError("empty file", file: file) }
            throw truncated("before any element: not an XML document")
        }
        return .eof
    }

    /// A UTF-8 byte order mark is skipped; UTF-16 is refused.
    mutating func byteOrderMark() throws(ImportError) {
        let first = try byte(0)
        if first == 0xFE || first == 0xFF {
            let second = try byte(1)
            if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) {
                throw error("UTF-16: debugsh reads UTF-8 XML, as xctrace writes it", token: 0)
            }
        }
        if first == 0xEF, try byte(1) == 0xBB, try byte(2) == 0xBF {
            start += 3
            pos = start
            bomLength = 3
        }
    }

    // MARK: - Markup

    /// A tag, or nil for markup that is skipped (a comment, a processing instruction).
    mutating func markup(first: Bool) throws(ImportError) -> Token? {
        guard let c = try byte(1) else { throw truncated("inside a tag") }
        switch c {
        case UInt8(ascii: "/"): return try endTag()
        case UInt8(ascii: "?"):
            try processingInstruction(atStart: first)
            return nil
        case UInt8(ascii: "!"): return try bang()
        default:
            guard Self.startsName(c) else {
                throw error("'<' not followed by a name: write '&lt;' for a '<' in text", token: 0)
            }
            return try startTag()
        }
    }

    static func startsName(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x3A || c >= 0x80
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    /// The ASCII bytes a name may have after its first: letters, digits, `-`, `.`, `_`, `:`
    /// (bits of two 64-bit words).
    @inline(__always)
    static func isASCIINameByte(_ c: UInt8) -> Bool {
        // Bits 0x2D, 0x2E, 0x30–0x3A of the first word; 0x41–0x5A, 0x5F, 0x61–0x7A of the second.
        let low: UInt64 = 0x07FF_6000_0000_0000
        let high: UInt64 = 0x07FF_FFFE_87FF_FFFE
        return c < 64 ? (low >> UInt64(c)) & 1 == 1 : c < 128 && (high >> UInt64(c - 64)) & 1 == 1
    }

    /// A name from `i`: its end. The caller has checked that byte `i` starts one.
    mutating func nameEnd(from i: Int) throws(ImportError) -> Int {
        var j = i
        while true {
            let p = buffer + start
            let n = end - start
            while j < n && Self.isASCIINameByte(p[j]) { j += 1 }
            if j > Self.maxTagBytes { throw error("a tag longer than 1 MiB", token: 0) }
            if j < n {
                guard p[j] >= 0x80 else { return j }
                j = try character(at: j)
                continue
            }
            if try !refill() { return j }
        }
    }

    mutating func intern(from i: Int, to j: Int) throws(ImportError) -> XMLName {
        guard let name = names.intern(buffer + start + i, j - i) else {
            throw error("more than \(XMLNames.limit) different names: not an xctrace export", token: i)
        }
        return name
    }

    @inline(__always)
    mutating func skipSpace(from i: Int) throws(ImportError) -> Int {
        // Most often there is no space, or one, and no need to read on.
        if start + i < end && !Self.isSpace(buffer[start + i]) { return i }
        if start + i + 1 < end && !Self.isSpace(buffer[start + i + 1]) { return i + 1 }
        return try skipSpaces(from: i)
    }

    mutating func skipSpaces(from i: Int) throws(ImportError) -> Int {
        var j = i
        while true {
            if j > Self.maxTagBytes { throw error("a tag longer than 1 MiB", token: 0) }
            if start + j < end {
                if !Self.isSpace(buffer[start + j]) { return j }
                j += 1
            } else if try !refill() {
                return j
            }
        }
    }

    mutating func startTag() throws(ImportError) -> Token {
        var i = try nameEnd(from: 1)
        let name = try intern(from: 1, to: i)
        let tag = name
        if stage == .epilog {
            throw error("a second root element <\(names.string(tag))>: a document has one", token: 0)
        }
        if depth >= Self.maxDepth { throw error("elements nested deeper than \(Self.maxDepth)", token: 0) }
        attributeCount = 0
        var selfClosing = false
        while true {
            let afterName = i
            i = try skipSpace(from: i)
            guard let c = try byte(i) else { throw truncated("inside the tag <\(names.string(tag))>") }
            if c == UInt8(ascii: ">") {
                i += 1
                break
            }
            if c == UInt8(ascii: "/") {
                guard try byte(i + 1) == UInt8(ascii: ">") else {
                    throw error("expected '>' after '/' in <\(names.string(tag))>", token: i)
                }
                i += 2
                selfClosing = true
                break
            }
            guard i > afterName, Self.startsName(c) else {
                throw error("expected an attribute name, '>' or '/>' in <\(names.string(tag))>", token: i)
            }
            i = try attribute(at: i, tag: tag)
            if i > Self.maxTagBytes { throw error("a tag longer than 1 MiB", token: 0) }
        }
        pos = start + i
        open[depth] = name
        depth += 1
        stage = .root
        if selfClosing { pendingEnd = name }
        return .start(name, selfClosing: selfClosing)
    }

    /// One attribute from `i` (its name): the index after its closing quote.
    mutating func attribute(at i: Int, tag: XMLName) throws(ImportError) -> Int {
        let nameEnd = try nameEnd(from: i)
        let name = try intern(from: i, to: nameEnd)
        if attributeCount >= Self.maxAttributes {
            throw error("more than \(Self.maxAttributes) attributes in <\(names.string(tag))>", token: i)
        }
        if attributeIndex(name) != nil {
            throw error("attribute '\(names.string(name))' given twice in <\(names.string(tag))>", token: i)
        }
        var j = try skipSpace(from: nameEnd)
        guard try byte(j) == UInt8(ascii: "=") else {
            throw error("expected '=' after the attribute name '\(names.string(name))'", token: j)
        }
        j = try skipSpace(from: j + 1)
        guard let quote = try byte(j), quote == 0x22 || quote == 0x27 else {
            throw error("expected a value in quotes for the attribute '\(names.string(name))'", token: j)
        }
        j += 1
        let valueStart = j
        var decode = false
        while true {
            // The common bytes, without leaving the loop.
            let p = buffer + start
            let n = end - start
            while j < n {
                let c = p[j]
                guard c >= 0x20 && c < 0x80 && c != quote && c != 0x3C && c != 0x26 else { break }
                j += 1
            }
            guard let c = try byte(j) else { throw truncated("inside the tag <\(names.string(tag))>") }
            if c == quote { break }
            switch c {
            case 0x3C: throw error("'<' in the value of the attribute '\(names.string(name))'", token: j)
            case 0x26:
                decode = true
                j = try reference(at: j)
            case 0x09, 0x0A, 0x0D:
                decode = true
                j += 1
            case 0x20..<0x80: j += 1
            default: j = try character(at: j)
            }
            if j > Self.maxTagBytes { throw error("a tag longer than 1 MiB", token: 0) }
        }
        if attributeCount == attributeCapacity {
            let grown = UnsafeMutablePointer<Attribute>.allocate(capacity: attributeCapacity * 2)
            grown.moveInitialize(from: attributes, count: attributeCount)
            attributes.deallocate()
            attributes = grown
            attributeCapacity *= 2
        }
        (attributes + attributeCount).initialize(
            to: Attribute(name: name, start: valueStart, end: j, needsDecoding: decode))
        attributeCount += 1
        return j + 1
    }

    mutating func endTag() throws(ImportError) -> Token {
        guard let first = try byte(2) else { throw truncated("inside a tag") }
        guard Self.startsName(first) else { throw error("expected a name after '</'", token: 0) }
        let nameEnd = try nameEnd(from: 2)
        let spelled = String(
            decoding: UnsafeBufferPointer(start: buffer + start + 2, count: nameEnd - 2), as: UTF8.self)
        let close = try skipSpace(from: nameEnd)
        guard try byte(close) == UInt8(ascii: ">") else {
            if try byte(close) == nil { throw truncated("inside the tag </\(spelled)>") }
            throw error("expected '>' to end </\(spelled)>", token: close)
        }
        guard depth > 0 else { throw error("end tag </\(spelled)> with no element open", token: 0) }
        let top = open[depth - 1]
        guard names.matches(top, buffer + start + 2, nameEnd - 2) else {
            throw error("mismatched end tag: </\(spelled)> closes <\(names.string(top))>", token: 0)
        }
        pos = start + close + 1
        depth -= 1
        if depth == 0 { stage = .epilog }
        return .end(top)
    }

    /// `<!--` a comment, `<![CDATA[`, or a DOCTYPE (refused).
    mutating func bang() throws(ImportError) -> Token? {
        if try byte(2) == 0x2D {
            guard try byte(3) == 0x2D else { throw error("expected '<!--' to start a comment", token: 0) }
            try comment()
            return nil
        }
        let cdataOpener = Array("[CDATA[".utf8)
        var isCDATA = true
        for (k, expected) in cdataOpener.enumerated() {
            if try byte(2 + k) != expected {
                isCDATA = false
                break
            }
        }
        if isCDATA {
            guard stage == .root else { throw error("a CDATA section outside the root element", token: 0) }
            start += 9
            inCDATA = true
            return try cdata()
        }
        if try byte(2) == UInt8(ascii: "D") {
            throw error("a DOCTYPE: xctrace writes none, and debugsh does not read them", token: 0)
        }
        throw error("expected '<!--' or '<![CDATA[' after '<!'", token: 0)
    }

    // MARK: - Attributes of the current start tag

    func attributeIndex(_ name: XMLName) -> Int? {
        for k in 0..<attributeCount where attributes[k].name == name { return k }
        return nil
    }

    /// The value of an attribute of the current start tag, references replaced; nil if absent.
    func attribute(_ name: XMLName) -> String? {
        guard let k = attributeIndex(name) else { return nil }
        var bytes: [UInt8] = []
        append(
            from: attributes[k].start, to: attributes[k].end,
            decoding: attributes[k].needsDecoding ? .references : .none,
            attribute: true,
            into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A whole number in an attribute (`id="12"`): absent, the number, or the text that is not one.
    enum Number: Equatable {
        case absent
        case value(Int64)
        case invalid(String)
    }

    func number(_ name: XMLName) -> Number {
        guard let k = attributeIndex(name) else { return .absent }
        let a = attributes[k].start
        let b = attributes[k].end
        var value: Int64 = 0
        guard b > a, b - a <= 18, !attributes[k].needsDecoding else { return .invalid(attribute(name) ?? "") }
        for j in a..<b {
            let c = buffer[start + j]
            guard c >= 0x30 && c <= 0x39 else { return .invalid(attribute(name) ?? "") }
            value = value * 10 + Int64(c - 0x30)
        }
        return .value(value)
    }
}
