// swift-tools-version:6.2
import PackageDescription

// debugsh tools built outside debugsh: shared libraries that `plugin load` (or
// `debugsh --plugin`) adds to the shell, with tests that replay their examples. Two plugins: the
// hang detector (`hangs`, libHangDetector.so) and a frame-budget watcher with a second small
// tool (`budget`, libFrameBudget.so), which also plots. The package depends on a debugsh
// checkout by path: this one by default, or the one DEBUGSH_ROOT names when the example is
// copied elsewhere — its DebugShellCore (the plugin API) for the tools, its DebugShellCharts for
// the one that plots, and the debugsh package itself for DebugShellTesting, for the tests.
let debugsh = Context.environment["DEBUGSH_ROOT"] ?? "../.."

let package = Package(
    name: "HangDetector",
    products: [
        // The plugin: a dynamic library that links the one DebugShellCore the shell has loaded.
        .library(name: "HangDetector", type: .dynamic, targets: ["HangDetector"]),
        // The budget plugin: its entry points, in a target of their own, and its tools.
        .library(name: "FrameBudget", type: .dynamic, targets: ["FrameBudgetPlugin"]),
    ],
    dependencies: [
        .package(path: "\(debugsh)/DebugShellCore"),
        .package(path: "\(debugsh)/DebugShellCharts"),
        .package(name: "debugsh", path: debugsh),
    ],
    targets: [
        .target(
            name: "HangDetector",
            dependencies: [.product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .testTarget(
            name: "HangDetectorTests",
            dependencies: [
                "HangDetector",
                .product(name: "DebugShellCore", package: "DebugShellCore"),
                .product(name: "DebugShellTesting", package: "debugsh"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .target(
            name: "FrameBudget",
            dependencies: [
                .product(name: "DebugShellCore", package: "DebugShellCore"),
                .product(name: "DebugShellCharts", package: "DebugShellCharts"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        // The C entry points apart from the tools: every test target is linked into one test
        // program, where two plugins' entry points would be one C name defined twice.
        .target(
            name: "FrameBudgetPlugin",
            dependencies: ["FrameBudget", .product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .testTarget(
            name: "FrameBudgetTests",
            dependencies: [
                "FrameBudget",
                .product(name: "DebugShellCore", package: "DebugShellCore"),
                .product(name: "DebugShellTesting", package: "debugsh"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ]
)
