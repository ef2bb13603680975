// swift-tools-version:6.2
// 6.2: the first tools version at which a package whose targets carry unsafe flags (below)
// can be depended on by version from another package (swiftlang/swift-package-manager#8951),
// so that ReactorCore and TaskStore are usable as libraries.
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
        .executable(name: "tasks-postgres", targets: ["tasks-postgres"]),
        .executable(name: "tasks-caldav", targets: ["tasks-caldav"]),
        .library(name: "ReactorCore", targets: ["ReactorCore"]),
        .library(name: "ReactorKitCompat", targets: ["ReactorKitCompat"]),
        .library(name: "TaskStore", targets: ["TaskStore"]),
    ],
    targets: [
        // The layers, lowest first; each imports only what is above it here (Tests/StructureTests
        // checks every import against these lists, and docs/architecture.md's layers and diagram
        // against them).

        // Text as bytes: TSV/CSV/JSON writers, UTF-8 and lines, cells on a terminal. No model.
        .target(name: "TextFormats"),
        .testTarget(name: "TextFormatsTests", dependencies: ["TextFormats"]),

        // The reactive core: Observable, schedulers, Reactor, Pulse, Stub, View. No Foundation.
        // CReactorSupport frees a reactor's storage with the reactor (Linux has no associated
        // objects: a deallocation hook in the class's metadata) and tells the main thread.
        .target(name: "CReactorSupport"),
        .target(name: "ReactorCore", dependencies: ["CReactorSupport"], swiftSettings: crossModule),
        // ReactorKit's and RxSwift's surface the app never calls (time, several streams,
        // sharing, async, blocking, storage found per instance), over the core it re-exports:
        // what code written for ReactorKit imports, ReactorKit's own tests among it.
        // The main thread's run loop: poll(2) over descriptors, timers and queued work, and
        // RxSwift's `MainScheduler` on it — what `tasks ui` and the terminal run on.
        .target(name: "MainLoop", dependencies: ["ReactorCore", "CReactorSupport"], swiftSettings: crossModule),
        .target(name: "ReactorKitCompat", dependencies: ["ReactorCore", "MainLoop", "CReactorSupport"], swiftSettings: crossModule),
        .testTarget(name: "ReactorCoreTests", dependencies: ["ReactorKitCompat", "ReactorCore"]),

        // The task model: Task, its fields described once (and the words the query language
        // knows them by), events and errors, the field rules, dates, uuids, time. No storage, no
        // terminal, no query.
        .target(name: "TaskModel", dependencies: ["ReactorCore", "TextFormats"], swiftSettings: crossModule),
        .testTarget(name: "TaskModelTests", dependencies: ["TaskModel", "QueryLanguage"]),

        // libsqlite3 from the system (Debian: libsqlite3-dev), and a small safe wrapper of it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "SQLiteDB", dependencies: ["CSQLite"]),

        // The query language: the field vocabulary, filter words → tree → SQL and in-memory
        // evaluation, sort keys, the query, and the service protocol that takes it.
        .target(name: "QueryLanguage", dependencies: ["TaskModel", "SQLiteDB", "ReactorCore", "TextFormats"], swiftSettings: crossModule),

        // The reactors the commands and screens drive: list, editor, import.
        .target(name: "TaskReactors", dependencies: ["QueryLanguage", "TaskModel", "ReactorCore"], swiftSettings: crossModule),
        .testTarget(name: "TaskReactorsTests", dependencies: ["TaskReactors", "QueryLanguage", "TaskModel", "ReactorCore", "_ReactorTesting", "_TaskServiceFake", "_TestSupport"]),
        // A VFS for tests: I/O errors at the Nth call and power cuts at the Nth sync.
        .target(name: "CSQLiteFaults", dependencies: ["CSQLite"]),
        .testTarget(name: "SQLiteDBTests", dependencies: ["SQLiteDB", "_TestSupport"]),

        // TaskService on SQLite: the schema, filtering and ordering in SQL, all-or-nothing writes.
        .target(name: "TaskStore", dependencies: ["QueryLanguage", "TaskModel", "SQLiteDB", "ReactorCore", "TextFormats"]),
        .testTarget(name: "TaskStoreTests", dependencies: ["TaskStore", "CSQLiteFaults", "QueryLanguage", "TaskModel", "TaskReactors", "SQLiteDB", "ReactorCore", "_ReactorTesting", "_TestSupport"]),

        // Moving tasks in and out: our JSON, Taskwarrior's JSON, todo.txt, CSV (no Foundation).
        .target(name: "TaskInterchange", dependencies: ["TaskModel", "TextFormats"]),
        .testTarget(name: "TaskInterchangeTests", dependencies: ["TaskInterchange", "TaskModel", "TextFormats", "_TestSupport"]),

        // `tasks sync`'s remote: the lines tasks and its helper speak (SyncWire), the helper
        // that alone links libpq (tasks-postgres: libpq cannot link statically, and tasks must
        // start without loading it), and the client tasks uses to run it (TaskRemote).
        .target(name: "SyncWire", dependencies: ["TextFormats"]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .executableTarget(name: "tasks-postgres", dependencies: ["CLibPQ", "SyncWire", "TextFormats"]),
        // libcurl (Debian: libcurl4-openssl-dev) in the CalDAV helper alone, for the same reason.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .executableTarget(name: "tasks-caldav", dependencies: ["CCurl", "SyncWire", "TextFormats"]),
        .target(name: "TaskRemote", dependencies: ["SyncWire", "TaskModel", "TaskInterchange", "TextFormats"]),
        .testTarget(name: "TaskRemoteTests", dependencies: ["TaskRemote", "TaskModel", "_TestSupport"]),

        // A full-screen terminal that knows nothing of tasks: raw mode, keys, signals, a cell
        // buffer and a renderer that writes only what changed. CTerminalSupport holds what
        // Swift cannot do safely (a signal handler) or import (termios and ioctl macros).
        .target(name: "CTerminalSupport"),
        .target(name: "TerminalKit", dependencies: ["CTerminalSupport", "MainLoop", "ReactorCore", "TextFormats"]),
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit", "TextFormats", "_TestSupport"]),

        // `tasks ui`: the list and editor screens as Views of the same reactors, on one run loop.
        .target(name: "TaskUI", dependencies: ["TerminalKit", "MainLoop", "TaskReactors", "QueryLanguage", "TaskModel", "ReactorCore", "TextFormats"]),
        .testTarget(name: "TaskUITests", dependencies: ["TaskUI", "TerminalKit", "MainLoop", "TextFormats", "TaskReactors", "QueryLanguage", "TaskModel", "ReactorCore", "_TestSupport", "_TaskServiceFake"]),

        // The command tree as data: parsing, help, usage errors with "did you mean", completion
        // scripts, the manual page, terminal facts.
        .target(name: "CommandLineKit", dependencies: ["TextFormats"]),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "TextFormats", "_TestSupport"]),

        // The `tasks` program: commands as reactor actions, views printing their state.
        .target(name: "TaskCLI", dependencies: ["CommandLineKit", "TextFormats", "QueryLanguage", "TaskModel", "TaskReactors", "TaskStore", "TaskInterchange", "ReactorCore",
                                                "TaskUI", "TerminalKit", "MainLoop", "TaskRemote", "SyncWire"]),
        // One static executable (the Swift runtime, glibc and libsqlite3.a inside): no dynamic
        // loader at start-up, which is most of what a one-task command costs (1.2 ms against
        // 2.6 ms with only -static-stdlib). It needs no NSS, dlopen or locale data at run time.
        .executableTarget(name: "tasks", dependencies: ["TaskCLI"], linkerSettings: [.unsafeFlags(["-static-executable"])]),
        .testTarget(name: "TaskCLITests", dependencies: ["TaskCLI", "TaskRemote", "SyncWire", "QueryLanguage", "TaskModel", "TaskStore", "TaskInterchange", "SQLiteDB", "CommandLineKit", "TextFormats", "_TestSupport"]),

        // The layering itself: imports against Package.swift and docs/architecture.md, file sizes.
        .testTarget(name: "StructureTests", dependencies: ["_TestSupport"]),

        // libFuzzer targets (scripts/fuzz); built plainly they replay inputs.
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        .target(name: "FuzzDriver", dependencies: ["CFuzzerDriver"], path: "Fuzz/FuzzDriver"),
        .executableTarget(name: "fuzz-commandline", dependencies: ["TaskCLI", "FuzzDriver"], path: "Fuzz/FuzzCommandLine"),
        .executableTarget(name: "fuzz-input", dependencies: ["TaskCLI", "FuzzDriver"], path: "Fuzz/FuzzInput"),

        // Test support: TCA-style TestStore for reactors; temporary folders and files; an
        // in-memory TaskService with the store's rules (test-only: its name starts with `_`).
        .target(name: "_ReactorTesting", dependencies: ["ReactorCore"]),
        .target(name: "_TaskServiceFake", dependencies: ["QueryLanguage", "TaskModel", "TaskReactors", "ReactorCore"]),
        .target(name: "_TestSupport"),

        // `swift run -c release reactorcore-benchmark`: ns per action beside a plain loop.
        .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport"),
        .executableTarget(
            name: "reactorcore-benchmark",
            dependencies: ["ReactorCore", "ReactorKitCompat", "BenchmarkSupport"],
            path: "Benchmarks/ReactorCoreBenchmark"
        ),

        // `swift run -c release taskstore-benchmark`: the service beside the raw C API.
        .executableTarget(
            name: "taskstore-benchmark",
            dependencies: ["TaskStore", "QueryLanguage", "TaskModel", "TaskReactors", "SQLiteDB", "CSQLite", "ReactorCore", "ReactorKitCompat", "BenchmarkSupport"],
            path: "Benchmarks/TaskStoreBenchmark"
        ),

        // A helper for the multi-process test: one process adding tasks one transaction at a time.
        .executableTarget(name: "taskstore-writer", dependencies: ["TaskStore", "QueryLanguage", "TaskModel", "ReactorCore", "ReactorKitCompat", "BenchmarkSupport"], path: "Benchmarks/TaskStoreWriter"),
    ],
    swiftLanguageModes: [.v6]
)

/// Concrete generic types (`[Task]`, `Set<Int64>`, `Observable<Mutation>`) reached through their
/// metadata accessors instead of by mangled name: a mangled name is demangled and its generic
/// requirements checked against every conformance record the first time each is used, which
/// was a fifth of a one-task command's instructions in the static binary (callgrind: `tasks
/// toggle 7` 3.78 M → 2.96 M instructions; the sqlite3 shell's UPDATE: 3.26 M).
let metadataByAccessor: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]
/// Every Swift target; the C ones are named C and a capital (`CSQLite`, `CReactorSupport`).
func isC(_ target: Target) -> Bool { target.name.hasPrefix("C") && target.name.dropFirst().first?.isUppercase == true }
for target in package.targets where target.type != .system && !isC(target) {
    target.swiftSettings = (target.swiftSettings ?? []) + metadataByAccessor
}
