import _TestSupport
import Testing

/// Issue 24: the docs' examples are run, not trusted. `docs/cli.md`'s `console` blocks run
/// in-process on a fresh database with the harness's fixed clock, each `$ ` line compared with
/// what follows it; the README's "Using it" block runs through the binary in a shell, each line
/// exiting 0, with what its comments promise checked.
@Suite("The docs' examples do what the text says")
struct DocsExamplesTests {
    struct Example: CustomStringConvertible {
        var command: String
        var expected: String
        var terminal: Bool
        var description: String { "$ " + command }
    }

    /// The `console` blocks of `text`, each a fresh session.
    static func sessions(in text: String) -> [[Example]] {
        var sessions: [[Example]] = []
        var current: [Example]?
        var terminal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.hasPrefix("```console") {
                current = []
                terminal = line.contains("terminal")
            } else if current != nil, line == "```" {
                sessions.append(current ?? [])
                current = nil
            } else if current != nil {
                if line.hasPrefix("$ ") {
                    current?.append(Example(command: String(line.dropFirst(2)), expected: "", terminal: terminal))
                } else if let last = current?.indices.last {
                    current?[last].expected += line + "\n"
                }
            }
        }
        return sessions
    }

    /// Shell words: spaces split, single and double quotes group (no escapes inside).
    static func words(_ command: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, inWord = false
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    static let cliDoc = String(decoding: readBytes(fixturesFolder() + "/../docs/cli.md"), as: UTF8.self)

    @Test func docsCliHasExamplesToRun() {
        #expect(Self.sessions(in: Self.cliDoc).map(\.count).reduce(0, +) >= 10)
    }

    @Test(arguments: sessions(in: cliDoc).indices)
    func docsCliExamplesPrintWhatTheySay(session: Int) {
        let cli = CLI()
        for example in Self.sessions(in: Self.cliDoc)[session] {
            // `A | B`: A's stdout is B's stdin.
            var stdin: [UInt8] = []
            var output = ""
            let parts = example.command.split(separator: "|")
            for (index, part) in parts.enumerated() {
                let words = Self.words(String(part))
                #expect(words.first == "tasks", "\(example): only tasks commands run here")
                let result = cli.run(Array(words.dropFirst()), stdin: stdin, terminal: example.terminal)
                stdin = Array(result.stdout.utf8)
                output = result.stdout + result.stderr
                // What a pipe's earlier commands say on stderr is not shown after the line: none.
                if index < parts.count - 1 { #expect(result.stderr.isEmpty, "\(example): \(result.stderr)") }
            }
            #expect(output == example.expected, "\(example)")
        }
    }

    /// The README's "Using it" block, line by line, through the binary. Lines that need what a
    /// test cannot give (a screen, a PostgreSQL server at example.com, a manual pager, an
    /// interactive shell) are named here and left out.
    @Test(.enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
    func readmeExamplesRun() throws {
        let readme = String(decoding: readBytes(fixturesFolder() + "/../README.md"), as: UTF8.self)
        guard let start = readme.firstRange(of: "## Using it\n\n```sh\n"), let end = readme[start.upperBound...].firstRange(of: "```") else {
            Issue.record("README.md has no 'Using it' block")
            return
        }
        let lines = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
        let needsMore = ["alias ", "tasks ui", "man ", "tasks sync", "source <("]
        let runnable = lines.filter { line in !needsMore.contains { line.hasPrefix($0) } }
        #expect(lines.count - runnable.count == needsMore.count, "each line left out is one of \(needsMore)")
        let folder = TemporaryFolder()
        var script = """
            export HOME='\(folder.path)' TASKRC='\(folder.file("taskrc"))' TASKDATA='\(folder.file("task"))'
            printf 'data.location=%s\\nconfirmation=off\\nverbose=nothing\\n' "$TASKDATA" > "$TASKRC"
            task add 'From Taskwarrior' >/dev/null 2>&1
            printf '(A) From todo.txt +Home\\n' > ~/todo.txt

            """
        for (index, line) in runnable.enumerated() {
            script += "{ \(line)\n} > out\(index).txt 2>&1; echo \"\(index) $?\"\n"
        }
        script += "tasks export > again.json && tasks --db other.db import tasks.json 2>&1; tasks --db other.db export | cmp - tasks.json && echo lossless\n"
        let result = try tasksShell(script, in: folder)
        let statuses = result.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(statuses.count == runnable.count, "\(result)")
        for (index, line) in runnable.enumerated() {
            #expect(statuses.contains { $0 == "\(index) 0" }, "README line exits 0: \(line)\n\(result)")
        }
        #expect(result.stdout.contains("Imported 5 tasks from 'tasks.json': 0 new, 0 updated, 5 unchanged."), "again changes nothing\n\(result)")
        #expect(result.stdout.hasSuffix("lossless\n"), "\(result)")
        let showLine = runnable.firstIndex { $0.hasPrefix("tasks move") } ?? 0
        let shown = String(decoding: readBytes(folder.file("out\(showLine).txt")), as: UTF8.self)
        #expect(shown.contains("title\tWrite report\nlist\tWork\n") && shown.contains("notes\tdue Friday\n"), "\(shown)")
    }
}
