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
