/// Text from the user made safe to show: control characters and bytes that are not UTF-8 are
/// written as escapes (`run\x01`, `\xff`), so an error message never moves the cursor, rings
/// the bell or starts an escape sequence on the user's terminal.
public enum VisibleText {
    /// `text` with every control character escaped: `\n`, `\t`, and `\xNN` for the rest of
    /// C0 and DEL; `\u{85}` for C1 controls.
    ///
    /// - Parameter keepingLayout: leave newlines and tabs as they are (`echo "a\tb"`).
    public static func escaped(_ text: String, keepingLayout: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if !isControl(scalar) || (keepingLayout && (scalar == "\n" || scalar == "\t")) {
                out.unicodeScalars.append(scalar)
            } else {
                out += escape(scalar)
            }
        }
        return out
    }

    /// Bytes as text: UTF-8 sequences as themselves (controls escaped), every byte that is not
    /// part of one as `\xNN`.
    public static func escaped(bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var out = ""
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let width = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
            if width > 0, i + width <= bytes.count,
                let text = String(validating: bytes[i..<(i + width)], as: UTF8.self)
            {
                out += escaped(text)
                i += width
            } else {
                out += "\\x" + hex(lead)
                i += 1
            }
        }
        return out
    }

    /// A tool's text made safe for the terminal, where it leaves (``OutputRouter``): every
    /// control character escaped as ``escaped(_:keepingLayout:)`` writes it — CR, ESC, BEL, NUL
    /// and the rest of C0, DEL, C1 — so a tool's text never moves the cursor, rings the bell,
    /// retitles the window or starts an escape sequence.
    ///
    /// - Parameters:
    ///   - keepingLayout: leave newlines and tabs as they are (a command's lines); an event's
    ///     message or a metric's value is one line, so there they are escaped too.
    ///   - keepingColor: leave complete SGR sequences (`ESC [ <digits and ;> m`), which only
    ///     colour text: a chart drawn in colour for a terminal that shows it carries them.
    ///     Any other escape sequence is escaped.
    /// - Returns: `text` itself when it holds no control character, so plain text is unchanged.
    public static func terminalSafe(_ text: String, keepingLayout: Bool, keepingColor: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = ""
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if !isControl(scalar) || (keepingLayout && (scalar == "\n" || scalar == "\t")) {
                out.unicodeScalars.append(scalar)
                i += 1
            } else if keepingColor, scalar == "\u{1B}", let end = sgrEnd(scalars, from: i) {
                out.unicodeScalars.append(contentsOf: scalars[i..<end])
                i = end
            } else {
                out += escape(scalar)
                i += 1
            }
        }
        return out
    }

    /// Where the SGR sequence that starts with the ESC at `start` ends (after its `m`), or nil
    /// when none does.
    private static func sgrEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
        var i = start + 2
        while i < scalars.count {
            let s = scalars[i]
            if s == "m" { return i + 1 }
            guard ("0"..."9").contains(s) || s == ";" else { return nil }
            i += 1
        }
        return nil
    }

    /// A status line's text: every control character — newline and tab too — a space, so a
    /// row of the live block keeps its width and never moves the cursor.
    public static func blanked(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var clean = ""
        clean.unicodeScalars.append(contentsOf: text.unicodeScalars.map { isControl($0) ? " " : $0 })
        return clean
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        default:
            return scalar.value < 0x80 ? "\\x" + hex(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16))}"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
