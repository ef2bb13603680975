import CommandLineKit
import TaskModel
import TaskStore
import TextFormats

/// One run of `tasks`: words in, exit status out. Parse, then validate, then run: a usage
/// error never opens the database. Commands become actions of the reactors; views print
/// their state.
public enum TasksProgram {
    /// Runs `invocation` and returns the exit status (0, 1 or 2).
    public static func run(_ invocation: Invocation) -> Int32 {
        let status = runUnflushed(invocation)
        invocation.stdout.flush()
        invocation.stderr.flush()
        return status
    }

    private static func runUnflushed(_ invocation: Invocation) -> Int32 {
        // Every byte for a terminal passes its guard, whichever path wrote it (docs/cli.md, Output).
        if invocation.terminal.stdoutIsTerminal { invocation.stdout.guarding = .terminal }
        if invocation.terminal.stderrIsTerminal { invocation.stderr.guarding = .terminal }
        let reader = CommandReader(invocation: invocation)
        let parsed: ParsedCommand
        let command: any TasksCommand
        let settings: OutputSettings
        let path: String
        let weekStart: Int
        do {
            // A word with a NUL in it cannot come from a shell (argv is C strings), only from a
            // caller in-process; it would be cut short in SQLite and in every C call. Refused.
            if let word = invocation.arguments.firstIndex(where: { $0.utf8.contains(0) }) {
                throw CLIError.usage("word \(word + 1) of the command line holds a NUL byte; nothing was read")
            }
            parsed = try CommandParser(root: TasksSpec.root).parse(ReportWords.expanded(invocation.arguments, invocation.environment))
            let line = ParsedLine(parsed: parsed, invocation: invocation)
            settings = try reader.outputSettings(line)
            if settings.color && invocation.stdout.guarding == .none { invocation.stdout.guarding = .marks }
            weekStart = try DateSettings.weekStart(invocation.environment)
            command = try reader.read(line)
            if let text = command.standaloneOutput {
                invocation.stdout.write(text)
                return 0
            }
            path = try DatabaseLocation.path(option: parsed.value(Option.db), environment: invocation.environment)
        } catch {
            invocation.stderr.write(ErrorPresenter.present(error).text)
            return ErrorPresenter.present(error).status
        }

        let database = SQLiteTaskService(lazilyAt: path, now: invocation.now, makeUUID: invocation.makeUUID, today: invocation.today)
        database.localTime = invocation.localTime
        database.commandText = CommandText.typed(invocation.arguments)
        let console = Console(stdout: invocation.stdout, stderr: invocation.stderr, settings: settings, terminal: invocation.terminal)
        let status = ExitStatus(console: console, changesTasks: type(of: command).changesTasks)
        command.run(CommandContext(invocation: invocation, service: database, console: console, status: status, weekStart: weekStart))
        if status.failed { database.removeCreatedFile() }
        return status.code
    }
}

/// `tasks NAME …` where NAME is a report and no command: `tasks report NAME …`; and `tasks`
/// alone is the configuration's `default.command` when it sets one. Only a word that names
/// no command reads the configuration.
enum ReportWords {
    static func expanded(_ words: [String], _ environment: [String: String]) -> [String] {
        if words.isEmpty {
            guard let configuration = try? Configuration.load(environment), let command = configuration.defaultCommand,
                  let split = try? FilterParser.words(of: command), !split.isEmpty else { return words }
            return expanded(split, environment)
        }
        // The first word that is neither a root option nor its value (`--db x mine`), and the
        // `-c KEY=VALUE` overrides on the way (`-c report.x.filter=+a x`).
        var index = 0
        var overrides: [String] = []
        while index < words.count, words[index].hasPrefix("-"), words[index] != "-", words[index] != "--" {
            let word = words[index]
            let name = word.hasPrefix("--") ? String(word.dropFirst(2).prefix { $0 != "=" }) : nil
            let spec = TasksSpec.root.options.first { option in
                name.map { option.long == $0 } ?? (word.count >= 2 && option.short == Array(word)[1])
            }
            guard let spec else { return words }
            var value: String?
            if spec.takesValue {
                if let equals = word.firstIndex(of: "=") {
                    value = String(word[word.index(after: equals)...])
                } else if name == nil, word.count > 2 {
                    value = String(word.dropFirst(2))
                } else {
                    index += 1
                    value = index < words.count ? words[index] : nil
                }
            }
            if spec.long == Option.setting.long, let value { overrides.append(value) }
            index += 1
        }
        guard index < words.count else { return words }
        let first = words[index]
        guard !first.contains(":"), first.first?.isLetter == true, TasksSpec.root.subcommand(named: first) == nil else { return words }
        let named = Report.builtIn.contains { $0.name == first && $0.command == nil }
        if !named {
            guard let configuration = try? Configuration.load(environment, overrides: overrides), configuration.reports[first] != nil else { return words }
        }
        return Array(words[..<index]) + ["report"] + Array(words[index...])
    }
}

/// The command line as the history records it: `tasks done 3`, words quoted as a shell
/// would need them, and every password in them masked (`postgresql://me:***@host/db`): the
/// history is kept in the file and printed by `tasks history`.
enum CommandText {
    static func typed(_ arguments: [String]) -> String {
        (["tasks"] + arguments.map { quoted(Redaction.passwords(in: $0)) }).concatenated(separator: " ")
    }

    private static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_./:=+@%,#".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
