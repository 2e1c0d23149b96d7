import DocumentGenerators
import Foundation

/// Writes the repository's generated files (RuleBook+Generated.swift from docs/Semantics.md,
/// docs/Commands.md from the declarations); with `--check`, only says which are out of date and
/// exits 1 if any is.
///
///     swift run debugsh-generate [--check]
let check = CommandLine.arguments.dropFirst().contains("--check")
let root = GeneratedFiles.repositoryRoot
var stale = 0
for file in GeneratedFiles.all {
    do {
        let contents = try file.contents(root: root)
        let url = root.appendingPathComponent(file.path)
        if (try? String(contentsOf: url, encoding: .utf8)) == contents {
            print("\(file.path): up to date")
            continue
        }
        stale += 1
        if check {
            print("\(file.path): out of date with \(file.source)")
        } else {
            try contents.write(to: url, atomically: true, encoding: .utf8)
            print("\(file.path): written from \(file.source)")
        }
    } catch {
        FileHandle.standardError.write(Data("debugsh-generate: \(file.path): \(error)\n".utf8))
        exit(2)
    }
}
exit(check && stale > 0 ? 1 : 0)
