import CommandLineKit
@testable import TaskCLI
import Testing

/// The command tree checked as swift-argument-parser checks its declarations: names unique
/// where they meet, and every option a command declares is read by the program, and nothing
/// it reads is undeclared.
@Suite("The command tree")
struct CommandTreeTests {
    @Test func namesAreUniqueWhereTheyMeet() {
        let root = TasksSpec.root
        let commandNames = root.subcommands.flatMap { [$0.name] + $0.aliases }
        #expect(Set(commandNames).count == commandNames.count, "\(commandNames)")
        for command in [root] + root.subcommands {
            let options = command.name == root.name ? root.options : command.options(under: root)
            let longs = options.map(\.long), shorts = options.compactMap(\.short)
            #expect(Set(longs).count == longs.count, "\(command.name): \(longs)")
            #expect(Set(shorts).count == shorts.count, "\(command.name): \(shorts)")
            #expect(!longs.contains("help") && !shorts.contains("h"), "--help and -h are the parser's own")
        }
    }

    /// The registry's names, which the parser matches without building a spec, are each
    /// command's own; and a command line builds only the specs it names.
    @Test func theRegistrysNamesAreTheSpecsNames() {
        for entry in CommandRegistry.named {
            #expect(entry.name == entry.type.spec.name && entry.aliases == entry.type.spec.aliases, "\(entry.name)")
        }
        let entries = TasksSpec.root.entries
        #expect(entries.map(\.name) == TasksSpec.root.subcommands.map(\.name))
        #expect(TasksSpec.root.subcommand(named: "rm")?.name == "delete" && TasksSpec.root.subcommand(named: "nope") == nil)
    }

    @Test func everyDeclaredOptionIsReadAndNothingUndeclaredIs() {
        let root = TasksSpec.root
        let invocation = Invocation(arguments: [], environment: [:], stdin: .bytes(Array("1\n".utf8)), stdout: Output(), stderr: Output(),
                                    terminal: TerminalFacts(stdoutIsTerminal: false, stderrIsTerminal: false, width: nil))
        let reader = CommandReader(invocation: invocation)
        for command in root.subcommands where command.name != "help" {
            let options = command.options(under: root)
            let log = OptionReadLog()
            // `report` reads the listing's options when it runs one.
            let arguments = command.name == "report" ? ["completed"]
                : command.arguments.filter { !$0.isOptional }.map { _ in command.name == "completions" ? "bash" : "1" }
            // Once with no option, then once with each: a reader may stop at the first problem.
            for given in [nil] + options.map(Optional.some) {
                var parsed = ParsedCommand(path: [command.name], arguments: arguments, declared: options.map(\.long))
                if let given { parsed.values[given.long] = [given.takesValue ? "1" : ""] }
                parsed.readLog = log
                _ = try? reader.outputSettings(parsed)
                _ = try? reader.read(parsed)
                _ = parsed.value(Option.db)  // TasksProgram reads the database's place itself
                _ = parsed.has(Option.noHooks)  // and whether hooks run (HookRunner.forCommand)
            }
            let unread = Set(options.map(\.long)).subtracting(log.read)
            #expect(unread.isEmpty, "'\(command.name)' declares options it never reads: \(unread.sorted())")
            #expect(log.undeclared.isEmpty, "'\(command.name)' reads options it does not declare: \(log.undeclared.sorted())")
        }
    }
}
