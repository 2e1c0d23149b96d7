// swift-tools-version:6.2
import PackageDescription

/// Settings shared by the project's own targets: Swift 6 mode, explicit existentials, no warnings.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .treatAllWarnings(as: .error),
]

/// The plugin API, by product: every target that sees it links the one dynamic library.
let core = Target.Dependency.product(name: "DebugShellCore", package: "DebugShellCore")
/// The hash behind DebugShellCore's fingerprint, for the tests that check it.
let fingerprint = Target.Dependency.product(name: "DebugShellCoreFingerprint", package: "DebugShellCore")
/// The chart renderers, for the tools that plot: a static library, a copy in each binary.
let charts = Target.Dependency.product(name: "DebugShellCharts", package: "DebugShellCharts")

let package = Package(
    name: "debugsh",
    products: [
        .executable(name: "debugsh", targets: ["debugsh"]),
        // For the separate Benchmarks/ package: the engine alone, and the whole session.
        .library(name: "DebugShellEngine", targets: ["DebugShellEngine"]),
        .library(name: "DebugShell", targets: ["DebugShell"]),
        // For plugins' tests: transcript replay, so a plugin's examples are tests (Examples/ExternalTool).
        .library(name: "DebugShellTesting", targets: ["DebugShellTesting"]),
    ],
    dependencies: [
        // The plugin API, its own package with a dynamic library: one copy in the process for the
        // shell, the built-in tools and the tools `plugin load` adds.
        .package(path: "DebugShellCore"),
        // The chart renderers: a normal library that depends on the plugin API's dynamic one.
        .package(path: "DebugShellCharts"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // The simulated device: virtual clock, vsync, run loop, timers, commits, render server.
        // The one room allowed the engine's speed tricks (`@exclusivity(unchecked)`, `Unmanaged`,
        // huge pages, prefetching): its C hint is its private dependency.
        .target(
            name: "DebugShellEngine",
            dependencies: [core, "CPrefetch", .product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: strict),
        // A cache prefetch hint, which Swift lacks: the engine's one line of C.
        .target(name: "CPrefetch"),
        // The command language: lexer, parser, values, conditions, the registry, help,
        // completion. It sees the plugin API, never the engine.
        .target(name: "DebugShellInterpreter", dependencies: [core], swiftSettings: strict),
        // The Chrome trace of the simulated timeline: an observer of the public device API.
        .target(name: "DebugShellTrace", dependencies: [core], swiftSettings: strict),
        // Recordings of real devices (and debugsh's own exports) read into a timeline: xctrace's
        // XML, CSV logs, Chrome traces. Streaming readers of its own; no Foundation (start-up).
        .target(name: "DebugShellImport", dependencies: [core], swiftSettings: strict),
        // The session: composes the engine, the interpreter, the trace and the tools; the
        // built-in commands.
        .target(
            name: "DebugShell",
            dependencies: [
                core, "DebugShellEngine", "DebugShellInterpreter", "DebugShellTrace", "DebugShellImport",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict),
        // Test support for tools: transcript replay, so examples are tests.
        .target(
            name: "DebugShellTesting", dependencies: ["DebugShell", "DebugShellInterpreter", core], swiftSettings: strict),
        // The tools: each a folder under Plugins/ that sees only the plugin API.
        .target(
            name: "FPSMeterTool", dependencies: [core, charts], path: "Plugins/FPSMeter", swiftSettings: strict),
        .target(
            name: "LayoutSettleTool", dependencies: [core], path: "Plugins/LayoutSettle",
            swiftSettings: strict),
        .target(
            name: "TimerInspectorTool", dependencies: [core, charts], path: "Plugins/TimerInspector",
            swiftSettings: strict),
        // The one list of built-in tools.
        .target(
            name: "BuiltInTools",
            dependencies: [core, "FPSMeterTool", "LayoutSettleTool", "TimerInspectorTool"],
            swiftSettings: strict),
        // `debugsh test`: the runner (files, shards, children, baselines, reports) and the child's
        // report; the executable hands it the command line and its interrupt flag.
        .target(
            name: "DebugShellTestRunner",
            dependencies: [
                "DebugShell", "DebugShellInterpreter", core,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // GNU readline; only the executable imports it.
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        // glibc's _Fork, for the trap handler (docs/Plugins.md, "When a plugin traps").
        .systemLibrary(name: "CTrapSupport"),
        .executableTarget(
            name: "debugsh",
            dependencies: [
                "DebugShell", "DebugShellInterpreter", "DebugShellTestRunner", "BuiltInTools", "CReadline",
                "CTrapSupport", core, .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        // The generated files (RuleBook+Generated.swift, docs/Commands.md) and their generator.
        .target(
            name: "DocumentGenerators", dependencies: ["DebugShell", "DebugShellInterpreter", "BuiltInTools", core],
            swiftSettings: strict),
        .executableTarget(name: "debugsh-generate", dependencies: ["DocumentGenerators"], swiftSettings: strict),

        .testTarget(
            name: "DebugShellCoreTests", dependencies: [core, charts, fingerprint, "DebugShellTesting"],
            swiftSettings: strict),
        .testTarget(
            name: "DebugShellEngineTests", dependencies: ["DebugShellEngine", "DebugShellTesting", core],
            swiftSettings: strict),
        // The readers, and their round trips through a session (`fps frames --csv`, `trace save`).
        .testTarget(
            name: "DebugShellImportTests",
            dependencies: ["DebugShellImport", "DebugShell", "DebugShellTrace", "DebugShellTesting", "BuiltInTools", core],
            swiftSettings: strict),
        .testTarget(
            name: "DebugShellInterpreterTests", dependencies: ["DebugShellInterpreter", "DebugShellTesting", core],
            swiftSettings: strict),
        .testTarget(
            name: "DebugShellTests",
            dependencies: [
                "DebugShell", "DebugShellEngine", "DebugShellInterpreter", "DebugShellImport", "DebugShellTesting",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "BuiltInToolsTests",
            dependencies: ["BuiltInTools", "DebugShell", "DebugShellTrace", "DebugShellTesting", "DocumentGenerators"],
            swiftSettings: strict),
        .testTarget(
            name: "FPSMeterToolTests",
            dependencies: ["FPSMeterTool", "DebugShell", "DebugShellTesting", "BuiltInTools"], swiftSettings: strict),
        .testTarget(
            name: "LayoutSettleToolTests",
            dependencies: ["LayoutSettleTool", "DebugShell", "DebugShellTesting", "BuiltInTools"], swiftSettings: strict
        ),
        .testTarget(
            name: "TimerInspectorToolTests",
            dependencies: ["TimerInspectorTool", "DebugShell", "DebugShellTesting", "BuiltInTools"],
            swiftSettings: strict),
        // The test runner's own parts: baselines, files and shards, reports, the child's report.
        .testTarget(
            name: "DebugShellTestRunnerTests", dependencies: ["DebugShellTestRunner", "DebugShell", core],
            swiftSettings: strict),
        // The rooms and what each may import, read from the sources.
        .testTarget(name: "ArchitectureTests", swiftSettings: strict),
        // Runs the built binary: depends on it so `swift test` builds it first.
        .testTarget(
            name: "EndToEndTests", dependencies: ["debugsh", "DebugShellTesting", fingerprint], swiftSettings: strict),
        // Drives the built binary in tmux: the interactive session.
        .testTarget(name: "InteractiveTests", dependencies: ["debugsh", "DebugShellTesting"], swiftSettings: strict),
    ]
)
