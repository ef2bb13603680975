#if canImport(Glibc)
import Glibc
#endif
import TextFormats
import _TestSupport
import Testing
@testable import CommandLineKit

/// The sample tree's options, declared once and read through.
enum Sample {
    static let db = OptionSpec.value("db", name: "PATH", help: "The database file.")
    static let format = OptionSpec.value("format", name: "FORMAT", help: "table, tsv, csv, json or ids.")
    static let quiet = OptionSpec.flag("quiet", short: "q", help: "Say nothing on success.")
    static let list = OptionSpec.value("list", short: "l", name: "LIST", help: "Only this list.")
    static let tag = OptionSpec.value("tag", short: "t", name: "TAG", help: "Only tasks with this tag.", repeatable: true)
    static let all = OptionSpec.flag("all", short: "a", help: "Pending and done.")
    static let done = OptionSpec.flag("done", short: "d", help: "Done only.")
    static let addList = OptionSpec.value("list", short: "l", name: "LIST", help: "The list.")
}

/// A tree shaped like the `tasks` contract, to parse against.
let sampleTree = CommandSpec(
    name: "tasks",
    abstract: "A task manager for the terminal.",
    options: [Sample.db, Sample.format, Sample.quiet],
    subcommands: [
        CommandSpec(name: "list", abstract: "Show pending tasks.", options: [Sample.list, Sample.tag, Sample.all, Sample.done]),
        CommandSpec(name: "add", abstract: "Add tasks.", arguments: [ArgumentSpec("TITLE", help: "A title; - reads titles from stdin.", variadic: true)],
                    options: [Sample.addList]),
        CommandSpec(name: "toggle", abstract: "Flip done and pending.", arguments: [ArgumentSpec("ID", help: "A task id; - reads ids from stdin.", variadic: true)]),
        CommandSpec(name: "show", abstract: "Show one task.", arguments: [ArgumentSpec("ID", help: "A task id.")]),
        CommandSpec(name: "delete", aliases: ["rm"], abstract: "Delete tasks.", arguments: [ArgumentSpec("ID", help: "A task id.", variadic: true)]),
    ],
    defaultSubcommand: "list"
)

@Suite("CommandParser")
struct CommandParserTests {
    let parser = CommandParser(root: sampleTree)

    @Test func optionsAsPeopleTypeThem() throws {
        for words in [["list", "--list", "Work"], ["list", "--list=Work"], ["list", "-l", "Work"], ["list", "-lWork"]] {
            let parsed = try parser.parse(words)
            #expect(parsed.path == ["list"])
            #expect(parsed.value(Sample.list) == "Work", "\(words)")
        }
        let bundled = try parser.parse(["list", "-aq"])
        #expect(bundled.has(Sample.all) && bundled.has(Sample.quiet))
        let tags = try parser.parse(["list", "-t", "a", "--tag", "b"])
        #expect(tags.values(Sample.tag) == ["a", "b"])
    }

    @Test func doubleDashEndsOptionsAndALoneDashIsAnArgument() throws {
        let parsed = try parser.parse(["add", "--", "-5 degrees", "--list"])
        #expect(parsed.arguments == ["-5 degrees", "--list"])
        #expect(!parsed.has(Sample.addList))
        #expect(try parser.parse(["toggle", "-"]).arguments == ["-"])
        #expect(try parser.parse(["toggle", "-5"]).arguments == ["-5"], "the command judges a negative id")
    }

    @Test func globalOptionsWorkBeforeAndAfterTheCommand() throws {
        #expect(try parser.parse(["--db", "x.db", "add", "a"]).value(Sample.db) == "x.db")
        #expect(try parser.parse(["add", "a", "--db=x.db", "-q"]).value(Sample.db) == "x.db")
    }

    @Test func theDefaultCommandRunsWhenNoneIsNamed() throws {
        #expect(try parser.parse([]).path == ["list"])
        let parsed = try parser.parse(["--all", "--format", "tsv"])
        #expect(parsed.path == ["list"])
        #expect(parsed.has(Sample.all))
        #expect(parsed.value(Sample.format) == "tsv")
    }

    @Test func helpAnywhere() throws {
        #expect(try parser.parse(["-h"]).wantsHelp)
        let parsed = try parser.parse(["add", "--help"])
        #expect(parsed.wantsHelp && parsed.path == ["add"])
        #expect(try parser.parse(["show", "-h"]).wantsHelp, "no missing-argument error when asking for help")
    }

    @Test func aliases() throws {
        #expect(try parser.parse(["rm", "3"]).path == ["delete"])
    }

    @Test func usageErrorsSayWhatToDo() {
        let cases: [([String], UsageError)] = [
            (["toogle", "1"], .unknownCommand("toogle", suggestion: "toggle", among: ["list", "add", "toggle", "show", "delete"])),
            (["frobnicate"], .unknownCommand("frobnicate", suggestion: nil, among: ["list", "add", "toggle", "show", "delete"])),
            (["list", "--lsit", "x"], .unknownOption("--lsit", suggestion: "--list", command: "list", help: "tasks help list")),
            (["list", "-z"], .unknownOption("-z", suggestion: nil, command: "list", help: "tasks help list")),
            (["list", "--list"], .missingValue(option: "--list")),
            (["list", "--all=yes"], .unexpectedValue(option: "--all")),
            (["show"], .missingArgument("ID", command: "show")),
            (["add"], .missingArgument("TITLE...", command: "add")),
            (["show", "1", "2"], .unexpectedArgument("2", command: "show", help: "tasks help show")),
            (["list", "--list", "a", "--list", "b"], .repeatedOption("--list")),
        ]
        for (words, expected) in cases {
            #expect(throws: expected, "\(words)") { try parser.parse(words) }
        }
        #expect(UsageError.unknownCommand("toogle", suggestion: "toggle", among: []).description == "unknown command 'toogle'; did you mean 'toggle'?")
    }

    @Test func suggestionsAreCloseOrAbsent() {
        #expect(Suggestion.closest(to: "lsit", among: ["list", "add"]) == "list")
        #expect(Suggestion.closest(to: "shwo", among: ["show", "list"]) == "show")
        #expect(Suggestion.closest(to: "xyz", among: ["list", "add"]) == nil)
    }
}

@Suite("HelpFormatter")
struct HelpFormatterTests {
    let help = HelpFormatter(root: sampleTree)

    @Test func usageLinesComeFromTheTree() {
        #expect(help.usage(for: []) == "usage: tasks [COMMAND] [OPTIONS]")
        #expect(help.usage(for: ["add"]) == "usage: tasks add [OPTIONS] TITLE...")
        #expect(help.usage(for: ["show"]) == "usage: tasks show [OPTIONS] ID")
    }

    @Test(arguments: [[String](), ["add"], ["list"]])
    func helpMatchesItsGoldenFile(path: [String]) throws {
        let name = "help-" + (path.isEmpty ? "root" : path.joined(separator: "-")) + ".txt"
        assertGolden(help.help(for: path), named: name)
    }
}

/// Compares `text` with `Fixtures/CommandLineKit/NAME`; `RECORD_GOLDEN=1` rewrites the file.
func assertGolden(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let mismatch = goldenMismatch(text, named: "CommandLineKit/" + name) {
        Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
}
