// swift-tools-version:6.2
import PackageDescription

/// Settings shared by the project's own targets: Swift 6 mode, explicit existentials, no warnings.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "debugsh",
    products: [
        .executable(name: "debugsh", targets: ["debugsh"]),
        .library(name: "DebugShellCore", targets: ["DebugShellCore"]),
        // For the separate Benchmarks/ package.
        .library(name: "DebugShell", targets: ["DebugShell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // The plugin API: everything a tool may see.
        .target(name: "DebugShellCore", swiftSettings: strict),
        // The engine (virtual clock, run loop, render server) and the interpreter.
        .target(
            name: "DebugShell",
            dependencies: ["DebugShellCore", .product(name: "DequeModule", package: "swift-collections")],
            // The engine's hot loop touches class state millions of times a second; its accesses
            // never overlap by construction (one isolation domain, no inout across callbacks), so
            // the runtime exclusivity checks, about 40% of its instructions, are off in release
            // builds. Debug builds — the test suite — keep them, so an overlap would trap there.
            swiftSettings: strict + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Test support for tools: transcript replay, so examples are tests.
        .target(name: "DebugShellTesting", dependencies: ["DebugShell", "DebugShellCore"], swiftSettings: strict),
        // The tools: each a folder under Plugins/ that sees only the plugin API.
        .target(
            name: "FPSMeterTool", dependencies: ["DebugShellCore"], path: "Plugins/FPSMeter", swiftSettings: strict),
        .target(
            name: "LayoutSettleTool", dependencies: ["DebugShellCore"], path: "Plugins/LayoutSettle",
            swiftSettings: strict),
        .target(
            name: "TimerInspectorTool", dependencies: ["DebugShellCore"], path: "Plugins/TimerInspector",
            swiftSettings: strict),
        // The one list of built-in tools.
        .target(
            name: "BuiltInTools",
            dependencies: ["DebugShellCore", "FPSMeterTool", "LayoutSettleTool", "TimerInspectorTool"],
            swiftSettings: strict),
        // GNU readline; only the executable imports it.
        .systemLibrary(name: "CReadline", providers: [.apt(["libreadline-dev"])]),
        .executableTarget(
            name: "debugsh",
            dependencies: [
                "DebugShell", "BuiltInTools", "CReadline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        .testTarget(name: "DebugShellCoreTests", dependencies: ["DebugShellCore"], swiftSettings: strict),
        .testTarget(name: "DebugShellTests", dependencies: ["DebugShell", "DebugShellTesting"], swiftSettings: strict),
        .testTarget(
            name: "BuiltInToolsTests", dependencies: ["BuiltInTools", "DebugShell", "DebugShellTesting"],
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
        // Runs the built binary: depends on it so `swift test` builds it first.
        .testTarget(name: "EndToEndTests", dependencies: ["debugsh", "DebugShellTesting"], swiftSettings: strict),
        // Drives the built binary in tmux: the interactive session.
        .testTarget(name: "InteractiveTests", dependencies: ["debugsh"], swiftSettings: strict),
    ]
)
