// swift-tools-version:6.0
import PackageDescription

/// Generic operators and the reactor's storage must be specialized for the caller's types:
/// unspecialized generics spend most of an action looking up type metadata.
/// Exclusivity is checked in debug builds (and so by every test run); in release the core's
/// classes, guarded by their locks, skip the per-access runtime check.
let crossModule: [SwiftSetting] = [
    .unsafeFlags(["-cross-module-optimization"]),
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "tasks",
    products: [
        .executable(name: "tasks", targets: ["tasks"]),
        .library(name: "ReactorCore", targets: ["ReactorCore"]),
        .library(name: "TaskStore", targets: ["TaskStore"]),
    ],
    targets: [
        // The reactive core: Observable, schedulers, Reactor, Pulse, Stub, View. No Foundation.
        // Frees a reactor's storage with the reactor, for reactors that declare none (Linux has
        // no associated objects): a deallocation hook in the class's metadata. See InstanceTable.
        .target(name: "CReactorSupport"),
        .target(name: "ReactorCore", dependencies: ["CReactorSupport"], swiftSettings: crossModule),
        .testTarget(name: "ReactorCoreTests", dependencies: ["ReactorCore"]),

        // libsqlite3 from the system (Debian: libsqlite3-dev), and a small safe wrapper of it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLiteDB", dependencies: ["CSQLite"]),
        .testTarget(name: "SQLiteDBTests", dependencies: ["SQLiteDB", "TestSupport"]),

        // The task model and the TaskService protocol (no SQLite), and the service on SQLite.
        .target(name: "TaskKit", dependencies: ["ReactorCore"], swiftSettings: crossModule),
        .target(name: "TaskStore", dependencies: ["TaskKit", "SQLiteDB", "ReactorCore"]),
        .testTarget(name: "TaskKitTests", dependencies: ["TaskKit", "ReactorCore", "ReactorTesting"]),

        // The command tree as data: parsing, help, usage errors with "did you mean".
        .target(name: "CommandLineKit"),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "TestSupport"]),

        // Moving tasks in and out: our JSON, Taskwarrior's JSON, todo.txt (no Foundation).
        .target(name: "TaskInterchange", dependencies: ["TaskKit", "CommandLineKit"]),
        .testTarget(name: "TaskInterchangeTests", dependencies: ["TaskInterchange", "TaskKit", "TestSupport"]),

        // The `tasks` program: commands as reactor actions, views printing their state.
        .target(name: "TaskCLI", dependencies: ["CommandLineKit", "TaskKit", "TaskStore", "TaskInterchange", "SQLiteDB", "ReactorCore"]),
        // Linked with the Swift runtime inside: it starts in half the time (no search for a
        // dozen shared libraries), which is most of what a one-task command costs.
        .executableTarget(name: "tasks", dependencies: ["TaskCLI"], linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        .testTarget(name: "TaskCLITests", dependencies: ["TaskCLI", "TaskKit", "TaskStore", "CommandLineKit", "TestSupport"]),

        // libFuzzer targets (scripts/fuzz); built plainly they replay inputs.
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        .target(name: "FuzzDriver", dependencies: ["CFuzzerDriver"], path: "Fuzz/FuzzDriver"),
        .executableTarget(name: "fuzz-commandline", dependencies: ["TaskCLI", "FuzzDriver"], path: "Fuzz/FuzzCommandLine"),
        .executableTarget(name: "fuzz-input", dependencies: ["TaskCLI", "FuzzDriver"], path: "Fuzz/FuzzInput"),

        // Test support: TCA-style TestStore for reactors; temporary folders and files.
        .target(name: "ReactorTesting", dependencies: ["ReactorCore"]),
        .target(name: "TestSupport"),
        .testTarget(name: "TaskStoreTests", dependencies: ["TaskStore", "TaskKit", "SQLiteDB", "ReactorCore", "ReactorTesting", "TestSupport"]),

        // `swift run -c release reactorcore-benchmark`: ns per action beside a plain loop.
        .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport"),
        .executableTarget(
            name: "reactorcore-benchmark",
            dependencies: ["ReactorCore", "BenchmarkSupport"],
            path: "Benchmarks/ReactorCoreBenchmark"
        ),

        // `swift run -c release taskstore-benchmark`: the service beside the raw C API.
        .executableTarget(
            name: "taskstore-benchmark",
            dependencies: ["TaskStore", "TaskKit", "SQLiteDB", "CSQLite", "ReactorCore", "BenchmarkSupport"],
            path: "Benchmarks/TaskStoreBenchmark"
        ),

        // A helper for the multi-process test: one process adding tasks one transaction at a time.
        .executableTarget(name: "taskstore-writer", dependencies: ["TaskStore", "TaskKit", "BenchmarkSupport"], path: "Benchmarks/TaskStoreWriter"),
    ],
    swiftLanguageModes: [.v6]
)
