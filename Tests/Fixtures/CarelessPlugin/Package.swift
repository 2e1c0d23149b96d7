// swift-tools-version:6.2
import PackageDescription

// A deliberately careless debugsh plugin: a test fixture, not an example to follow. Its tool
// misbehaves on demand — events in another tool's name or in the future, settings that are not
// its own or of the wrong type, text full of control characters, metrics of the wrong type or
// with no value, names it never declared — so that the end-to-end tests can check that the host
// refuses each (docs/Plugins.md, "What the host checks"). DebugShellTesting's `CarelessPlugin`
// copies this folder to a temporary one and builds it there, once per test run, against the
// checkout DEBUGSH_ROOT names (else this repository, three folders up).
let debugsh = Context.environment["DEBUGSH_ROOT"] ?? "../../.."

let package = Package(
    name: "CarelessPlugin",
    products: [
        // libCarelessPlugin.so: the name the tests load.
        .library(name: "CarelessPlugin", type: .dynamic, targets: ["CarelessPlugin"])
    ],
    dependencies: [
        .package(path: "\(debugsh)/DebugShellCore")
    ],
    targets: [
        .target(
            name: "CarelessPlugin",
            dependencies: [.product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
