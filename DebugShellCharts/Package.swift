// swift-tools-version:6.2
import PackageDescription

/// debugsh's chart renderers, for tools that plot: the chart model (`Chart`, panels, series) and
/// its two renderers, a standalone SVG and text for a terminal.
///
/// A normal library product, not a dynamic one: it holds only value types and pure functions —
/// no protocol the shell casts to, no state — so each binary that plots (the shell, a plugin) may
/// carry its own copy. It is a package of its own, beside DebugShellCore rather than inside it,
/// because it depends on the plugin API: within one package that dependency would link
/// DebugShellCore's code statically into every binary that plots, a second copy beside the
/// dynamic library the shell and its plugins share. Across packages it names the dynamic product.
/// Depend on it by path: `.package(path: "<debugsh checkout>/DebugShellCharts")`.
let package = Package(
    name: "DebugShellCharts",
    products: [
        .library(name: "DebugShellCharts", targets: ["DebugShellCharts"])
    ],
    dependencies: [.package(path: "../DebugShellCore")],
    targets: [
        .target(
            name: "DebugShellCharts",
            dependencies: [.product(name: "DebugShellCore", package: "DebugShellCore")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .treatAllWarnings(as: .error)],
            // Rounding a Double (`rounded()`) calls the C library's floor, ceil, round…: the
            // library names libm itself, so that any program that plots links against it.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))])
    ]
)
