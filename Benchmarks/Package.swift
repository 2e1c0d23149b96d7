// swift-tools-version:6.1
import PackageDescription

// The benchmarks live in their own package so that `swift test` in the project stays fast
// (README, Performance). ordo-one's package-benchmark needs tools 6.1 and the MallocInterposer
// trait here. The peer models are beside it: Peers/ (Python) and Floor/ (a Swift package).
let package = Package(
    name: "debugsh-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "debugsh", path: ".."),
        .package(path: "../DebugShellCore"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The peer workload (Peers/simmodel.py) through debugsh's plugin API; prints one
        // JSON line like the peers do, for Benchmarks/compare.
        .target(
            name: "EngineWorkload",
            dependencies: [
                .product(name: "DebugShellEngine", package: "debugsh"),
                .product(name: "DebugShellCore", package: "DebugShellCore"),
            ],
            path: "Sources/EngineWorkload"),
        .executableTarget(name: "enginebench", dependencies: ["EngineWorkload"], path: "Sources/enginebench"),
        // debugsh's xctrace reader alone (`import xctrace` without the session), for
        // Benchmarks/xctrace_import.py. DebugShellImport is a module of the DebugShell product.
        .executableTarget(
            name: "xctracebench", dependencies: [.product(name: "DebugShell", package: "debugsh")],
            path: "Sources/xctracebench"),
        .executableTarget(
            name: "EngineBenchmark",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "EngineWorkload",
            ],
            path: "Benchmarks/EngineBenchmark",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
