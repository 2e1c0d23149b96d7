import Foundation

/// Reads docs/Semantics.md — the rules of the simulated device — and writes the Swift table the
/// binary carries (Sources/DebugShellInterpreter/RuleBook+Generated.swift), so `help <rule>` needs no file.
///
/// The document's shape: a section `## DL — display links` per group, a heading
/// `### DL7 — Title` per rule or worked example, then its text, a paragraph starting `Why:`
/// (with the source kinds in brackets) and a line starting `Touches:` (backquoted names). A
/// numbered list item starting with a bold id (`1. **S4.1** …`) is a step of its rule.
public enum SemanticsDocument {
    public struct Group: Equatable, Sendable {
        public var id: String
        public var title: String
    }

    public struct Rule: Equatable, Sendable {
        public var id: String
        public var title: String
        public var group: String
        public var parent: String?
        public var text: String
        public var sources: [String]
        public var why: String
        public var touches: [String]
    }

    public struct ParseError: Error, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "docs/Semantics.md:\(line): \(message)" }
    }

    /// The groups and rules, steps right after their rule, in the document's order.
    public static func parse(_ markdown: String) throws(ParseError) -> (groups: [Group], rules: [Rule]) {
        var groups: [Group] = []
        var rules: [Rule] = []
        var group: String?
        var heading: (id: String, title: String, line: Int)?
        var body: [String] = []

        func finish() throws(ParseError) {
            guard let h = heading, let g = group else { return }
            rules += try rule(h.id, h.title, group: g, body: body, line: h.line)
            heading = nil
            body = []
        }

        for (offset, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if line.hasPrefix("## ") {
                try finish()
                if let (id, title) = split(heading: line.dropFirst(3)), id.allSatisfy(\.isUppercase) {
                    group = id
                    groups.append(Group(id: id, title: title))
                } else {
                    group = nil
                }
            } else if line.hasPrefix("### ") {
                try finish()
                guard let g = group else { throw ParseError(line: number, message: "a rule outside a rule section") }
                guard let (id, title) = split(heading: line.dropFirst(4)), id.hasPrefix(g) else {
                    throw ParseError(line: number, message: "expected '### \(g)<n> — <title>'")
                }
                heading = (id, title, number)
            } else if heading != nil {
                body.append(String(line))
            }
        }
        try finish()
        let ids = rules.map(\.id)
        if let duplicate = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
            throw ParseError(line: 0, message: "\(duplicate) is defined twice")
        }
        return (groups, rules)
    }

    /// Every id the document defines.
    public static func definedIDs(_ markdown: String) throws(ParseError) -> Set<String> {
        Set(try parse(markdown).rules.map(\.id))
    }

    /// The Swift source of RuleBook.swift.
    public static func ruleBookSource(_ markdown: String) throws(ParseError) -> String {
        let (groups, rules) = try parse(markdown)
        var out = """
            // Generated from docs/Semantics.md by SemanticsDocument.ruleBookSource (DebugShellTesting):
            // edit the document, then run `DEBUGSH_UPDATE_DOCS=1 swift test --filter SemanticsDocumentTests`.
            // A test fails when this file and the document differ.

            extension RuleBook {
                public static let groups: [RuleGroup] = [

            """
        for g in groups {
            out += "        RuleGroup(id: \(literal(g.id)), title: \(literal(g.title))),\n"
        }
        out += "    ]\n\n    public static let rules: [DeviceRule] = [\n"
        for r in rules {
            out += "        DeviceRule(\n"
            out += "            id: \(literal(r.id)),\n"
            out += "            title: \(literal(r.title)),\n"
            out += "            group: \(literal(r.group)),\n"
            out += "            parent: \(r.parent.map(literal) ?? "nil"),\n"
            // Long literals on lines of their own, as swift-format wants them.
            out += "            text:\n                \(literal(r.text)),\n"
            out += "            sources: [\(r.sources.map(literal).joined(separator: ", "))],\n"
            out += "            why:\n                \(literal(r.why)),\n"
            if r.touches.count == 1 {
                out += "            touches: [\(literal(r.touches[0]))]\n"
            } else {
                out += "            touches: [\n"
                for name in r.touches { out += "                \(literal(name)),\n" }
                out += "            ]\n"
            }
            out += "        ),\n"
        }
        out += "    ]\n}\n"
        return out
    }

    // MARK: Parsing

    private static func split(heading: Substring) -> (String, String)? {
        guard let dash = heading.range(of: " — ") else { return nil }
        let id = String(heading[..<dash.lowerBound])
        guard !id.isEmpty, !id.contains(" ") else { return nil }
        return (id, String(heading[dash.upperBound...]))
    }

    private static func rule(
        _ id: String, _ title: String, group: String, body: [String], line: Int
    ) throws(ParseError) -> [Rule] {
        var blocks: [[String]] = [[]]
        for line in body {
            if line.trimmed.isEmpty {
                if !(blocks.last?.isEmpty ?? true) { blocks.append([]) }
            } else {
                blocks[blocks.count - 1].append(line)
            }
        }
        if blocks.last?.isEmpty == true { blocks.removeLast() }

        var paragraphs: [String] = []
        var why = ""
        var touches: [String] = []
        var steps: [(id: String, text: String)] = []
        for block in blocks {
            let first = block[0]
            if first.hasPrefix("Why:") {
                why = joined(block).dropFirst(4).trimmed
            } else if first.hasPrefix("Touches:") {
                touches = joined(block).split(separator: "`", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            } else if isListItem(first) {
                var items: [String] = []
                for line in block {
                    if isListItem(line) {
                        items.append(line)
                    } else {
                        items[items.count - 1] += " " + line.trimmed
                    }
                }
                for item in items {
                    let afterNumber = item.drop(while: { $0 != " " }).dropFirst()
                    if afterNumber.hasPrefix("**"), let close = afterNumber.dropFirst(2).range(of: "**") {
                        let stepID = String(afterNumber.dropFirst(2)[..<close.lowerBound])
                        steps.append((stepID, afterNumber[close.upperBound...].trimmed))
                    }
                }
                paragraphs.append(items.joined(separator: "\n"))
            } else {
                paragraphs.append(joined(block))
            }
        }
        let isExample = id.contains("-")
        guard !paragraphs.isEmpty else { throw ParseError(line: line, message: "\(id) has no text") }
        guard isExample || !why.isEmpty else { throw ParseError(line: line, message: "\(id) has no 'Why:'") }
        guard !touches.isEmpty else { throw ParseError(line: line, message: "\(id) has no 'Touches:'") }
        let sources = ["src", "doc", "obs", "model"].filter { why.contains("[\($0)]") }
        guard isExample || !sources.isEmpty else {
            throw ParseError(line: line, message: "\(id)'s 'Why:' names no source kind ([src], [doc], [obs], [model])")
        }
        var rules = [
            Rule(
                id: id, title: title, group: group, parent: nil, text: paragraphs.joined(separator: "\n\n"),
                sources: sources, why: why, touches: touches)
        ]
        for (number, step) in steps.enumerated() {
            guard step.id == "\(id).\(number + 1)" else {
                throw ParseError(line: line, message: "step \(step.id) of \(id) should be \(id).\(number + 1)")
            }
            rules.append(
                Rule(
                    id: step.id, title: "\(title), step \(number + 1)", group: group, parent: id, text: step.text,
                    sources: sources, why: "", touches: touches))
        }
        return rules
    }

    private static func isListItem(_ line: String) -> Bool {
        let digits = line.prefix(while: \.isNumber)
        return !digits.isEmpty && line.dropFirst(digits.count).hasPrefix(". ")
    }

    private static func joined(_ lines: [String]) -> String {
        lines.map { $0.trimmed }.joined(separator: " ")
    }

    /// A Swift string literal.
    private static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension StringProtocol {
    fileprivate var trimmed: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
