import DebugShellCore

/// The aliases in force (`alias name = expansion`): the user's, and the shell's one-letter ones
/// until replaced or removed; and how an alias expands in the command position.
public struct AliasTable: Sendable {
    /// An alias: its expansion, and where it stands in `alias`'s listing.
    public struct Alias: Sendable {
        public var expansion: String
        /// When it was first defined: `alias` lists in this order.
        var order: Int
        /// One of the shell's own, not redefined since.
        public var builtIn: Bool
    }

    /// By name: looking one up costs the same however many there are.
    private var byName: [String: Alias] = [:]
    private var nextOrder = 0

    /// The deepest alias expansion.
    public static let maxDepth = 16

    /// A table with the shell's own aliases, in order.
    public init(builtIns: [(name: String, expansion: String)] = []) {
        for (name, expansion) in builtIns {
            byName[name] = Alias(expansion: expansion, order: nextOrder, builtIn: true)
            nextOrder += 1
        }
    }

    public subscript(name: String) -> Alias? { byName[name] }

    /// Defines or redefines an alias; a redefined one keeps its place in the listing.
    public mutating func define(_ name: String, as expansion: String) {
        if byName[name] != nil {
            byName[name]?.expansion = expansion
            byName[name]?.builtIn = false
        } else {
            byName[name] = Alias(expansion: expansion, order: nextOrder, builtIn: false)
            nextOrder += 1
        }
    }

    /// Removes an alias; false when there is none of that name.
    public mutating func remove(_ name: String) -> Bool { byName.removeValue(forKey: name) != nil }

    /// The aliases in the order they were first defined.
    public var inOrder: [(name: String, alias: Alias)] {
        byName.sorted { $0.value.order < $1.value.order }.map { ($0.key, $0.value) }
    }

    /// The names, in the order first defined.
    public var names: [String] { inOrder.map(\.name) }

    /// Expands an alias in the command position (`%1`…`%9`, `%*`; extra words appended), again
    /// while the first word is an alias. A command's own name wins over a user's alias (a plugin
    /// may bring a command named like one), so the registry is asked first; no tool's command may
    /// take a built-in alias's name (`r`), which the registry refuses.
    ///
    /// - Throws: an alias that expands to itself, nests deeper than ``maxDepth``, lacks an
    ///   argument it names, or expands to more than one command.
    public func expand(_ words: ArraySlice<Word>, registry: ToolRegistry) throws(CommandError) -> ArraySlice<Word> {
        var words = words
        var chain: [String] = []
        while let first = words.first, !first.quoted, let alias = byName[first.text],
            registry.command(exactly: first.text) == nil
        {
            if chain.contains(first.text) {
                throw CommandError(
                    "alias '\(first.text)' expands to itself (\((chain + [first.text]).joined(separator: " → ")))")
            }
            guard chain.count < AliasTable.maxDepth else {
                throw CommandError(
                    "aliases nest at most \(AliasTable.maxDepth) deep: '\(chain[0])' goes deeper (\((chain + [first.text]).joined(separator: " → ")))"
                )
            }
            chain.append(first.text)
            words = try AliasTable.substitute(alias.expansion, name: first.text, arguments: words.dropFirst())
        }
        return words
    }

    /// One alias's expansion with its arguments put in.
    private static func substitute(
        _ expansion: String, name: String, arguments args: ArraySlice<Word>
    ) throws(CommandError) -> ArraySlice<Word> {
        var used = 0
        var usesAll = false
        var text = ""
        var scalars = Array(expansion.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            if c == "%", let d = scalars.first {
                if d == "*" {
                    scalars.removeFirst()
                    usesAll = true
                    text += args.map { Lexer.quote($0.text) }.joined(separator: " ")
                    continue
                }
                if let n = Int(String(d)), n >= 1 {
                    scalars.removeFirst()
                    guard n <= args.count else {
                        throw CommandError("alias '\(name)' needs \(n) argument\(n == 1 ? "" : "s") (%\(n))")
                    }
                    used = max(used, n)
                    text += Lexer.quote(args[args.startIndex + n - 1].text)
                    continue
                }
            }
            text.unicodeScalars.append(c)
        }
        if !usesAll && args.count > used {
            text += " " + args.dropFirst(used).map { Lexer.quote($0.text) }.joined(separator: " ")
        }
        let lexed: [LexedCommand]
        do {
            lexed = try Lexer.lexLine(text, line: 1)
        } catch {
            throw CommandError("alias '\(name)': \(error.message)")
        }
        guard lexed.count <= 1 else {
            throw CommandError("alias '\(name)' expands to more than one command")
        }
        return (lexed.first?.words ?? [])[...]
    }
}
