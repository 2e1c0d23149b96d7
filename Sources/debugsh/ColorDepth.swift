import DebugShellCore

/// How many colours the terminal shows. Tools and charts speak 24-bit colour (``RGB``); the
/// front end writes each colour at the terminal's depth: as it is where `COLORTERM` says
/// `truecolor` or `24bit` (or TERM names a `-direct` terminal), else the nearest of xterm's 256
/// where TERM says `256color`, else the nearest of the 16 ANSI colours every terminal has.
enum ColorDepth: Equatable, Sendable {
    case trueColor, palette256, palette16

    /// The depth the environment announces.
    static func detect(colorTerm: String?, term: String?) -> ColorDepth {
        let colorTerm = (colorTerm ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        let term = (term ?? "").lowercased()
        if term.hasSuffix("-direct") { return .trueColor }
        if term.contains("256color") { return .palette256 }
        return .palette16
    }

    /// The depth of this process's terminal.
    static let current = detect(colorTerm: environmentValue("COLORTERM"), term: environmentValue("TERM"))

    /// The SGR parameters for a foreground colour: `38;2;r;g;b`, `38;5;n` or `31`/`91`.
    func foreground(_ c: RGB) -> String {
        switch self {
        case .trueColor: return "38;2;\(c.red);\(c.green);\(c.blue)"
        case .palette256: return "38;5;\(ColorDepth.nearest256(c))"
        case .palette16:
            let n = ColorDepth.nearest16(c)
            return String(n < 8 ? 30 + n : 90 + n - 8)
        }
    }

    /// Text with every 24-bit foreground code (`ESC[38;2;r;g;bm`, as charts write them)
    /// rewritten at this depth; other text and codes stay as they are.
    func adapting(_ text: String) -> String {
        guard self != .trueColor, text.contains("\u{1B}[38;2;") else { return text }
        var out = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "\u{1B}[38;2;") {
            out += rest[..<start.lowerBound]
            let tail = rest[start.upperBound...]
            guard let end = tail.firstIndex(of: "m") else {
                out += rest[start.lowerBound...]
                return out
            }
            let parts = tail[..<end].split(separator: ";", omittingEmptySubsequences: false).map { UInt8($0) }
            if parts.count == 3, let r = parts[0], let g = parts[1], let b = parts[2] {
                out += "\u{1B}[" + foreground(RGB(r, g, b)) + "m"
            } else {
                out += rest[start.lowerBound...end]
            }
            rest = tail[tail.index(after: end)...]
        }
        return out + rest
    }

    /// The levels of xterm's 6×6×6 colour cube (indices 16…231).
    private static let cube: [Int] = [0, 95, 135, 175, 215, 255]

    /// The nearest xterm colour: of the cube and of the 24 greys (232…255, 8 + 10·i).
    static func nearest256(_ c: RGB) -> Int {
        func level(_ v: UInt8) -> Int {
            var best = 0
            for i in 1..<cube.count where abs(cube[i] - Int(v)) < abs(cube[best] - Int(v)) { best = i }
            return best
        }
        let (r, g, b) = (level(c.red), level(c.green), level(c.blue))
        let cubeColor = (cube[r], cube[g], cube[b])
        let average = (Int(c.red) + Int(c.green) + Int(c.blue)) / 3
        let grey = min(23, max(0, (average - 3) / 10))
        let greyLevel = 8 + 10 * grey
        if distance(c, (greyLevel, greyLevel, greyLevel)) < distance(c, cubeColor) { return 232 + grey }
        return 16 + 36 * r + 6 * g + b
    }

    /// xterm's default 16 colours: black, red, green, yellow, blue, magenta, cyan, white, then
    /// the bright ones.
    private static let ansi16: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
        (0, 255, 255), (255, 255, 255),
    ]

    /// The nearest of the 16 ANSI colours (0…15).
    static func nearest16(_ c: RGB) -> Int {
        var best = 0
        for i in 1..<ansi16.count where distance(c, ansi16[i]) < distance(c, ansi16[best]) { best = i }
        return best
    }

    private static func distance(_ c: RGB, _ d: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (Int(c.red) - d.0, Int(c.green) - d.1, Int(c.blue) - d.2)
        return dr * dr + dg * dg + db * db
    }
}
