#if canImport(Glibc)
import Glibc
#endif
import Testing
import _TestSupport

/// The package's shape, checked as swift-argument-parser checks its declarations: every
/// `import` in `Sources` is a dependency the module declares in Package.swift; the layers of
/// docs/architecture.md are exactly Package.swift's dependencies; no source file is long.
@Suite("The layering")
struct LayeringTests {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// What any module may import: the system's and the toolchain's own.
    static let systemModules: Set<String> = ["Glibc", "Darwin", "Musl", "Synchronization", "Dispatch", "Testing", "XCTest"]

    @Test func everyImportIsADeclaredDependency() throws {
        let declared = try Self.packageDependencies()
        var problems: [String] = []
        for (target, folder) in Self.swiftTargets(declared: declared) {
            let allowed = declared[target, default: []].union(Self.systemModules)
            for file in Self.swiftFiles(in: folder) {
                for module in Self.imports(in: file) where !allowed.contains(module) {
                    problems.append("\(file.dropFirst(Self.root.count + 1)) imports \(module), which \(target) does not declare")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theArchitecturePagesLayersAreThePackagesDependencies() throws {
        let declared = try Self.packageDependencies()
        let documented = try Self.documentedLayers()
        #expect(!documented.isEmpty, "docs/architecture.md has a `<!-- layers -->` block")
        for (module, uses) in documented.sorted(by: { $0.key < $1.key }) {
            #expect(declared[module] == uses, "\(module): the page says \(uses.sorted()), Package.swift says \(declared[module]?.sorted() ?? [])")
        }
        let sourceModules = Set(Self.swiftTargets(declared: declared).map(\.0).filter { !$0.hasSuffix("Tests") })
            .subtracting(["tasks"])
            .filter { Self.isSourcesTarget($0) }
        #expect(sourceModules.subtracting(documented.keys).isEmpty, "every module under Sources is on the page: missing \(sourceModules.subtracting(documented.keys).sorted())")
    }

    /// The drawing above the layers names every module of the program, and each arrow it draws
    /// from a module (`A ─▶ B, C`, `A ─┬─▶ B`) is a dependency Package.swift declares; an arrow
    /// that starts a branch (`├─▶`, `└─▶`) belongs to the module above it and is not read.
    @Test func theDiagramDrawsThePackage() throws {
        let declared = try Self.packageDependencies()
        let text = String(decoding: readBytes(Self.root + "/docs/architecture.md"), as: UTF8.self)
        guard let heading = text.firstRange(of: "## The modules, and which way they lean"),
              let open = text[heading.upperBound...].firstRange(of: "```\n"),
              let close = text[open.upperBound...].firstRange(of: "```") else {
            Issue.record("docs/architecture.md has a diagram under 'The modules, and which way they lean'")
            return
        }
        let diagram = text[open.upperBound..<close.lowerBound]
        var drawn: Set<String> = []
        var wrong: [String] = []
        for line in diagram.split(separator: "\n") {
            let tokens = line.split(separator: " ").map(String.init)
            for (index, token) in tokens.enumerated() where token.contains("▶") {
                var targets: [String] = []
                var next = index + 1
                while next < tokens.count {
                    let word = tokens[next].filter { $0 != "," }
                    guard declared[word] != nil else { break }
                    targets.append(word)
                    if !tokens[next].hasSuffix(",") { break }
                    next += 1
                }
                drawn.formUnion(targets)
                guard !token.hasPrefix("├") && !token.hasPrefix("└"), index > 0, declared[tokens[index - 1]] != nil else { continue }
                let source = tokens[index - 1]
                drawn.insert(source)
                for target in targets where !(declared[source]?.contains(target) ?? false) { wrong.append("\(source) ─▶ \(target)") }
            }
        }
        #expect(wrong.isEmpty, "arrows the package does not declare: \(wrong)")
        let program = try Self.documentedLayers().keys.filter { !$0.hasPrefix("_") }
        #expect(Set(program).subtracting(drawn).isEmpty, "modules the diagram leaves out: \(Set(program).subtracting(drawn).sorted())")
    }

    @Test func noSourceFileIsLongerThanFourHundredLines() {
        var long: [String] = []
        for file in Self.swiftFiles(in: Self.root + "/Sources") {
            let lines = readBytes(file).split(separator: 0x0A, omittingEmptySubsequences: false).count - 1
            if lines > 400 { long.append("\(file.dropFirst(Self.root.count + 1)): \(lines) lines") }
        }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
    }

    /// Issue 52: a date field is named where the recipe in docs/map.md says — the task, its
    /// entry in the field table, its migration, our JSON, Taskwarrior's and the VTODO mapping —
    /// and nowhere else: the query language, the reports, `add` and the completions read the
    /// table. Comments and the words people read (help, descriptions) do not count; SQL does.
    /// Nor do Taskwarrior's colour rules' names (`color.scheduled`, a key of its configuration
    /// that stands for `+SCHEDULED`; a new date field adds no rule).
    @Test func aDateFieldIsNamedInTheRecipesSixFilesOnly() {
        var naming: [String] = []
        let colourRuleNames = ["QueryLanguage/ColorRules.swift", "TaskCLI/Configuration+Colors.swift"]
        for file in Self.swiftFiles(in: Self.root + "/Sources") where Self.namesInCode(file, "scheduled")
            && !colourRuleNames.contains(where: { file.hasSuffix("/Sources/" + $0) }) {
            naming.append(String(file.dropFirst(Self.root.count + "/Sources/".count)))
        }
        #expect(naming.sorted() == ["TaskInterchange/TaskJSON.swift", "TaskInterchange/Taskwarrior.swift", "TaskModel/Task.swift",
                                    "TaskModel/TaskFields.swift", "TaskRemote/VTodoMapping.swift", "TaskStore/TaskSchema.swift"])
    }

    /// Whether `word` is in `file` outside comments and prose: a multi-line string counts only
    /// when it is SQL (`execute(`, `run(`, `query(` opens it), a one-line string not when it is
    /// a `description:`.
    static func namesInCode(_ file: String, _ word: String) -> Bool {
        var inString = false, stringIsSQL = false
        for raw in String(decoding: readBytes(file), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.drop { $0 == " " }
            let quotes = raw.components(of: "\"\"\"")
            if inString {
                if quotes > 0 { inString = false }
                if stringIsSQL, Self.containsWord(line, word) { return true }
                continue
            }
            if line.hasPrefix("//") { continue }
            if quotes == 1 {
                inString = true
                stringIsSQL = raw.contains("execute(") || raw.contains("run(") || raw.contains("query(")
            }
            let code = raw.contains("description: \"") ? Substring(raw.prefix { $0 != "\"" }) : raw
            if Self.containsWord(code, word) { return true }
        }
        return false
    }

    static func containsWord(_ line: Substring, _ word: String) -> Bool {
        var rest = line[...]
        while let range = rest.firstRange(of: word) {
            let before = rest[..<range.lowerBound].last, after = rest[range.upperBound...].first
            let isPart = { (c: Character?) in c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
            if !isPart(before), !isPart(after) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// One use of the concurrency runtime (a `ContinuousClock`, an `await`, Dispatch) links it
    /// and libdispatch into the statically linked `tasks`, and their start-up code then runs
    /// before every command: 0.2–0.3 ms of a 0.7 ms `tasks --version` (docs/benchmark-notes.md,
    /// "Start-up without the concurrency runtime"). ReactorCore's `MonotonicInstant` tells time.
    @Test func theTasksProgramLinksNoConcurrencyRuntime() throws {
        let declared = try Self.packageDependencies()
        var linked: Set<String> = []
        var next = ["tasks"]
        while let target = next.popLast() {
            guard linked.insert(target).inserted else { continue }
            next += declared[target, default: []]
        }
        let names = ["ContinuousClock", "SuspendingClock", "import Dispatch", "DispatchQueue", "await ", "async ", "async{",
                     "Task.sleep", "Task.detached", "AsyncStream", "AsyncSequence", "withCheckedContinuation", "withTaskGroup", "@MainActor"]
        var uses: [String] = []
        for target in linked.sorted() where Self.isSourcesTarget(target) {
            for file in Self.swiftFiles(in: "\(Self.root)/Sources/\(target)") {
                let code = String(decoding: readBytes(file), as: UTF8.self).split(separator: "\n")
                    .map { (line: Substring) -> Substring in
                        guard let comment = line.firstRange(of: "//") else { return line }
                        return line[..<comment.lowerBound]
                    }
                for (number, line) in code.enumerated() {
                    for name in names where Self.mentions(line, name) {
                        uses.append("\(file.dropFirst(Self.root.count + 1)):\(number + 1): \(name)")
                    }
                }
            }
        }
        #expect(linked.contains("TaskCLI") && linked.contains("ReactorCore"), "the closure of tasks's dependencies: \(linked.sorted())")
        #expect(uses.isEmpty, "\(uses.joined(separator: "\n"))")
    }

    /// Whether `line` holds `name` not as the end of a longer word (`cursorTask {` is not `Task {`).
    static func mentions(_ line: Substring, _ name: String) -> Bool {
        var rest = line[...]
        while let range = rest.firstRange(of: name) {
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            if !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false) { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    // MARK: - Reading the package

    /// Each target's declared dependencies, by name, from Package.swift.
    static func packageDependencies() throws -> [String: Set<String>] {
        let text = String(decoding: readBytes(root + "/Package.swift"), as: UTF8.self)
        var result: [String: Set<String>] = [:]
        var rest = Substring(text)
        while let start = rest.firstRange(of: "(name: \"") {
            rest = rest[start.upperBound...]
            guard let nameEnd = rest.firstIndex(of: "\"") else { break }
            let name = String(rest[..<nameEnd])
            // The target's own text runs to the next target's name.
            let end = rest.firstRange(of: "(name: \"")?.lowerBound ?? rest.endIndex
            let body = rest[nameEnd..<end]
            var dependencies: Set<String> = []
            if let list = body.firstRange(of: "dependencies: [") {
                let inside = body[list.upperBound...].prefix { $0 != "]" }
                for part in inside.split(separator: "\"", omittingEmptySubsequences: false).enumerated() where part.offset % 2 == 1 { dependencies.insert(String(part.element)) }
            }
            result[name] = dependencies
        }
        return result
    }

    /// The targets with Swift sources, and their folders.
    static func swiftTargets(declared: [String: Set<String>]) -> [(String, String)] {
        var targets: [(String, String)] = []
        for name in declared.keys {
            for folder in ["Sources", "Tests", "Benchmarks", "Fuzz"] {
                let path = "\(root)/\(folder)/\(name)"
                if isDirectory(path) { targets.append((name, path)) }
            }
        }
        let renamed: [String: String] = [
            "reactorcore-benchmark": "Benchmarks/ReactorCoreBenchmark", "taskstore-benchmark": "Benchmarks/TaskStoreBenchmark",
            "taskstore-writer": "Benchmarks/TaskStoreWriter", "fuzz-commandline": "Fuzz/FuzzCommandLine", "fuzz-input": "Fuzz/FuzzInput",
            "BenchmarkSupport": "Benchmarks/BenchmarkSupport", "FuzzDriver": "Fuzz/FuzzDriver",
        ]
        for (name, folder) in renamed where declared[name] != nil { targets.append((name, "\(root)/\(folder)")) }
        return targets
    }

    static func isSourcesTarget(_ name: String) -> Bool { isDirectory("\(root)/Sources/\(name)") && !swiftFiles(in: "\(root)/Sources/\(name)").isEmpty }

    /// The `<!-- layers -->` block of docs/architecture.md: `Module → Dependency, Dependency`.
    static func documentedLayers() throws -> [String: Set<String>] {
        let text = String(decoding: readBytes(root + "/docs/architecture.md"), as: UTF8.self)
        guard let start = text.firstRange(of: "<!-- layers -->"), let end = text.firstRange(of: "<!-- /layers -->") else { return [:] }
        var layers: [String: Set<String>] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let parts = line.split(separator: "→", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let module = parts[0].trimmingCharacters(in: " `-")
            let uses = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: " `") }.filter { !$0.isEmpty && $0 != "nothing" }
            layers[module] = Set(uses)
        }
        return layers
    }

    static func imports(in file: String) -> [String] {
        let text = String(decoding: readBytes(file), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            var words = line.split(separator: " ")
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            guard words.count == 2, words[0] == "import" else { return nil }
            return String(words[1])
        }
    }

    static func swiftFiles(in folder: String) -> [String] {
        var found: [String] = []
        for entry in directoryEntries(folder) {
            let path = "\(folder)/\(entry)"
            if isDirectory(path) { found += swiftFiles(in: path) } else if entry.hasSuffix(".swift") { found.append(path) }
        }
        return found
    }
}

extension Substring {
    /// How many times `part` occurs, not overlapping.
    func components(of part: String) -> Int {
        var count = 0, rest = self[...]
        while let range = rest.firstRange(of: part) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }

    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
