#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
@testable import TaskCLI
import _TestSupport
import Testing

/// Issue 24's classes, closed for the whole command tree rather than one option at a time: the
/// tree is walked (`TasksSpec.root`), and every command gets every option and argument with
/// each kind of value a user or a script can type by mistake. A trap would end the test
/// process; a status outside the contract, or a file changed by a command that failed, is
/// recorded with the words that made it.
@Suite("Every command × every option × bad values")
struct CommandSweepTests {
    /// What a user can type where a value goes.
    static let values: [String] = [
        "", " ", "0", "-1", "1", "9223372036854775807", "9223372036854775808", "18446744073709551616",
        "1234567890123456789012345678901234567890", "+9999999d", "a\u{0}b", "\u{FFFD}\u{1B}[31m", "=", "-",
        String(repeating: "x", count: 1 << 20),
    ]

    /// A database with a few tasks (one repeating, one done), written once; each run starts from
    /// a copy of its bytes.
    static let seeded: [UInt8] = {
        let cli = CLI()
        cli.run("add", "Buy milk", "-t", "shop", "--due", "2026-12-01", "-p", "H")
        cli.run("add", "Pay rent", "--every", "month", "--due", "2026-11-30")
        cli.run("add", "Call mom", "-l", "Home", "--notes", "about Sunday")
        cli.run("done", "2")
        return cli.snapshot()
    }()

    /// Statuses a command may end with here: 0 or 2 (the command line is wrong); 1 where the
    /// value names something that cannot be had (a file, a task, a remote).
    static func allowed(_ words: [String]) -> Set<Int32> {
        let command = words.first ?? ""
        if ["sync", "import", "show", "edit", "move", "toggle", "done", "reopen", "delete", "undelete", "purge", "undo", "redo",
            "append", "prepend", "duplicate", "start", "stop", "annotate", "denotate"].contains(command)
            || words.contains("--db") || words.contains(where: { $0.hasPrefix("--db=") })
            // A dependency or a parent names a task, which may not be there.
            || words.contains(where: { $0.hasPrefix("--blocked-by") || $0.hasPrefix("--blocks") || $0.hasPrefix("--parent") }) {
            return [0, 1, 2]
        }
        return [0, 2]
    }

    /// Runs `words` on a fresh copy of the seeded file and checks the contract.
    static func check(_ words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let cli = CLI()
        cli.uuidCount = 1_000  // past the seeded file's uuids
        writeBytes(cli.db, seeded)
        let before = cli.snapshot()
        let result = cli.run(words, stdin: Array("1\n".utf8))
        let shown = words.map { $0.count > 40 ? String($0.prefix(12)) + "…(\($0.count))" : $0.debugDescription }.joined(separator: " ")
        #expect(allowed(words).contains(result.status), "tasks \(shown): status \(result.status)\n\(result.stderr.prefix(300))",
                sourceLocation: sourceLocation)
        if result.status != 0 {
            #expect(cli.snapshot() == before, "tasks \(shown) failed (\(result.status)) and changed the file", sourceLocation: sourceLocation)
            #expect(result.stderr.hasPrefix("tasks: "), "tasks \(shown): \(result.stderr.prefix(200))", sourceLocation: sourceLocation)
        }
    }

    /// The commands, each with arguments that make it run (ids of the seeded file).
    static var commands: [(CommandSpec, [String])] {
        TasksSpec.root.subcommands.map { command in
            let arguments: [String]
            switch command.name {
            case "completions": arguments = ["bash"]
            case "help", "undo", "import", "lists", "redo", "history", "sync", "export", "ui", "list", "next": arguments = []
            case "add": arguments = ["New task"]
            default: arguments = command.arguments.isEmpty ? [] : ["1"]
            }
            return (command, arguments)
        }
    }

    @Test func everyOptionWithEveryKindOfValue() {
        for (command, arguments) in Self.commands {
            for option in command.options(under: TasksSpec.root) where option.long != "db" {
                let long = "--" + option.long
                guard option.takesValue else {
                    Self.check([command.name] + arguments + [long])
                    Self.check([command.name] + arguments + [long + "=x"])
                    continue
                }
                Self.check([command.name] + arguments + [long])  // the value missing
                for value in Self.values {
                    Self.check([command.name] + arguments + [long, value])
                    Self.check([command.name] + arguments + [long + "=" + value])
                    if let short = option.short { Self.check([command.name] + arguments + ["-\(short)=" + value]) }
                }
            }
        }
    }

    @Test func everyArgumentWithEveryKindOfValue() {
        for (command, arguments) in Self.commands where !command.arguments.isEmpty {
            for value in Self.values {
                Self.check([command.name, value])
                Self.check([command.name] + arguments + [value])
            }
        }
    }

    /// `--db` with each value, as a name in a temporary folder (a relative path would make files
    /// wherever the tests run), and empty.
    @Test func theDatabaseOptionWithEveryKindOfValue() {
        let folder = TemporaryFolder()
        for value in Self.values where !value.contains("\u{0}") {
            let path = value.isEmpty ? "" : folder.file(value.replacing("/", with: "_"))
            Self.check(["list", "--db", path])
            Self.check(["add", "x", "--db=" + path])
        }
    }

    /// Issue 24: `tasks next -n 100000000` reserved 26 GB and aborted (status 134). Every numeric
    /// option gets 0, -1, 1, the type's maximum, one past it and a 40-digit number.
    @Test(arguments: [["next", "-n"], ["next", "--limit"], ["history", "--limit"], ["history", "--task"], ["move", "1", "--before"],
                      ["move", "1", "--after"], ["undo"], ["show"], ["toggle"], ["edit", "1", "--every"], ["edit", "1", "--due"]])
    func numbersNeverSizeMemory(words: [String]) {
        for number in ["0", "-1", "1", "9223372036854775807", "9223372036854775808", "1234567890123456789012345678901234567890",
                       "100000000", "+100000000d", "9999y", "+9999w"] {
            Self.check(words + [number])
        }
    }
}

/// The same through the binary, for what cannot be given in-process: words that are not UTF-8.
@Suite("Bad bytes on the command line", .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct CommandLineBytesTests {
    @Test func wordsThatAreNotUTF8AreUsageErrorsOrTakenAsText() throws {
        let folder = TemporaryFolder()
        var script = "tasks add seed -q; cp tasks.db before.db\n"
        for command in ["list", "add", "show", "edit 1 --title", "toggle", "next -n", "history --limit", "list -t", "add x -l", "import"] {
            script += "tasks \(command) \"$(printf 'a\\377\\376b')\" >/dev/null 2>&1; s=$?; echo \"\(command): $s\"\n"
        }
        let result = try tasksShell(script, in: folder)
        for line in result.stdout.split(separator: "\n") {
            let status = Int(line.split(separator: " ").last ?? "") ?? -1
            #expect((0...2).contains(status), "\(line)")
        }
        #expect(result.stdout.split(separator: "\n").count == 10, "\(result)")
    }
}
