// swift-tools-version:6.2
import PackageDescription

// A deliberately stuck debugsh plugin: a test fixture, not an example to follow. Its tool's
// command loops for ever, its display-link callback waits for a time that never comes, and it
// calls exit(3) — so that the end-to-end tests can check that the session's work is kept
// however the plugin holds or ends the process (docs/Plugins.md, "When a plugin does not
// return"). DebugShellTesting's `StuckPlugin` copies this folder to a temporary one and builds
// it there, once per test run, against the checkout DEBUGSH_ROOT names (else this repository,
// three folders up).
let debugsh = Context.environment["DEBUGSH_ROOT"] ?? "../../.."

let package = Package(
    name: "StuckPlugin",
    products: [
        // libStuckPlugin.so: the name the tests load.
        .library(name: "StuckPlugin", type: .dynamic, targets: ["StuckPlugin"])
    ],
    dependencies: [
        .package(path: "\(debugsh)/DebugShellCore")
    ],
    targets: [
        .target(
            name: "StuckPlugin",
            dependencies: [.product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
