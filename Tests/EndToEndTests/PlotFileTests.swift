import DebugShellTesting
import Foundation
import Testing

/// `fps plot` and `timer plot` on the built binary: a script writes the same SVG every run, the
/// README's picture is made this way, a file that cannot be written fails the script.
@Suite struct PlotFileTests {
    /// The README's example, plotted twice by a script: the same bytes, a document rsvg-convert
    /// draws, relative paths from the working folder.
    @Test func aScriptWritesTheSameSVGEveryRun() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let example = Binary.packageRoot.appendingPathComponent("Examples/fps-gpu-bound-table.dsh").path
        var files: [Data] = []
        for name in ["a.svg", "b.svg"] {
            let r = try Binary.run(["--no-rc", example, "-c", "fps plot \(name)"], directory: dir)
            #expect(r.status == 0, "\(r)")
            let last = r.stdout.split(separator: "\n").last ?? ""
            #expect(last.hasPrefix("wrote \(name) (") && last.hasSuffix(", from 0s to 5s"), "\(r)")
            files.append(try Data(contentsOf: dir.appendingPathComponent(name)))
        }
        #expect(files[0] == files[1])
        let svg = String(decoding: files[0], as: UTF8.self)
        #expect(try SVGCheck.parseXML(svg).root == "{http://www.w3.org/2000/svg}svg")
        #expect(SVGCheck.pngSize(try SVGCheck.renderPNG(svg))?.width == 960)
    }

    /// Scripts draw at 80 columns whatever COLUMNS says; --width asks for another width.
    @Test func scriptsDrawAt80Columns() throws {
        let script = ["--no-rc", "-c", "fps start; animate 2s; run 2s; fps plot"]
        let plain = try Binary.run(script)
        let wide = try Binary.run(script, environment: ["COLUMNS": "200"])
        #expect(plain.status == 0 && plain.stdout == wide.stdout, "\(plain)")
        #expect(plain.stdout.split(separator: "\n").contains { $0.count == 80 })
        #expect(!plain.stdout.contains("\u{1B}"))
        let narrow = try Binary.run(["--no-rc", "-c", "fps start; animate 2s; run 2s; fps plot --width 50"])
        let lines = narrow.stdout.split(separator: "\n").map(String.init)
        #expect(lines.dropLast().allSatisfy { $0.count <= 50 }, "\(narrow)")
    }

    /// A plot that cannot be written fails the command (exit status 1) and leaves no file behind.
    @Test func anUnwritableFileFailsTheScript() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("taken.svg"), withIntermediateDirectories: false)
        let r = try Binary.run(
            [
                "--no-rc", "-k", "-c",
                "timer nstimer t --interval 10ms --repeats; run 1s; timer plot t taken.svg; timer plot t missing/t.svg",
            ], directory: dir)
        #expect(r.status == 1)
        #expect(
            r.stderr == """
                <command-line>:1: error: cannot write 'taken.svg': not a regular file
                <command-line>:1: error: cannot write 'missing/t.svg': No such file or directory

                """, "\(r)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["taken.svg"])
    }

    /// With --json the result names the file and its size.
    @Test func theJSONLineNamesTheFile() throws {
        let dir = try Binary.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(
            ["--no-rc", "--json", "-c", "timer nstimer t --interval 10ms --repeats; run 1s; timer plot t t.svg"],
            directory: dir)
        let last = try #require(r.stdout.split(separator: "\n").last.map(String.init))
        let size = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("t.svg").path)[.size]
        #expect(
            last.hasPrefix("{\"command\": \"timer plot t t.svg\", \"ok\": true, \"result\": {\"name\": \"t\""), "\(r)")
        #expect(last.contains("\"file\": \"t.svg\", \"bytes\": \((size as? Int) ?? -1), \"columns\": null}"), "\(r)")
    }
}
