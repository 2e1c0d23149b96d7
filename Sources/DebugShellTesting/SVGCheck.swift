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
