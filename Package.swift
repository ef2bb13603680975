// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tasks",
    products: [
        .library(name: "ReactorCore", targets: ["ReactorCore"]),
    ],
    targets: [
        // The reactive core: Observable, schedulers, Reactor, Pulse, Stub, View. No Foundation.
        .target(name: "ReactorCore"),
        .testTarget(name: "ReactorCoreTests", dependencies: ["ReactorCore"]),

        // `swift run -c release reactorcore-benchmark`: ns per action beside a plain loop.
        .executableTarget(
            name: "reactorcore-benchmark",
            dependencies: ["ReactorCore"],
            path: "Benchmarks/ReactorCoreBenchmark"
        ),
    ],
    swiftLanguageModes: [.v6]
)
