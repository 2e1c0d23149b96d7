import DebugShellCore
import Testing

@testable import debugsh

/// The width table and the block's rows, without a terminal.
struct TextWidthTests {
    @Test(arguments: [
        ("abc", 3),
        ("日本語", 6),  // East Asian Wide
        ("ｅｃｈｏ", 8),  // Fullwidth forms
        ("e\u{301}", 1),  // a combining acute accent takes no column
        ("🎉", 2),  // emoji presentation
        ("❤\u{FE0F}", 2),  // text symbol with the emoji selector
        ("👩\u{200D}💻", 2),  // a ZWJ sequence is one glyph
        ("한글", 4),  // Hangul syllables
        ("\u{1B}[1mbold\u{1B}[0m", 4),  // escape codes count zero
        ("\u{1B}[38;2;255;0;0mred\u{1B}[0m", 3),
        ("a\u{200B}b", 2),  // zero-width space
    ])
    func widthOf(text: String, columns: Int) {
        #expect(TextWidth.width(of: text) == columns)
    }

    @Test func truncationKeepsEscapesAndNeverSplitsAWideCharacter() {
        #expect(TextWidth.truncate("abcdef", toColumns: 4) == "abcd")
        #expect(TextWidth.truncate("日本語", toColumns: 5) == "日本")
        #expect(TextWidth.truncate("ab", toColumns: 4) == "ab")
        // Cutting styled text ends it with a reset.
        #expect(TextWidth.truncate("\u{1B}[1mabcdef\u{1B}[0m", toColumns: 3) == "\u{1B}[1mabc\u{1B}[0m")
    }

    @Test func blockRowsAreStyledCutAndCapped() {
        let line = StyledText([("fps ", .bold), ("60", .color(RGB(0, 200, 0))), (" ok", .dim)])
        let styled = StatusBlock.rows([line], columns: 80, rows: 24, color: true)
        #expect(styled == ["\u{1B}[1mfps \u{1B}[0m\u{1B}[38;2;0;200;0m60\u{1B}[0m\u{1B}[2m ok\u{1B}[0m"])
        #expect(StatusBlock.rows([line], columns: 80, rows: 24, color: false) == ["fps 60 ok"])
        // One column short of the width; a tool's control characters cannot move the cursor.
        #expect(StatusBlock.rows([StyledText(plain: "abcdef")], columns: 5, rows: 24, color: false) == ["abcd"])
        #expect(
            StatusBlock.rows([StyledText(plain: "a\nb\u{1B}[2J")], columns: 80, rows: 24, color: false) == ["a b [2J"])
        // At most rows - 2 lines.
        let many = (1...10).map { StyledText(plain: "line \($0)") }
        #expect(StatusBlock.rows(many, columns: 80, rows: 6, color: false).count == 4)
    }
}

/// How the block words the pace of a `play` that cannot keep up.
struct PaceTextTests {
    @Test(arguments: [
        (250.0, "250"), (12.4, "12"), (4.0, "4"), (1.25, "1.3"), (0.3, "0.3"), (0.0999, "0.1"), (0.047, "0.047"),
        (0.00123, "0.0012"), (0.0, "0"),
    ])
    func paces(_ pace: Double, _ text: String) {
        #expect(paceText(pace) == text)
    }
}
