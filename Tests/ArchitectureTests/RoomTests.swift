import Foundation
import Testing

/// The rooms of the house (docs/Architecture.md) and what each may import: the manifest's
/// target dependencies are the compiler's half of the rule, this is the reader's half — what the
/// files say they use. A room that starts importing another's module fails here first.
@Suite struct RoomTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A room: its folders and the modules its files may import. The C library (Glibc, Musl)
    /// is every room's.
    struct Room: CustomStringConvertible {
        var name: String
        var folders: [String]
        var mayImport: Set<String>
        var description: String { name }
    }

    static let rooms: [Room] = [
        Room(
            name: "the plugin API", folders: ["DebugShellCore/Sources/DebugShellCore"],
            mayImport: ["CDebugShellHints"]),
        Room(
            name: "the chart renderers", folders: ["DebugShellCharts/Sources/DebugShellCharts"],
            mayImport: ["DebugShellCore"]),
        Room(
            name: "the engine", folders: ["Sources/DebugShellEngine"],
            mayImport: ["DebugShellCore", "CPrefetch", "DequeModule", "Synchronization"]),
        Room(name: "the interpreter", folders: ["Sources/DebugShellInterpreter"], mayImport: ["DebugShellCore"]),
        Room(name: "the trace recorder", folders: ["Sources/DebugShellTrace"], mayImport: ["DebugShellCore"]),
        Room(name: "the importers", folders: ["Sources/DebugShellImport"], mayImport: ["DebugShellCore"]),
        Room(
            name: "the session", folders: ["Sources/DebugShell"],
            mayImport: [
                "DebugShellCore", "DebugShellEngine", "DebugShellInterpreter", "DebugShellTrace", "DebugShellImport",
                "DequeModule", "Synchronization",
            ]),
        Room(
            name: "the built-in tools",
            folders: ["Plugins/FPSMeter", "Plugins/LayoutSettle", "Plugins/TimerInspector"],
            mayImport: ["DebugShellCore", "DebugShellCharts"]),
        // The budget plugin's entry points (FrameBudgetPlugin) import its own tools, FrameBudget.
        Room(
            name: "the example plugins", folders: ["Examples/ExternalTool/Sources"],
            mayImport: ["DebugShellCore", "DebugShellCharts", "FrameBudget"]),
        Room(
            name: "the careless plugin (a test fixture)", folders: ["Tests/Fixtures/CarelessPlugin/Sources"],
            mayImport: ["DebugShellCore"]),
        // Its C initializer (BrokenLoader) is a target of its own.
        Room(
            name: "the broken plugins (a test fixture)", folders: ["Tests/Fixtures/BrokenPlugins/Sources"],
            mayImport: ["DebugShellCore", "BrokenLoader"]),
        Room(
            name: "the stuck plugin (a test fixture)", folders: ["Tests/Fixtures/StuckPlugin/Sources"],
            mayImport: ["DebugShellCore"]),
        Room(
            name: "the list of built-in tools", folders: ["Sources/BuiltInTools"],
            mayImport: ["DebugShellCore", "FPSMeterTool", "LayoutSettleTool", "TimerInspectorTool"]),
        // `debugsh test`: the runner and the child's report; the front end hands it the command
        // line and its interrupt flag.
        Room(
            name: "the test runner", folders: ["Sources/DebugShellTestRunner"],
            mayImport: ["ArgumentParser", "DebugShell", "DebugShellCore", "DebugShellInterpreter"]),
        Room(
            name: "the front end", folders: ["Sources/debugsh"],
            mayImport: [
                "ArgumentParser", "BuiltInTools", "CReadline", "CTrapSupport", "DebugShell", "DebugShellCore",
                "DebugShellInterpreter", "DebugShellTestRunner", "Synchronization",
            ]),
    ]

    /// The modules a Swift file imports, `#if canImport` branches, access levels and attributes
    /// (`@preconcurrency import CReadline`) included.
    static func imports(of file: URL) throws -> Set<String> {
        var modules = Set<String>()
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first,
                ["@testable", "@preconcurrency", "public", "package", "internal", "private"].contains(first)
            {
                words.removeFirst()
            }
            if words.count >= 2, words[0] == "import" { modules.insert(words[1]) }
        }
        return modules
    }

    static func swiftFiles(in folder: String) -> [URL] {
        let url = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return [] }
        // Build folders: `.build`, and `Benchmarks/.build-floor`, where compare.py builds the floor.
        return walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" && !$0.pathComponents.contains { $0.hasPrefix(".build") } }
            .sorted { $0.path < $1.path }
    }

    @Test(arguments: rooms)
    func aRoomImportsOnlyWhatItMay(_ room: Room) throws {
        let files = room.folders.flatMap(Self.swiftFiles)
        #expect(!files.isEmpty, "\(room.name) has no files: the rooms in this test are out of date")
        for file in files {
            let extra = try Self.imports(of: file).subtracting(room.mayImport).subtracting(["Glibc", "Musl"])
            #expect(
                extra.isEmpty,
                "\(file.path.dropFirst(Self.root.path.count + 1)) (\(room.name)) imports \(extra.sorted())")
        }
    }

    /// Every folder of sources is in a room, so a new target cannot slip past the rule.
    @Test func everySourceFolderIsInARoom() throws {
        let known = Set(Self.rooms.flatMap(\.folders))
        var folders = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path
        )
        .map { "Sources/\($0)" }
        folders += try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Plugins").path)
            .map { "Plugins/\($0)" }
        // Test support and the generators are tools of the repository, not rooms of the product;
        // C targets import nothing.
        let outside: Set<String> = [
            "Sources/DebugShellTesting", "Sources/DocumentGenerators", "Sources/debugsh-generate", "Sources/CPrefetch",
            "Sources/CReadline", "Sources/CTrapSupport",
        ]
        for folder in folders where !outside.contains(folder) {
            #expect(known.contains(folder), "\(folder) is in no room of RoomTests (docs/Architecture.md)")
        }
    }

    /// The engine's speed tricks stay in the engine (docs/Architecture.md): unchecked
    /// exclusivity, unmanaged references, huge pages and prefetching. Two exceptions, each
    /// allowed in the files that use it today and nowhere else, so that a new use fails here:
    /// the plugin API's manifest hand-off across the C entry point (`Unmanaged`), and the API's
    /// one prefetch hint, `MemoryHint` (its C header, `CDebugShellHints`), which the timer
    /// inspector's batched history uses (docs/Decisions.md, "Tools get the prefetch hint from the
    /// API").
    @Test func speedTricksStayInTheEngine() throws {
        let tricks = [
            "@exclusivity(unchecked)", "Unmanaged", "madvise", "MADV_", "debugsh_prefetch", "CPrefetch", "MemoryHint",
            "CDebugShellHints", "debugsh_hint_",
        ]
        let allowed: [String: Set<String>] = [
            "DebugShellCore/Sources/DebugShellCore/Plugin.swift": ["Unmanaged"],
            "DebugShellCore/Sources/DebugShellCore/MemoryHint.swift": [
                "MemoryHint", "CDebugShellHints", "debugsh_hint_",
            ],
            "Plugins/TimerInspector/FiringLog.swift": ["MemoryHint"],
        ]
        let folders = Self.rooms.flatMap(\.folders).filter { $0 != "Sources/DebugShellEngine" }
        var used: [String: Set<String>] = [:]
        for file in folders.flatMap(Self.swiftFiles) {
            let relative = String(file.path.dropFirst(Self.root.path.count + 1))
            let text = try String(contentsOf: file, encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            for trick in tricks where code.contains(trick) {
                used[relative, default: []].insert(trick)
                if !(allowed[relative]?.contains(trick) ?? false) {
                    Issue.record("\(relative) uses \(trick), a speed trick only the engine may use")
                }
            }
        }
        // An exception no longer used is taken off the list, so that it is not reused quietly.
        for (file, tricks) in allowed {
            let unused = tricks.subtracting(used[file] ?? [])
            #expect(unused.isEmpty, "\(file) is allowed \(unused.sorted()) but no longer uses it: take it off the list")
        }
    }

    /// No hand-written Swift file is over 700 lines: a file that grows past it is split by what
    /// its parts hold (the generated `*+Generated.swift` and the build folders are not counted).
    @Test func noHandWrittenFileIsOver700Lines() throws {
        let folders = ["Sources", "Plugins", "DebugShellCore", "DebugShellCharts", "Tests", "Examples", "Benchmarks"]
        let files = folders.flatMap(Self.swiftFiles).filter { !$0.lastPathComponent.hasSuffix("+Generated.swift") }
        #expect(files.count > 100, "the folders of RoomTests.noHandWrittenFileIsOver700Lines are out of date")
        for file in files {
            // Lines as `wc -l` counts them.
            let lines = try String(contentsOf: file, encoding: .utf8).utf8.count(where: { $0 == UInt8(ascii: "\n") })
            #expect(
                lines <= 700,
                "\(file.path.dropFirst(Self.root.path.count + 1)) has \(lines) lines: split it by what its parts hold")
        }
    }
}
