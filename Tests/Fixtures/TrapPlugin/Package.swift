// swift-tools-version:6.2
import PackageDescription

// A plugin that traps where it is told to (DEBUGSH_TEST_TRAP), for the tests of what survives a
// plugin's trap (Tests/EndToEndTests/TrapTests.swift). Built against the checkout DEBUGSH_ROOT names.
let debugsh = Context.environment["DEBUGSH_ROOT"] ?? "../../.."

let package = Package(
    name: "TrapPlugin",
    products: [.library(name: "TrapPlugin", type: .dynamic, targets: ["TrapPlugin"])],
    dependencies: [.package(path: "\(debugsh)/DebugShellCore")],
    targets: [
        .target(
            name: "TrapPlugin",
            dependencies: [.product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")])
    ]
)
