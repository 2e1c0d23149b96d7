import Foundation

/// The fingerprint of DebugShellCore's interface: a hash of the module's Swift sources, made at
/// build time by the package's build-tool plugin and compiled into every binary that imports the
/// module (``swiftSource(for:)``), so that the shell can refuse a plugin built against another
/// DebugShellCore of the same API version (docs/Plugins.md).
///
/// The whole source counts, not only its `public` lines: a private stored property changes a
/// public struct's size and layout. What cannot change the compiled interface does not count:
/// comments, and how much whitespace stands between two tokens (``normalized(_:)``).
public enum InterfaceFingerprint {
    /// One source file: its path relative to the module's folder, and its text.
    public struct SourceFile: Sendable {
        public var path: String
        public var text: String

        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// The fingerprint of a module's sources: FNV-1a (64 bits) over each file's normalized text
    /// followed by a zero byte, the files in the byte order of their paths, folded to 32 bits
    /// (high half XOR low half). Never 0, which a build stamp uses for "no fingerprint".
    public static func of(_ files: [SourceFile]) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        for file in files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            for byte in normalized(file.text) { add(byte) }
            add(0)
        }
        let folded = UInt32(truncatingIfNeeded: hash >> 32) ^ UInt32(truncatingIfNeeded: hash)
        return folded == 0 ? 1 : folded
    }

    /// The fingerprint as it is written: eight lowercase hexadecimal digits.
    public static func hex(_ fingerprint: UInt32) -> String {
        let digits = String(fingerprint, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The Swift sources of a module's folder, as SwiftPM compiles them: every `.swift` file
    /// below it, outside hidden folders and documentation catalogs (`.docc`), by relative path.
    public static func sourceFiles(in folder: URL) throws -> [SourceFile] {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath()
        guard
            let walker = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [SourceFile] = []
        for case let url as URL in walker {
            if url.pathExtension == "docc" {
                walker.skipDescendants()
                continue
            }
            guard url.pathExtension == "swift" else { continue }
            let path = url.resolvingSymlinksInPath().path
            let relative = path.hasPrefix(base.path + "/") ? String(path.dropFirst(base.path.count + 1)) : path
            files.append(SourceFile(path: relative, text: try String(contentsOf: url, encoding: .utf8)))
        }
        return files
    }

    /// The file the build-tool plugin adds to DebugShellCore: `DebugShellPlugin.interfaceFingerprint`.
    public static func swiftSource(for fingerprint: UInt32) -> String {
        """
        // Generated at build time by DebugShellCore's build-tool plugin from this module's Swift
        // sources (DebugShellCoreFingerprint). Not checked in; do not edit.

        extension DebugShellPlugin {
            /// A fingerprint of the DebugShellCore sources this code was compiled against: FNV-1a
            /// over the module's Swift files, comments and runs of whitespace aside, folded to 32 bits.
            ///
            /// Emitted into the client, like ``apiVersion``: a plugin carries the fingerprint of the
            /// DebugShellCore it was built against, the shell its own, and the shell refuses a plugin
            /// whose fingerprint differs from its own.
            @_alwaysEmitIntoClient public static var interfaceFingerprint: UInt32 { 0x\(hex(fingerprint)) }
        }

        """
    }

    // MARK: Normalizing

    /// The text as the fingerprint reads it: comments (`//…`, nested `/* … */`) are whitespace; a
    /// run of whitespace outside string literals is one space, or nothing beside a bracket, a
    /// comma, a semicolon, a colon or a dot, or at the start or end; string literals — plain,
    /// multi-line and raw, with their interpolations' code normalized — are kept as written.
    ///
    /// So comments and re-wrapped lines leave the fingerprint as it was; a changed token, or a
    /// space added or removed between two words or operators, changes it. Regex literals are not
    /// recognised (DebugShellCore has none): a `//` inside one would read as a comment.
    public static func normalized(_ text: String) -> [UInt8] {
        var normalizer = Normalizer(source: Array(text.utf8))
        normalizer.code(inInterpolation: false)
        return normalizer.output
    }

    /// A lexer that knows just enough Swift to tell code, comments and string literals apart.
    /// It never fails: unterminated comments and strings run to the end of the text.
    struct Normalizer {
        let source: [UInt8]
        var index = 0
        var output: [UInt8] = []
        /// Whitespace (or a comment) was seen since the last byte written.
        var pendingSpace = false

        init(source: [UInt8]) {
            self.source = source
            output.reserveCapacity(source.count)
        }

        static let space = UInt8(ascii: " ")
        static let quote = UInt8(ascii: "\"")
        static let hash = UInt8(ascii: "#")
        static let slash = UInt8(ascii: "/")
        static let star = UInt8(ascii: "*")
        static let backslash = UInt8(ascii: "\\")
        static let open = UInt8(ascii: "(")
        static let close = UInt8(ascii: ")")

        static func isWhitespace(_ byte: UInt8) -> Bool {
            // Space, tab, line feed, vertical tab, form feed, carriage return, and NUL, as Swift's lexer.
            byte == space || (9...13).contains(byte) || byte == 0
        }

        /// Punctuation that whitespace beside it never changes the meaning of, and where
        /// swift-format breaks lines.
        static func isTight(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
                UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }

        func byte(at position: Int) -> UInt8? { position < source.count ? source[position] : nil }

        /// Writes a byte of code, with one space before it if whitespace stood there and neither
        /// side is tight.
        mutating func token(_ byte: UInt8) {
            if pendingSpace, let last = output.last, !Self.isTight(last), !Self.isTight(byte) {
                output.append(Self.space)
            }
            pendingSpace = false
            output.append(byte)
        }

        /// Code up to the end, or — in an interpolation — up to its closing parenthesis, which
        /// is left for the string to read.
        mutating func code(inInterpolation: Bool) {
            var depth = 0
            while index < source.count {
                let c = source[index]
                if Self.isWhitespace(c) {
                    pendingSpace = true
                    index += 1
                } else if c == Self.slash, byte(at: index + 1) == Self.slash {
                    while index < source.count, source[index] != 10, source[index] != 13 { index += 1 }
                    pendingSpace = true
                } else if c == Self.slash, byte(at: index + 1) == Self.star {
                    skipBlockComment()
                    pendingSpace = true
                } else if c == Self.quote {
                    stringLiteral(hashes: 0)
                } else if c == Self.hash {
                    var count = 0
                    while byte(at: index + count) == Self.hash { count += 1 }
                    if byte(at: index + count) == Self.quote {
                        stringLiteral(hashes: count)
                    } else {
                        token(c)
                        index += 1
                    }
                } else {
                    if inInterpolation {
                        if c == Self.open { depth += 1 }
                        if c == Self.close {
                            if depth == 0 { return }
                            depth -= 1
                        }
                    }
                    token(c)
                    index += 1
                }
            }
        }

        /// `/* … */`, nested as Swift nests them.
        mutating func skipBlockComment() {
            index += 2
            var depth = 1
            while index < source.count, depth > 0 {
                if source[index] == Self.slash, byte(at: index + 1) == Self.star {
                    depth += 1
                    index += 2
                } else if source[index] == Self.star, byte(at: index + 1) == Self.slash {
                    depth -= 1
                    index += 2
                } else {
                    index += 1
                }
            }
        }

        /// Whether `count` bytes equal to `byte` start at `position`.
        func repeats(_ byte: UInt8, _ count: Int, at position: Int) -> Bool {
            (0..<count).allSatisfy { self.byte(at: position + $0) == byte }
        }

        /// A string literal with `hashes` `#`s around it (a raw string when more than none),
        /// starting at `index`: copied as written, its interpolations' code normalized.
        mutating func stringLiteral(hashes: Int) {
            let quotes = repeats(Self.quote, 3, at: index + hashes) ? 3 : 1
            let delimiter = hashes + quotes
            token(source[index])
            output.append(contentsOf: source[(index + 1)..<(index + delimiter)])
            index += delimiter
            while index < source.count {
                let c = source[index]
                if c == Self.backslash, repeats(Self.hash, hashes, at: index + 1) {
                    // An escape: `\` and the delimiter's `#`s, then the escaped character or an
                    // interpolation.
                    output.append(contentsOf: source[index..<(index + 1 + hashes)])
                    index += 1 + hashes
                    guard index < source.count else { return }
                    if source[index] == Self.open {
                        output.append(Self.open)
                        index += 1
                        code(inInterpolation: true)
                        pendingSpace = false
                        guard index < source.count else { return }
                        output.append(Self.close)
                        index += 1
                    } else {
                        output.append(source[index])
                        index += 1
                    }
                } else if c == Self.quote, repeats(Self.quote, quotes, at: index),
                    repeats(Self.hash, hashes, at: index + quotes)
                {
                    output.append(contentsOf: source[index..<(index + delimiter)])
                    index += delimiter
                    return
                } else {
                    output.append(c)
                    index += 1
                }
            }
        }
    }
}
