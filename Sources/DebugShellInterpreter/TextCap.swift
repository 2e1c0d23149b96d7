import DebugShellCore

/// The most text a tool's code may hand the shell for one place (docs/Limits.md, "Output";
/// docs/Plugins.md, "A plugin is a guest"): longer text is cut there and ends in a visible `…`,
/// so a 10 MB status line or abstract costs the shell no more than a short one. Counted in
/// characters (grapheme clusters), and cutting costs in proportion to the cap, not the text.
public enum TextCap {
    /// A status line: every tool's shares the live block, one terminal row each.
    public static let statusLine = 200
    /// An abstract (a tool's, command's, verb's, option's, argument's, metric's, setting's,
    /// event's) and an option's default as help shows it: one line of help.
    public static let abstract = 200
    /// A command's or verb's discussion, and each of its examples.
    public static let discussion = 4_000

    /// `text` when it has at most `limit` characters; otherwise its first `limit` characters
    /// and `…`.
    public static func cut(_ text: String, to limit: Int) -> String {
        guard let end = end(of: text, limit: limit) else { return text }
        return String(text[..<end]) + "…"
    }

    /// Where `text` is cut after `limit` characters; nil when it is no longer.
    private static func end(of text: String, limit: Int) -> String.Index? {
        // A character is at least one byte: text of at most `limit` bytes is never cut. Every
        // built-in's help passes here at each start, and walking characters cost 2.8 million
        // instructions of `debugsh -c quit`; counting bytes is constant time.
        if text.utf8.count <= limit { return nil }
        guard let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex),
            end < text.endIndex
        else { return nil }
        return end
    }

    /// A status line cut to ``statusLine`` characters across its runs, the `…` in the style of
    /// the run it cuts; the runs after the cut (however many) are not all looked at.
    public static func cut(_ line: StyledText) -> StyledText {
        var left = statusLine
        var runs: [(text: String, style: StyledText.Style)] = []
        for (number, run) in line.runs.enumerated() {
            if let end = end(of: run.text, limit: left) {
                runs.append((String(run.text[..<end]) + "…", run.style))
                return StyledText(runs)
            }
            runs.append(run)
            left -= run.text.count
            if left == 0 {
                let rest = line.runs[(number + 1)...]
                // Only empty runs may follow uncut; more of them than characters allowed are cut.
                if rest.count > statusLine || rest.contains(where: { !$0.text.isEmpty }) {
                    runs[runs.count - 1].text += "…"
                }
                return StyledText(runs)
            }
            // More runs than characters allowed: the rest can only be empty ones or cut.
            if number + 1 == statusLine && number + 1 < line.runs.count {
                runs.append(("…", .plain))
                return StyledText(runs)
            }
        }
        return StyledText(runs)
    }
}

extension TextCap {
    /// A tool's declaration with its help text cut to the caps: abstracts and option defaults to
    /// ``abstract``, discussions and each example to ``discussion`` characters.
    public static func cut(_ tool: ToolDescriptor) -> ToolDescriptor {
        var d = tool
        d.abstract = cut(d.abstract, to: abstract)
        for c in d.commands.indices {
            d.commands[c].abstract = cut(d.commands[c].abstract, to: abstract)
            d.commands[c].discussion = d.commands[c].discussion.map { cut($0, to: discussion) }
            for v in d.commands[c].verbs.indices {
                var verb = d.commands[c].verbs[v]
                verb.abstract = cut(verb.abstract, to: abstract)
                verb.discussion = verb.discussion.map { cut($0, to: discussion) }
                for e in verb.examples.indices {
                    verb.examples[e].transcript = cut(verb.examples[e].transcript, to: discussion)
                }
                for o in verb.options.indices {
                    verb.options[o].abstract = cut(verb.options[o].abstract, to: abstract)
                    verb.options[o].defaultText = verb.options[o].defaultText.map { cut($0, to: abstract) }
                }
                for a in verb.arguments.indices {
                    verb.arguments[a].abstract = cut(verb.arguments[a].abstract, to: abstract)
                }
                d.commands[c].verbs[v] = verb
            }
        }
        for m in d.metrics.indices { d.metrics[m].abstract = cut(d.metrics[m].abstract, to: abstract) }
        for s in d.settings.indices { d.settings[s].abstract = cut(d.settings[s].abstract, to: abstract) }
        for e in d.events.indices { d.events[e].abstract = cut(d.events[e].abstract, to: abstract) }
        return d
    }
}
