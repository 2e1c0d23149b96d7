// swift-tools-version:6.2
import PackageDescription

/// debugsh's plugin API: everything a tool sees of the shell and the simulated device.
///
/// Its own package with one dynamic library product, so that the shell, its built-in tools and
/// tools built outside the repository (`plugin load`) all use one copy of it in a process: a
/// tool's types conform to the very `DebugTool` protocol the shell casts to. Depend on it by
/// path: `.package(path: "<debugsh checkout>/DebugShellCore")`.
/// Settings of the package's Swift targets: Swift 6 mode, explicit existentials, no warnings.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .treatAllWarnings(as: .error)]

let package = Package(
    name: "DebugShellCore",
    products: [
        .library(name: "DebugShellCore", type: .dynamic, targets: ["DebugShellCore"]),
        // The fingerprint's hash, for debugsh's tests (the generated fingerprint is the hash of
        // the sources; comments do not change it). Plugins need not depend on it.
        .library(name: "DebugShellCoreFingerprint", targets: ["DebugShellCoreFingerprint"]),
    ],
    targets: [
        .target(
            name: "DebugShellCore",
            dependencies: ["CDebugShellHints"],
            swiftSettings: strict,
            // Rounding a Double (`rounded()`, in RGB.hue) calls the C library's floor, ceil, round…:
            // the library names libm itself, so that any program links against it, not only those
            // that pull libm in another way.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))],
            // `DebugShellPlugin.interfaceFingerprint`, generated from this target's sources at
            // every build: what the shell compares to refuse a plugin built against other sources.
            plugins: ["DebugShellCoreFingerprintPlugin"]),
        // A cache prefetch hint, which Swift lacks: one line of C behind `MemoryHint.prefetch`,
        // header-only, so it is compiled into the tools that call it.
        .target(name: "CDebugShellHints"),
        // The build identity (docs/Plugins.md): the hash, the tool that writes it into a Swift
        // file (or prints a checkout's fingerprint), and the build-tool plugin that runs the tool.
        .target(name: "DebugShellCoreFingerprint", swiftSettings: strict),
        .executableTarget(
            name: "debugshcore-fingerprint", dependencies: ["DebugShellCoreFingerprint"], swiftSettings: strict),
        .plugin(
            name: "DebugShellCoreFingerprintPlugin", capability: .buildTool(),
            dependencies: ["debugshcore-fingerprint"]),
    ]
)
