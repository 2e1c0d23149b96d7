/// A rule of the simulated device as docs/Semantics.md states it: `help DL7` prints one.
///
/// The table of rules, ``RuleBook/rules``, is generated from docs/Semantics.md into
/// RuleBook.swift, so the binary carries the rules without reading a file; a test fails when the
/// two differ.
public struct DeviceRule: Sendable {
    /// `DL7`, `S4.1` for a step of a rule, `T-A` for a worked example.
    public var id: String
    public var title: String
    /// The id prefix of the rule's section: `DL`.
    var group: String
    /// The rule a step belongs to (`S4` for `S4.1`).
    public var parent: String?
    /// Paragraphs separated by a blank line, list items by a line break; Markdown's `code` and
    /// **emphasis** marks as written in the document.
    public var text: String
    /// The kinds of source the rule rests on: src, doc, obs, model.
    public var sources: [String]
    /// Why the rule is so: the behaviour or documentation it models.
    public var why: String
    /// The commands, metrics and settings the rule touches.
    public var touches: [String]

    var isWorkedExample: Bool { id.contains("-") }
}

/// A section of docs/Semantics.md: the rules whose ids start with `id`.
public struct RuleGroup: Sendable {
    public var id: String
    public var title: String
}

/// The rules of the simulated device, and how help texts find the ids they cite.
public enum RuleBook {
    private static let positions: [String: Int] = {
        var positions: [String: Int] = [:]
        for (index, rule) in rules.enumerated() { positions[rule.id.uppercased()] = index }
        return positions
    }()

    /// The longest id, so the scanner knows how far to look.
    private static let longestID = rules.map(\.id.count).max() ?? 0

    /// The rule with this id, in any case (`help rl6`).
    public static func rule(_ id: String) -> DeviceRule? {
        positions[id.uppercased()].map { rules[$0] }
    }

    /// Whether a word has the shape of a rule id — one or two letters and a number, or a letter,
    /// a hyphen and a letter — defined or not.
    public static func looksLikeRuleID(_ word: String) -> Bool {
        let w = Array(word.uppercased().unicodeScalars)
        var i = 0
        while i < w.count, ("A"..."Z").contains(w[i]) { i += 1 }
        guard (1...2).contains(i), i < w.count else { return false }
        if w[i] == "-" { return i + 2 == w.count && ("A"..."Z").contains(w[i + 1]) }
        var digits = 0
        var dots = 0
        for scalar in w[i...] {
            if ("0"..."9").contains(scalar) {
                digits += 1
            } else if scalar == ".", digits > 0, dots == 0 {
                dots += 1
            } else {
                return false
            }
        }
        return digits > 0 && w.last != "."
    }

    /// The ids a text cites, in the book's order; a range such as `T1–T8` cites every rule of
    /// the same level between its ends.
    static func citedIDs(in text: String) -> [String] {
        var cited = Set<Int>()
        let chars = Array(text)
        var i = 0
        var previous: Int?
        while i < chars.count {
            guard i == 0 || !chars[i - 1].isLetter && !chars[i - 1].isNumber, let (index, end) = id(in: chars, at: i)
            else {
                if !(chars[i] == "–" || chars[i] == "-") { previous = nil }
                i += 1
                continue
            }
            cited.insert(index)
            if let start = previous, i > 0, chars[i - 1] == "–" || chars[i - 1] == "-" {
                for between in range(from: start, to: index) { cited.insert(between) }
            }
            previous = index
            i = end
        }
        return cited.sorted().map { rules[$0].id }
    }

    /// A list of ids for a help text, runs of three or more neighbours shortened: `T1–T8, K2`.
    static func compactList(_ ids: [String]) -> String {
        let indices = ids.compactMap { positions[$0.uppercased()] }.sorted()
        var parts: [String] = []
        var run: [Int] = []
        func flush() {
            if run.count >= 3 {
                parts.append("\(rules[run[0]].id)–\(rules[run[run.count - 1]].id)")
            } else {
                parts += run.map { rules[$0].id }
            }
            run = []
        }
        for index in indices {
            if let last = run.last, neighbours(last, index) {
                run.append(index)
            } else {
                flush()
                run = [index]
            }
        }
        flush()
        return parts.joined(separator: ", ")
    }

    /// The rules of a group that are neither steps nor worked examples.
    static func mainRules(of group: String) -> [DeviceRule] {
        rules.filter { $0.group == group && $0.parent == nil && !$0.isWorkedExample }
    }

    // MARK: Scanning

    /// The defined id that starts at `start` and is not followed by a letter or digit; the
    /// longest if several do (`S4.1` over `S4`).
    private static func id(in chars: [Character], at start: Int) -> (index: Int, end: Int)? {
        guard chars[start].isUppercase else { return nil }
        var best: (Int, Int)?
        var candidate = ""
        var i = start
        while i < chars.count, i - start < longestID {
            candidate.append(chars[i])
            i += 1
            let followedByWord = i < chars.count && (chars[i].isLetter || chars[i].isNumber)
            if !followedByWord, let index = positions[candidate] { best = (index, i) }
        }
        return best
    }

    /// The rules from one index to another, both of one level (main rules or steps of one rule).
    private static func range(from start: Int, to end: Int) -> [Int] {
        guard start < end else { return [] }
        let first = rules[start]
        return (start...end).filter {
            rules[$0].group == first.group && rules[$0].parent == first.parent && !rules[$0].isWorkedExample
        }
    }

    private static func neighbours(_ a: Int, _ b: Int) -> Bool {
        let x = rules[a]
        guard b == a + 1 || (a + 1..<b).allSatisfy({ rules[$0].parent != nil && x.parent == nil }) else {
            return false
        }
        let y = rules[b]
        return x.group == y.group && x.parent == y.parent && !x.isWorkedExample && !y.isWorkedExample
    }
}
