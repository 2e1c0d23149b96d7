import DebugShellCore
import DebugShellCoreFingerprint
import Foundation
import Testing

/// DebugShellCore's fingerprint (docs/Plugins.md, "Build identity"): what changes it and what
/// does not, and that the one compiled in is the hash of the sources.
@Suite struct FingerprintTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func fingerprint(_ text: String) -> UInt32 {
        InterfaceFingerprint.of([.init(path: "Declarations.swift", text: text)])
    }

    static let original = """
        /// What a tool is.
        public struct ToolDescriptor: Sendable {
            /// The tool's name.
            public var name: String
            public var commands: [CommandSpec]

            public init(name: String, commands: [CommandSpec] = []) {
                self.name = name
                self.commands = commands
            }

            public var summary: String { "\\(name): \\(commands.count) commands // not a comment" }
        }
        """

    /// Comments, blank lines, indentation and re-wrapped lines are not the interface.
    @Test(arguments: [
        // Other comments, doc comments and a nested block comment.
        """
        // A file header.
        /** What a tool is, in more words. */
        public struct ToolDescriptor: Sendable {  // trailing
            /* The tool's /* nested */ name. */
            public var name: String
            public var commands: [CommandSpec]  /// a list

            public init(name: String, commands: [CommandSpec] = []) {
                self.name = name
                self.commands = commands
            }

            public var summary: String { "\\(name): \\(commands.count) commands // not a comment" }
        }
        """,
        // Blank lines, tabs, indentation, and lines broken where swift-format breaks them.
        """


        public struct ToolDescriptor: Sendable {
        \tpublic var name:   String


        \tpublic var commands: [
        \t\tCommandSpec
        \t]
          public init(
              name: String,
              commands: [CommandSpec] = []
          ) {
              self.name = name
              self.commands = commands
          }
          public var summary: String {
              "\\( name ): \\(commands.count) commands // not a comment"
          }
        }

        """,
    ])
    func commentsAndWhitespaceKeepTheFingerprint(_ edited: String) {
        #expect(fingerprint(edited) == fingerprint(Self.original))
        #expect(InterfaceFingerprint.normalized(edited) == InterfaceFingerprint.normalized(Self.original))
    }

    /// A change the compiled interface can see changes it — a private stored property changes
    /// the struct's layout — and so does anything inside a string literal.
    @Test(arguments: [
        (
            "a private stored property", "    public var name: String\n",
            "    public var name: String\n    private var cache = 0\n"
        ),
        ("a type", "public var name: String", "public var name: Substring"),
        (
            "the order of stored properties", "    public var name: String\n    public var commands: [CommandSpec]\n",
            "    public var commands: [CommandSpec]\n    public var name: String\n"
        ),
        ("a name", "public var name", "public var title"),
        ("text in a string, after //", "// not a comment\"", "// not a comment!\""),
        ("a space between two words", "public var", "publicvar"),
    ])
    func interfaceChangesChangeIt(_ change: String, _ old: String, _ new: String) throws {
        try #require(Self.original.contains(old), "\(change)")
        let edited = Self.original.replacingOccurrences(of: old, with: new)
        #expect(fingerprint(edited) != fingerprint(Self.original), "\(change)")
    }

    /// Strings are copied as written, comments inside them included; their interpolations are
    /// code; nothing unterminated traps.
    @Test func stringLiteralsAreNotComments() {
        func normalized(_ text: String) -> String {
            String(decoding: InterfaceFingerprint.normalized(text), as: UTF8.self)
        }
        #expect(normalized(#"let a = "x /* y" // z"#) == #"let a = "x /* y""#)
        #expect(normalized(##"let a = #"raw \" // kept"# // gone"##) == ##"let a = #"raw \" // kept"#"##)
        #expect(
            normalized("let a = \"\"\"\n  two // lines\n  \"\"\"  // gone")
                == "let a = \"\"\"\n  two // lines\n  \"\"\"")
        #expect(normalized(#"f("a\( g( "b" /* c */ ) )d")"#) == #"f("a\(g("b"))d")"#)
        #expect(normalized(##"let a = #"\#( x ) \( y )"#"##) == ##"let a = #"\#(x) \( y )"#"##)
        for broken in ["let a = \"open", "/* open", "f(\"\\(", "#\"", "\"\\", "x //"] {
            _ = normalized(broken)
        }
    }

    /// Files are taken in the order of their paths, whatever order they come in; none is 0.
    @Test func filesInPathOrder() {
        let a = InterfaceFingerprint.SourceFile(path: "A.swift", text: "struct A {}")
        let b = InterfaceFingerprint.SourceFile(path: "B.swift", text: "struct B {}")
        #expect(InterfaceFingerprint.of([a, b]) == InterfaceFingerprint.of([b, a]))
        #expect(InterfaceFingerprint.of([a, b]) != InterfaceFingerprint.of([a]))
        #expect(InterfaceFingerprint.of([]) != 0)
        #expect(InterfaceFingerprint.hex(0x00ab_0001) == "00ab0001")
    }

    /// The fingerprint compiled into this binary is the hash of the checkout's DebugShellCore
    /// sources, made at build time by the package's build-tool plugin.
    @Test func theCompiledFingerprintIsTheSources() throws {
        let files = try InterfaceFingerprint.sourceFiles(
            in: Self.root.appendingPathComponent("DebugShellCore/Sources/DebugShellCore"))
        #expect(files.contains { $0.path == "Plugin.swift" })
        #expect(!files.contains { $0.path.contains(".docc") })
        #expect(DebugShellPlugin.libraryFingerprint == InterfaceFingerprint.of(files))
    }

    /// The build stamp: API version in bits 32–47, compiler in 0–15, the fingerprint's halves in
    /// 16–31 and 48–63.
    @Test func theBuildStampCarriesAllThree() {
        let stamp = UInt64(bitPattern: DebugShellPlugin.buildStamp)
        #expect(stamp >> 32 & 0xFFFF == UInt64(DebugShellPlugin.apiVersion))
        #expect(stamp & 0xFFFF == UInt64(DebugShellPlugin.compilerVersion))
        #expect(UInt32(stamp >> 48) << 16 | UInt32(stamp >> 16 & 0xFFFF) == DebugShellPlugin.interfaceFingerprint)
    }
}
