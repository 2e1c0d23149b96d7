import DebugShellCoreFingerprint
import Foundation

// DebugShellCore's interface fingerprint (docs/Plugins.md, "Build identity").
//
//   debugshcore-fingerprint --output <file.swift> --root <folder> <file.swift>…
//       What the build-tool plugin runs: writes the Swift file that defines
//       `DebugShellPlugin.interfaceFingerprint` for these sources (paths taken relative to
//       <folder>), unless it already holds exactly that.
//   debugshcore-fingerprint [<folder>]
//       Prints the fingerprint of the Swift sources in <folder> (by default this checkout's
//       DebugShellCore/Sources/DebugShellCore), to compare with `debugsh --version`.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("debugshcore-fingerprint: \(message)\n".utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--output" {
    guard arguments.count >= 4, arguments[2] == "--root" else {
        fail("usage: debugshcore-fingerprint --output <file.swift> --root <folder> <file.swift>…")
    }
    let output = URL(fileURLWithPath: arguments[1])
    let root = URL(fileURLWithPath: arguments[3]).standardizedFileURL.path
    var files: [InterfaceFingerprint.SourceFile] = []
    for path in arguments.dropFirst(4) {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let relative = url.path.hasPrefix(root + "/") ? String(url.path.dropFirst(root.count + 1)) : url.path
        do {
            files.append(.init(path: relative, text: try String(contentsOf: url, encoding: .utf8)))
        } catch {
            fail("cannot read '\(path)': \(error)")
        }
    }
    let text = InterfaceFingerprint.swiftSource(for: InterfaceFingerprint.of(files))
    // Unchanged output keeps its date, so nothing recompiles for it.
    if (try? String(contentsOf: output, encoding: .utf8)) != text {
        do {
            try text.write(to: output, atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write '\(output.path)': \(error)")
        }
    }
} else {
    guard arguments.count <= 1, arguments.first?.hasPrefix("-") != true else {
        fail("usage: debugshcore-fingerprint [<folder of DebugShellCore's sources>]")
    }
    let folder =
        arguments.first.map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DebugShellCore")
    do {
        let files = try InterfaceFingerprint.sourceFiles(in: folder)
        guard !files.isEmpty else { fail("no Swift files in '\(folder.path)'") }
        print("\(InterfaceFingerprint.hex(InterfaceFingerprint.of(files)))  \(folder.path) (\(files.count) files)")
    } catch {
        fail("cannot read '\(folder.path)': \(error)")
    }
}
