// swift-tools-version:6.2
import PackageDescription

// A debugsh tool built outside debugsh: a shared library that `plugin load` (or
// `debugsh --plugin`) adds to the shell. It depends on debugsh's plugin API package by path:
// this checkout's by default, or the one DEBUGSH_CORE names when the example is copied elsewhere.
let core = Context.environment["DEBUGSH_CORE"] ?? "../../DebugShellCore"

let package = Package(
    name: "HangDetector",
    products: [
        // The plugin: a dynamic library that links the one DebugShellCore the shell has loaded.
        .library(name: "HangDetector", type: .dynamic, targets: ["HangDetector"])
    ],
    dependencies: [.package(path: core)],
    targets: [
        .target(
            name: "HangDetector",
            dependencies: [.product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
