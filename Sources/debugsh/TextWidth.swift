/// How many terminal columns text takes, from a table of our own rather than the C locale's
/// `wcwidth`: the C locale knows no wide characters, and the result must not depend on
/// the machine's locale.
///
/// A grapheme takes the width of its first scalar: two for East Asian Wide and Fullwidth
/// characters and for emoji shown as emoji, zero for combining marks and format characters, one
/// otherwise. An emoji presentation selector (U+FE0F) widens an emoji to two. ANSI escape
/// sequences take no columns.
enum TextWidth {
    /// The columns one scalar takes on its own.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul Jamo medial vowels and final consonants join the initial consonant's cell.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// The columns one grapheme takes.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1 && first.properties.isEmoji && scalars.contains("\u{FE0F}") { return 2 }
        // A lone combining mark still takes the cell it is drawn in after a base.
        return width(of: first)
    }

    /// The columns `text` takes; escape sequences count zero.
    static func width(of text: String) -> Int {
        var total = 0
        forEachVisible(text) { character, _ in total += width(of: character) }
        return total
    }

    /// `text` cut to at most `columns` columns; escape sequences are kept whole and count zero,
    /// and a wide character that does not fit is left out rather than split.
    ///
    /// When anything was cut from styled text, a reset (`ESC[0m`) ends the result so no style
    /// leaks past it.
    static func truncate(_ text: String, toColumns columns: Int) -> String {
        var result = ""
        var used = 0
        var cut = false
        var sawEscape = false
        forEachVisible(text) { character, escape in
            if let escape {
                sawEscape = true
                if !cut { result += escape }
                return
            }
            guard !cut else { return }
            let w = width(of: character)
            if used + w > columns {
                cut = true
                return
            }
            used += w
            result.append(character)
        }
        if cut && sawEscape { result += "\u{1B}[0m" }
        return result
    }

    /// Calls `body` for each grapheme outside escape sequences, and with the whole sequence
    /// (CSI `ESC [ … final`, OSC `ESC ] … BEL` or `ESC ] … ESC \`, or `ESC` and one character)
    /// for each escape sequence.
    private static func forEachVisible(_ text: String, _ body: (Character, String?) -> Void) {
        var iterator = text.makeIterator()
        while let c = iterator.next() {
            guard c == "\u{1B}" else {
                body(c, nil)
                continue
            }
            var sequence = "\u{1B}"
            guard let kind = iterator.next() else {
                body(c, sequence)
                return
            }
            sequence.append(kind)
            if kind == "[" {
                while let p = iterator.next() {
                    sequence.append(p)
                    if let v = p.unicodeScalars.first?.value, p.unicodeScalars.count == 1, (0x40...0x7E).contains(v) {
                        break
                    }
                }
            } else if kind == "]" {
                var previous: Character?
                while let p = iterator.next() {
                    sequence.append(p)
                    if p == "\u{07}" || (previous == "\u{1B}" && p == "\\") { break }
                    previous = p
                }
            }
            body(c, sequence)
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15 outside the emoji, which
    /// `isEmojiPresentation` covers.
    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x2329...0x232A,  // angle brackets
            0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
            0x3041...0x33FF,  // Kana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
            0xFF00...0xFF60,  // fullwidth forms
            0xFFE0...0xFFE6,  // fullwidth signs
            0x16FE0...0x16FE4, 0x16FF0...0x16FF1,  // ideographic symbols
            0x17000...0x18CFF,  // Tangut, Khitan
            0x18D00...0x18D08,
            0x1AFF0...0x1B2FF,  // Kana extended and supplements, Nushu
            0x1F200...0x1F265,  // enclosed ideographic supplement
            0x20000...0x2FFFD,  // CJK extensions B–F, compatibility supplement
            0x30000...0x3FFFD:  // CJK extensions G–H
            return true
        default:
            return false
        }
    }
}
