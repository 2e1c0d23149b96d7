// swift-tools-version:5.9
import PackageDescription

// The bare event-loop floor of the benchmark comparison, and the seed's layout snapshot in Swift:
// measuring sticks for Benchmarks/compare.py and layout_scale.py, not part of debugsh. A package
// of its own so that it builds in release without the project (see Benchmarks/peers.py).
let package = Package(
    name: "debugsh-floor",
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .executableTarget(name: "simbench", dependencies: [
            .product(name: "HeapModule", package: "swift-collections"),
        ]),
        .executableTarget(name: "layoutbench"),
    ]
)
