import CommandLineKit
import QueryLanguage
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
        let dates: () -> DateContext
        let hooks: HookRunner?
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
            // A bad TASKS_WEEK_START is refused whatever the command; the week's start itself is
            // resolved once, when something first reads a date (`ParsedLine.dates()`).
            let fallback = try DateSettings.weekStart(invocation.environment)
            command = try reader.read(line)
            dates = { (try? line.dates()) ?? DateSettings.context(invocation, weekStart: fallback) }
            if let text = command.standaloneOutput {
                invocation.stdout.write(text)
                return 0
            }
            path = try DatabaseLocation.path(option: parsed.value(Option.db), environment: invocation.environment)
            hooks = try HookRunner.forCommand(parsed, line: line, databasePath: path)
        } catch {
            invocation.stderr.write(ErrorPresenter.present(error).text)
            return ErrorPresenter.present(error).status
        }

        let database = SQLiteTaskService(lazilyAt: path, now: invocation.now, makeUUID: invocation.makeUUID, today: invocation.today)
        database.localTime = invocation.localTime
        database.commandText = CommandText.typed(invocation.arguments)
        let console = Console(stdout: invocation.stdout, stderr: invocation.stderr, settings: settings, terminal: invocation.terminal)
        let status = ExitStatus(console: console, changesTasks: type(of: command).changesTasks)
        if let hooks {
            do throws(TaskServiceError) {
                try hooks.launch()
            } catch {
                status.fail(error)
                return status.code
            }
            if hooks.showsChanges { database.hooks = hooks }
        }
        command.run(CommandContext(invocation: invocation, service: database, console: console, status: status, dates: dates))
        if status.failed { database.removeCreatedFile() }
        if let hooks, case .hookRefused(let hook, let reason)? = hooks.exit(), !status.failed {
            status.fail(.failure("the hook \(hook) failed: \(reason); the command's changes are made", hint: "'tasks hooks' lists the hooks"))
        }
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
        // Only root options (`tasks -c default.command=next`): the default command after them,
        // read with their `-c` overrides.
        guard index < words.count else {
            guard !words.isEmpty, let configuration = try? Configuration.load(environment, overrides: overrides),
                  let command = configuration.defaultCommand, let split = try? FilterParser.words(of: command), !split.isEmpty else { return words }
            return expanded(words + split, environment)
        }
        if let undotted = TaskwarriorOrder.undotted(words, from: index) { return expanded(undotted, environment) }
        if let reordered = TaskwarriorOrder.reordered(words, from: index) { return expanded(reordered, environment) }
        let first = words[index]
        guard !first.contains(":"), first.first?.isLetter == true, TasksSpec.root.subcommand(named: first) == nil else { return words }
        let named = Report.builtIn.contains { $0.name == first && $0.command == nil }
        if !named {
            guard let configuration = try? Configuration.load(environment, overrides: overrides), configuration.reports[first] != nil else { return words }
        }
        return Array(words[..<index]) + ["report"] + Array(words[index...])
    }
}

/// Taskwarrior's word order, `tasks FILTER COMMAND [ARGUMENTS]` (`tasks 12 done`, `tasks +bills
/// list`, `tasks 12 annotate called them`): the command word is moved in front of the filter
/// words before it, so that the line reads as `tasks COMMAND FILTER [ARGUMENTS]`. Only when
/// every word before the command is filter-shaped — an id or a range, a uuid or its start, a
/// `+tag` or `-tag`, a `name:value` or `name.modifier:value`, a parenthesis or `and`/`or`/
/// `xor`/`not` — so a title or search text that holds a command's name is never taken apart
/// (`tasks add Call mum done` is a title; `tasks milk done` stays a search).
enum TaskwarriorOrder {
    /// The commands that take ids or a filter, and Taskwarrior's `info` (ours is `show`).
    static let takingFilters: Set<String> = ["list", "ls", "next", "count", "toggle", "done", "reopen", "start", "stop", "edit",
                                             "modify", "mod", "append", "prepend", "annotate", "denotate", "duplicate", "show",
                                             "delete", "rm", "move", "mv", "export", "ui", "info",
                                             "burndown", "ghistory"]

    /// `words` with the command moved before the filter that starts at `start`; nil when the
    /// words are not in Taskwarrior's order.
    /// The commands whose words after the filter modify the tasks it chooses: their filter is
    /// passed as one word (a group) when it is more than ids, so the two stay apart.
    static let modifying: Set<String> = ["modify", "mod", "done", "start", "stop", "annotate", "append", "prepend", "duplicate"]

    /// Taskwarrior's dotted chart commands (`burndown.daily`, `ghistory.monthly`,
    /// `history.annual`) as ours: `burndown daily`, `ghistory monthly`, `ghistory annual
    /// --numbers`. Only as the command word, after filter-shaped words if any.
    static func undotted(_ words: [String], from start: Int) -> [String]? {
        var index = start
        while index < words.count, isFilterShaped(words[index]) { index += 1 }
        guard index < words.count, let dot = words[index].firstIndex(of: ".") else { return nil }
        let name = words[index][..<dot], period = String(words[index][words[index].index(after: dot)...])
        guard let chosen = ReportPeriod(rawValue: period) else { return nil }
        let replacement: [String]
        switch name {
        case "burndown" where chosen != .annual: replacement = ["burndown", period]
        case "ghistory": replacement = ["ghistory", period]
        case "history": replacement = ["ghistory", period, "--numbers"]
        default: return nil
        }
        return Array(words[..<index]) + replacement + Array(words[(index + 1)...])
    }

    static func reordered(_ words: [String], from start: Int) -> [String]? {
        guard start < words.count, TasksSpec.root.subcommand(named: words[start]) == nil, words[start] != "info" else { return nil }
        var index = start
        while index < words.count, isFilterShaped(words[index]) { index += 1 }
        guard index > start, index < words.count, takingFilters.contains(words[index]) else { return nil }
        let command = words[index] == "info" ? "show" : words[index]
        var filter = Array(words[start..<index])
        if modifying.contains(command), !filter.allSatisfy(isIDShaped) {
            // One word, `(+bills or +urgent)`; a word with a space in it keeps its quotes.
            guard let grouped = group(filter) else { return nil }
            filter = [grouped]
        }
        return Array(words[..<start]) + [command] + filter + Array(words[(index + 1)...])
    }

    /// `words` as one parenthesised group the filter parser reads back as they are; nil when a
    /// word holds both kinds of quote with a space (it cannot be quoted as one word).
    static func group(_ words: [String]) -> String? {
        var parts: [String] = []
        for word in words {
            guard word.contains(" ") || word.contains("\t") else { parts.append(word); continue }
            if !word.contains("\"") { parts.append("\"" + word + "\"") } else if !word.contains("'") { parts.append("'" + word + "'") } else { return nil }
        }
        return "(" + parts.joined(separator: " ") + ")"
    }

    /// An id, a range or list of them (`3`, `1-3,5`), or a uuid or its start.
    static func isIDShaped(_ word: String) -> Bool {
        if FilterParser.uuidPrefix(word) != nil { return true }
        let bytes = Array(word.lowercased().utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        guard let first = bytes.first, isDigit(first) else { return false }
        if bytes.count >= 13, bytes[8] == UInt8(ascii: "-"), bytes.prefix(8).allSatisfy(FilterParser.isHex) { return true }
        return bytes.allSatisfy { isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ",") }
    }

    static func isFilterShaped(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        guard let first = bytes.first else { return false }
        if ["and", "or", "xor", "not"].contains(word.lowercased()) || first == UInt8(ascii: "(") || bytes.last == UInt8(ascii: ")") { return true }
        // 3, 1-3,5, a uuid or its start, as the filter reads them.
        if isIDShaped(word) { return true }
        // +tag, -tag
        if (first == UInt8(ascii: "+") || first == UInt8(ascii: "-")) && bytes.count > 1 && !bytes.contains(UInt8(ascii: " ")) { return true }
        // name:value, name.modifier:value
        if let colon = word.firstIndex(of: ":") { return FilterParser.isNameShaped(String(word[..<colon])) }
        return false
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
