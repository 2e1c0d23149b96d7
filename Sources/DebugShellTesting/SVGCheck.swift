import Foundation

/// Checks that an SVG a chart wrote is a document other programs read: well-formed XML with an
/// `svg` root in the SVG namespace (Python's `xml.etree`), and an image `rsvg-convert` (Debian's
/// librsvg2-bin) renders to PNG without a complaint.
///
/// Neither check is skipped when its program is missing: `.ci/run` installs both, and a missing
/// one fails the test with what to install.
public enum SVGCheck {
    /// What went wrong, with the program's own words.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Parses `svg` as XML and returns the root's tag and the number of elements.
    ///
    /// - Throws: ``Failure`` when python3 is missing or the text is not well-formed XML.
    public static func parseXML(_ svg: String) throws -> (root: String, elements: Int) {
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.fromstring(sys.stdin.buffer.read())
            print(root.tag)
            print(sum(1 for _ in root.iter()))
            """
        let (data, err, status) = try run("python3", ["-c", script], input: Data(svg.utf8))
        guard status == 0 else { throw Failure(description: "not well-formed XML: \(err)") }
        let out = String(decoding: data, as: UTF8.self)
        let lines = out.split(separator: "\n").map(String.init)
        guard lines.count == 2, let count = Int(lines[1]) else {
            throw Failure(description: "unexpected output from python3: \(out)")
        }
        return (lines[0], count)
    }

    /// Renders `svg` to PNG with rsvg-convert and returns the PNG's bytes.
    ///
    /// - Throws: ``Failure`` when rsvg-convert is missing, fails, or writes anything to stderr.
    public static func renderPNG(_ svg: String) throws -> [UInt8] {
        let (png, err, status) = try run("rsvg-convert", ["--format", "png"], input: Data(svg.utf8))
        guard status == 0, err.isEmpty else {
            throw Failure(description: "rsvg-convert failed (status \(status)): \(err)")
        }
        return [UInt8](png)
    }

    /// The width and height a PNG's header gives.
    public static func pngSize(_ png: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 24, Array(png[0..<8]) == signature else { return nil }
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/bin", "/bin", "/usr/local/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs a program with `input` on stdin; returns its stdout, stderr and status.
    private static func run(_ name: String, _ arguments: [String], input: Data) throws -> (Data, String, Int32) {
        guard let path = executable(name) else {
            let package = name == "rsvg-convert" ? "librsvg2-bin" : name
            throw Failure(description: "\(name) is not installed: apt-get install \(package)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write on another thread: a large input must not block on a full output pipe.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (out, String(decoding: err, as: UTF8.self), process.terminationStatus)
    }
}

/// One element of an SVG a chart wrote, for tests that read what was drawn: its name, its own
/// attributes, those of the groups around it (the nearest first), and its text.
public struct SVGElement: Sendable {
    public var name: String
    public var attributes: [String: String]
    /// The attributes of the enclosing groups, the nearest group's winning.
    public var inherited: [String: String]
    /// The text inside it, unescaped (a `<text>` element's words).
    public var text: String

    /// The attribute as drawn: the element's own, else its groups'.
    public subscript(_ name: String) -> String? { attributes[name] ?? inherited[name] }

    /// A numeric attribute.
    public func number(_ name: String) -> Double? { self[name].flatMap(Double.init) }
}

extension SVGCheck {
    /// The elements of a chart's SVG in document order. A small reader for the SVG debugsh
    /// writes (elements, attributes in double quotes, text, the five predefined entities), not a
    /// general XML parser: ``parseXML(_:)`` checks well-formedness.
    public static func elements(_ svg: String) -> [SVGElement] {
        var result: [SVGElement] = []
        var open: [Int] = []  // indices into result of the elements still open
        var groups: [[String: String]] = []  // for each open element, what its children inherit
        let s = Array(svg.unicodeScalars)
        var i = 0
        func unescape(_ text: String) -> String {
            var out = text
            for (entity, ch) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
                out = out.replacingOccurrences(of: entity, with: ch)
            }
            return out
        }
        while i < s.count {
            if s[i] != "<" {
                var text = String.UnicodeScalarView()
                while i < s.count && s[i] != "<" {
                    text.append(s[i])
                    i += 1
                }
                if let k = open.last { result[k].text += unescape(String(text)) }
                continue
            }
            // A declaration, a closing tag or an element.
            if i + 1 < s.count && (s[i + 1] == "?" || s[i + 1] == "!") {
                while i < s.count && s[i] != ">" { i += 1 }
                i += 1
                continue
            }
            if i + 1 < s.count && s[i + 1] == "/" {
                while i < s.count && s[i] != ">" { i += 1 }
                i += 1
                if !open.isEmpty {
                    open.removeLast()
                    groups.removeLast()
                }
                continue
            }
            i += 1
            var name = ""
            while i < s.count && !" \n\t/>".unicodeScalars.contains(s[i]) {
                name.unicodeScalars.append(s[i])
                i += 1
            }
            var attributes: [String: String] = [:]
            var selfClosing = false
            while i < s.count {
                while i < s.count && " \n\t".unicodeScalars.contains(s[i]) { i += 1 }
                if s[i] == "/" {
                    selfClosing = true
                    i += 1
                    continue
                }
                if s[i] == ">" {
                    i += 1
                    break
                }
                var key = ""
                while i < s.count && s[i] != "=" && s[i] != ">" {
                    key.unicodeScalars.append(s[i])
                    i += 1
                }
                i += 2  // `="`
                var value = ""
                while i < s.count && s[i] != "\"" {
                    value.unicodeScalars.append(s[i])
                    i += 1
                }
                i += 1
                attributes[key] = unescape(value)
            }
            let inherited = groups.last ?? [:]
            result.append(SVGElement(name: name, attributes: attributes, inherited: inherited, text: ""))
            if !selfClosing {
                open.append(result.count - 1)
                groups.append(inherited.merging(attributes) { _, own in own })
            }
        }
        return result
    }
}

/// A chart's SVG as DebugShellCharts lays it out, read back for tests: its panels (the framed
/// plot areas) with their y ticks, the x ticks under the last panel, and the maps from values to
/// pixels that the ticks give.
public struct SVGChart: Sendable {
    /// A tick: its label, the value the label reads (the number before any unit), and where it is.
    public struct Tick: Sendable {
        public var label: String
        public var value: Double
        public var position: Double
    }

    /// A panel's frame, its axis label and its y ticks, top to bottom.
    public struct Panel: Sendable {
        public var left: Double
        public var top: Double
        public var right: Double
        public var bottom: Double
        public var label: String
        public var yTicks: [Tick]

        /// The pixel row of `value` on the panel's y axis, from its first and last ticks.
        public func y(_ value: Double) -> Double? {
            guard let a = yTicks.first, let b = yTicks.last, a.value != b.value else { return nil }
            return a.position + (value - a.value) * (b.position - a.position) / (b.value - a.value)
        }

        public func contains(x: Double, y: Double) -> Bool { x >= left && x <= right && y >= top && y <= bottom }
    }

    public var elements: [SVGElement]
    public var title: String
    public var panels: [Panel]
    public var xTicks: [Tick]

    public init(_ svg: String) {
        elements = SVGCheck.elements(svg)
        title = elements.first { $0.name == "title" }?.text ?? ""
        let texts = elements.filter { $0.name == "text" }
        func value(_ label: String) -> Double {
            Double(String(label.unicodeScalars.prefix { "-0123456789.".unicodeScalars.contains($0) })) ?? .nan
        }
        var panels: [Panel] = []
        for frame in elements where frame.name == "rect" && frame["stroke"] == "#c8c8c8" {
            guard let left = frame.number("x"), let top = frame.number("y"), let w = frame.number("width"),
                let h = frame.number("height")
            else { continue }
            let label = texts.first { $0.number("x") == left && $0.number("y") == top - 8 }?.text ?? ""
            let ticks =
                texts.filter {
                    $0["text-anchor"] == "end" && $0.number("x") == left - 6
                        && ($0.number("y") ?? -1) >= top && ($0.number("y") ?? .infinity) <= top + h + 4
                }
                .map { Tick(label: $0.text, value: value($0.text), position: ($0.number("y") ?? 0) - 4) }
            panels.append(Panel(left: left, top: top, right: left + w, bottom: top + h, label: label, yTicks: ticks))
        }
        self.panels = panels
        let axisY = (panels.last?.bottom ?? 0) + 18
        xTicks = texts.filter { $0["text-anchor"] == "middle" && $0.number("y") == axisY }
            .map { Tick(label: $0.text, value: value($0.text), position: $0.number("x") ?? 0) }
    }

    /// The pixel column of `value` on the x axis, from its first and last ticks.
    public func x(_ value: Double) -> Double? {
        guard let a = xTicks.first, let b = xTicks.last, a.value != b.value else { return nil }
        return a.position + (value - a.value) * (b.position - a.position) / (b.value - a.value)
    }

    /// The `<text>` elements whose words are `text`.
    public func texts(_ text: String) -> [SVGElement] {
        elements.filter { $0.name == "text" && $0.text == text }
    }
}

/// Whether `ticks` are 1-2-5 ticks: equally spaced by a step of 1, 2 or 5 × 10^k, each a whole
/// multiple of it. With `gaps`, ticks may be left out (the terminal leaves a row unlabelled
/// beside a line that is not at its value): the spaces are then whole multiples of the smallest,
/// which must be such a step — or, with two ticks left, both are whole multiples of such a step
/// of at least a sixth of the space between them (at most six rows apart).
public func areOneTwoFiveTicks(_ ticks: [Double], gaps: Bool = false) -> Bool {
    guard ticks.count >= 2, ticks.allSatisfy(\.isFinite) else { return false }
    let sorted = ticks.sorted()
    let spaces = zip(sorted.dropFirst(), sorted).map { $0 - $1 }
    guard var smallest = spaces.min(), smallest > 0 else { return false }
    // Labels are rounded to their decimals: whole within a part in a million of the label's size.
    func whole(_ v: Double) -> Bool { Swift.abs(v - v.rounded()) < 1e-6 + Swift.abs(v) * 1e-9 }
    func isOneTwoFive(_ step: Double) -> Bool {
        var magnitude = 1.0
        while magnitude * 10 <= step * (1 + 1e-6) { magnitude *= 10 }
        while magnitude > step * (1 + 1e-6) { magnitude /= 10 }
        return [1.0, 2, 5].contains { Swift.abs(step / magnitude - $0) < 1e-6 }
    }
    // The smallest space as the round number it stands for, when it is one.
    var magnitude = 1.0
    while magnitude * 10 <= smallest * (1 + 1e-6) { magnitude *= 10 }
    while magnitude > smallest * (1 + 1e-6) { magnitude /= 10 }
    if let factor = [1.0, 2, 5, 10].first(where: { Swift.abs(smallest / magnitude - $0) < 1e-6 }) {
        smallest = factor * magnitude
    }
    let even = spaces.allSatisfy { Swift.abs($0 - smallest) < smallest * 1e-6 }
    if even && isOneTwoFive(smallest) && sorted.allSatisfy({ whole($0 / smallest) }) { return true }
    guard gaps else { return false }
    if sorted.count > 2 {
        return isOneTwoFive(smallest) && spaces.allSatisfy { whole($0 / smallest) }
            && sorted.allSatisfy { whole($0 / smallest) }
    }
    magnitude = 1.0
    while magnitude > smallest / 6 { magnitude /= 10 }
    while magnitude * 10 <= smallest / 6 { magnitude *= 10 }
    for step in [1.0, 2, 5, 10, 20, 50].map({ $0 * magnitude }) where step >= smallest / 6 * (1 - 1e-9) {
        if step <= smallest * (1 + 1e-9) && sorted.allSatisfy({ whole($0 / step) }) { return true }
    }
    return false
}
