// swift-tools-version:6.2
import PackageDescription

/// debugsh's plugin API: everything a tool sees of the shell and the simulated device.
///
/// Its own package with one dynamic library product, so that the shell, its built-in tools and
/// tools built outside the repository (`plugin load`) all use one copy of it in a process: a
/// tool's types conform to the very `DebugTool` protocol the shell casts to. Depend on it by
/// path: `.package(path: "<debugsh checkout>/DebugShellCore")`.
let package = Package(
    name: "DebugShellCore",
    products: [
        .library(name: "DebugShellCore", type: .dynamic, targets: ["DebugShellCore"])
    ],
    targets: [
        .target(
            name: "DebugShellCore",
            dependencies: ["CDebugShellHints"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .treatAllWarnings(as: .error)],
            // Rounding a Double (`rounded()`, in RGB.hue) calls the C library's floor, ceil, round…:
            // the library names libm itself, so that any program links against it, not only those
            // that pull libm in another way.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // A cache prefetch hint, which Swift lacks: one line of C behind `MemoryHint.prefetch`,
        // header-only, so it is compiled into the tools that call it.
        .target(name: "CDebugShellHints"),
    ]
)
