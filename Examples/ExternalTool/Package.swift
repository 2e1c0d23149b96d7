// swift-tools-version:6.2
import PackageDescription

// A debugsh tool built outside debugsh: a shared library that `plugin load` (or
// `debugsh --plugin`) adds to the shell, with tests that replay its examples. It depends on a
// debugsh checkout by path: this one by default, or the one DEBUGSH_ROOT names when the example
// is copied elsewhere — its DebugShellCore (the plugin API) for the tool, and the debugsh
// package itself for DebugShellTesting, for the tests.
let debugsh = Context.environment["DEBUGSH_ROOT"] ?? "../.."

let package = Package(
    name: "HangDetector",
    products: [
        // The plugin: a dynamic library that links the one DebugShellCore the shell has loaded.
        .library(name: "HangDetector", type: .dynamic, targets: ["HangDetector"])
    ],
    dependencies: [
        .package(path: "\(debugsh)/DebugShellCore"),
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
    ]
)
