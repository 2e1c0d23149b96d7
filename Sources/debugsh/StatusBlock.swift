import DebugShellCore
import DebugShellInterpreter

/// The live status block's rows as the terminal gets them: one row per status line,
/// styled with SGR codes unless colour is off, cut to the visible width so no row ever wraps,
/// and never so many rows that the block and the prompt outgrow the screen.
enum StatusBlock {
    /// The rows to print, without line ends.
    ///
    /// - Parameters:
    ///   - lines: the status lines, in order.
    ///   - columns: the terminal's width. Rows are cut one column short of it: a row that fills
    ///     the last column leaves the cursor in the terminal's pending-wrap state, and a terminal
    ///     whose width table disagrees with ours would wrap it.
    ///   - rows: the terminal's height; the block keeps at most `rows - 2` rows so the cursor
    ///     can always move back to its top (CUU stops at the top of the screen).
    ///   - color: whether to style (colour, bold, dim); off under NO_COLOR.
    ///   - depth: how many colours the terminal shows (``ColorDepth``).
    static func rows(
        _ lines: [StyledText], columns: Int, rows: Int, color: Bool, depth: ColorDepth = .trueColor
    ) -> [String] {
        let width = max(columns - 1, 1)
        return lines.prefix(max(rows - 2, 0)).map {
            TextWidth.truncate(render($0, color: color, depth: depth), toColumns: width)
        }
    }

    /// One status line as terminal text: control characters become spaces (a tool's text never
    /// moves the cursor), and each styled run is wrapped in its SGR code and a reset.
    static func render(_ line: StyledText, color: Bool, depth: ColorDepth = .trueColor) -> String {
        var text = ""
        for run in line.runs {
            let clean = VisibleText.blanked(run.text)
            guard color, let code = sgr(run.style, depth: depth) else {
                text += clean
                continue
            }
            text += "\u{1B}[\(code)m\(clean)\u{1B}[0m"
        }
        return text
    }

    /// The SGR parameters for a style, nil for plain text.
    static func sgr(_ style: StyledText.Style, depth: ColorDepth = .trueColor) -> String? {
        switch style {
        case .plain: return nil
        case .bold: return "1"
        case .dim: return "2"
        case .color(let c): return depth.foreground(c)
        }
    }

    /// Whether styling is allowed: NO_COLOR (no-color.org) set to anything but the empty string
    /// removes colour, never the block.
    static var colorAllowed: Bool {
        guard let value = environmentValue("NO_COLOR") else { return true }
        return value.isEmpty
    }
}
