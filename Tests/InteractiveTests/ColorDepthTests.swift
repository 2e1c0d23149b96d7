import DebugShellCore
import Testing

@testable import debugsh

/// Colours at the terminal's depth: 24-bit only where COLORTERM says so, else xterm's 256, else
/// the 16 ANSI colours.
struct ColorDepthTests {
    @Test(
        arguments: [
            ("truecolor", "xterm", ColorDepth.trueColor), ("24bit", "screen", .trueColor),
            ("TrueColor", nil, .trueColor),
            (nil, "xterm-direct", .trueColor), (nil, "xterm-256color", .palette256), ("", "tmux-256color", .palette256),
            ("yes", "xterm-256color", .palette256), (nil, "xterm", .palette16), (nil, "linux", .palette16),
            (nil, nil, .palette16),
        ] as [(String?, String?, ColorDepth)])
    func depthFromTheEnvironment(colorTerm: String?, term: String?, depth: ColorDepth) {
        #expect(ColorDepth.detect(colorTerm: colorTerm, term: term) == depth)
    }

    @Test func coloursAtEachDepth() {
        let amber = RGB(230, 160, 0)
        #expect(ColorDepth.trueColor.foreground(amber) == "38;2;230;160;0")
        // The cube's nearest levels are 215, 175, 0: 16 + 36·4 + 6·2 + 0.
        #expect(ColorDepth.palette256.foreground(amber) == "38;5;178")
        #expect(ColorDepth.palette16.foreground(amber) == "33")
        // Greys go to the grey ramp; pure colours to the cube's corners or the bright 16.
        #expect(ColorDepth.nearest256(RGB(128, 128, 128)) == 244)
        #expect(ColorDepth.nearest256(RGB(255, 0, 0)) == 196)
        #expect(ColorDepth.palette16.foreground(RGB(255, 0, 0)) == "91")
        #expect(ColorDepth.palette16.foreground(RGB(0, 0, 0)) == "30")
        #expect(ColorDepth.palette16.foreground(RGB(250, 250, 250)) == "97")
    }

    @Test func chartsAndBlocksAreRewrittenToTheDepth() {
        let chart = "a \u{1B}[38;2;214;69;65m██\u{1B}[0m b \u{1B}[1mbold\u{1B}[0m"
        #expect(ColorDepth.trueColor.adapting(chart) == chart)
        #expect(ColorDepth.palette256.adapting(chart) == "a \u{1B}[38;5;167m██\u{1B}[0m b \u{1B}[1mbold\u{1B}[0m")
        #expect(ColorDepth.palette16.adapting(chart) == "a \u{1B}[31m██\u{1B}[0m b \u{1B}[1mbold\u{1B}[0m")
        // A code that is cut short or malformed stays as it is.
        #expect(ColorDepth.palette16.adapting("x\u{1B}[38;2;1;2") == "x\u{1B}[38;2;1;2")
        #expect(ColorDepth.palette16.adapting("x\u{1B}[38;2;1;2;999m") == "x\u{1B}[38;2;1;2;999m")
        let line = StyledText([("fps ", .bold), ("60", .color(RGB(0, 200, 0)))])
        #expect(
            StatusBlock.rows([line], columns: 80, rows: 24, color: true, depth: .palette256)
                == ["\u{1B}[1mfps \u{1B}[0m\u{1B}[38;5;40m60\u{1B}[0m"])
        #expect(
            StatusBlock.rows([line], columns: 80, rows: 24, color: true, depth: .palette16)
                == ["\u{1B}[1mfps \u{1B}[0m\u{1B}[32m60\u{1B}[0m"])
    }
}
