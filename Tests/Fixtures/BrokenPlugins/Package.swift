// swift-tools-version:6.2
import PackageDescription

// Broken debugsh plugins: a test fixture, not an example to follow. One library, the plugin
// `broken`, that traps in each place of a plugin's code the shell does not call through a tool's
// methods (docs/Plugins.md, "When a plugin traps", "Which calls are wrapped"): its initializers as
// the dynamic linker loads it, its two entry points and a tool's descriptor — where
// `DEBUGSH_TEST_BROKEN` says (`initializer`, `version`, `manifest`, `descriptor`), since a
// library has one set of entry points — and, one tool each, `isSaying(_:)`, a streamed output's
// text and JSON, a command's JSON result, a `deinit` at `reset` and a thread of its own.
// Tests/EndToEndTests/BrokenPluginTests.swift builds it once per test run (DebugShellTesting's
// `BrokenPlugins`) in a temporary folder, against the checkout DEBUGSH_ROOT names (else this
// repository, three folders up).
let debugsh = Context.environment["DEBUGSH_ROOT"] ?? "../../.."

let package = Package(
    name: "BrokenPlugins",
    products: [
        // libBrokenPlugins.so: the name the tests load.
        .library(name: "BrokenPlugins", type: .dynamic, targets: ["BrokenPlugins"])
    ],
    dependencies: [
        .package(path: "\(debugsh)/DebugShellCore")
    ],
    targets: [
        // A C initializer the dynamic linker runs as it loads the library.
        .target(name: "BrokenLoader"),
        .target(
            name: "BrokenPlugins",
            dependencies: ["BrokenLoader", .product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ]
)
