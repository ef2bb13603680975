#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import TaskInterchange
import TaskModel
import TerminalKit
import TextFormats

/// Parse, then validate: from words to a `Command`, with stdin read where `-` asks for it.
struct CommandReader {
    let invocation: Invocation

    func read(_ parsed: ParsedCommand) throws -> Command {
        if parsed.wantsHelp { return .help(parsed.path) }
        if parsed.has(Option.version) { return .version }
        let name = parsed.path.first ?? "list"
        switch name {
        case "help":
            if let topic = parsed.arguments.first {
                guard let command = TasksSpec.root.subcommand(named: topic) else {
                    throw UsageError.unknownCommand(topic, suggestion: Suggestion.closest(to: topic, among: TasksSpec.root.subcommands.map { $0.name }),
                                                    among: TasksSpec.root.subcommands.map { $0.name })
                }
                return .help([command.name])
            }
            return .help([])
        case "list":
            return .list(try query(parsed))
        case "lists":
            return .lists
        case "next":
            var query = try filters(parsed)
            query.today = invocation.today()
            query.sort = .rank
            query.grouping = .none
            query.limit = try parsed.value(Option.nextLimit).map(IDParser.count) ?? 10
            let explain = parsed.has(Option.explain)
            if explain, let format = parsed.value(Option.format), !["table", "tsv"].contains(format) {
                throw CLIError.usage("--explain shows scores in a table or tsv, not in \(format)")
            }
            return .next(query, explain: explain)
        case "ui":
            let query = try query(parsed)
            if let reason = Terminal.unusableReason(inputIsTerminal: invocation.stdin.isTerminal, outputIsTerminal: invocation.terminal.stdoutIsTerminal,
                                                    term: invocation.environment["TERM"]) {
                throw CLIError.usage("'tasks ui' needs a terminal: \(reason)", hint: "'tasks list' prints the same tasks")
            }
            return .ui(query)
        case "add":
            let fields = try fieldFlags(parsed, titled: false)
            if let removed = fields.removeTags.first {
                throw CLIError.usage("'--tag -\(removed)' removes a tag, and a new task has none; use --tag \(removed)")
            }
            if parsed.arguments.contains("-") {
                guard parsed.arguments == ["-"] else { throw CLIError.usage("'-' (titles from stdin) cannot be mixed with titles as arguments") }
                let lines = LineReader(input: invocation.stdin)
                let first: String?
                do throws(TaskFieldError) {
                    first = try lines.peek()
                } catch {
                    throw CLIError.usage("line 1: \(error); nothing was added")
                }
                guard first != nil else { throw CLIError.usage("no titles on stdin; give one title per line") }
                // The new tasks as records (`--format tsv`) are printed from the tasks
                // themselves: then every line is read first, and the tasks are held.
                if parsed.has(Option.format) {
                    var titles: [String] = []
                    do throws(TaskFieldError) {
                        while let line = try lines.next() { titles.append(line) }
                    } catch {
                        throw CLIError.usage("line \(titles.count + 1): \(error); nothing was added")
                    }
                    return .add(titles: titles, fromStdin: true, fields: fields)
                }
                return .addLines(lines, fields: fields)
            }
            return .add(titles: parsed.arguments, fromStdin: false, fields: fields)
        case "toggle", "done", "reopen":
            let how: Command.DoneChange = name == "toggle" ? .toggle : name == "done" ? .done : .reopen
            return .setDone(ids: try ids(parsed.arguments), how: how)
        case "delete":
            return .delete(ids: try ids(parsed.arguments))
        case "show":
            return .show(id: try IDParser.id(parsed.arguments[0]))
        case "edit":
            let fields = try fieldFlags(parsed, titled: true)
            return .edit(id: try IDParser.id(parsed.arguments[0]), fields: fields)
        case "move":
            return .move(id: try IDParser.id(parsed.arguments[0]), to: try placement(parsed))
        case "export":
            let text = parsed.value(Option.exportFormat) ?? "json"
            guard let format = InterchangeFormat(named: text) else {
                throw CLIError.usage("'\(text)' is not an export format; use json, csv, taskwarrior or todotxt")
            }
            return .export(format)
        case "import":
            return try importFile(parsed)
        case "undo":
            return .undo(entry: try parsed.arguments.first.map(IDParser.entry))
        case "redo":
            return .redo
        case "history":
            var query = HistoryQuery(withChanges: outputFormat(parsed) == .json)
            query.limit = try parsed.value(Option.limit).map(IDParser.count)
            query.taskID = try parsed.value(Option.forTask).map(IDParser.id)
            return .history(query)
        case "sync":
            let given = parsed.value(Option.remote)
            if let given, given.allSatisfy({ $0 == " " }) {
                throw CLIError.usage("--remote needs a PostgreSQL address, such as postgresql://me@db.example.com/tasks")
            }
            let fromEnvironment = invocation.environment["TASKS_REMOTE"].flatMap { $0.isEmpty ? nil : $0 }
            return .sync(url: given ?? fromEnvironment, remember: given != nil)
        case "completions":
            guard let shell = Shell(rawValue: parsed.arguments[0]) else {
                throw CLIError.usage("'\(parsed.arguments[0])' is not a shell tasks completes in; use bash, zsh or fish")
            }
            return .completions(shell)
        default:
            throw CLIError.usage("unknown command '\(name)'")
        }
    }

    /// The file `import` reads, parsed in the format asked for; a bad record is an input error.
    private func importFile(_ parsed: ParsedCommand) throws -> Command {
        let text = parsed.value(Option.importFormat) ?? "json"
        guard let format = InterchangeFormat(named: text), format != .csv else {
            throw CLIError.usage("'\(text)' is not an import format; use json, taskwarrior or todotxt"
                                 + (text.lowercased() == "csv" ? " (csv is written by export only)" : ""))
        }
        let path = parsed.arguments.first ?? "-"
        let source = path == "-" ? "stdin" : "'\(path)'"
        let bytes: [UInt8]
        if path == "-" {
            if parsed.arguments.isEmpty && invocation.stdin.isTerminal {
                throw CLIError.usage("'import' needs a FILE, or tasks on stdin: tasks import FILE, or ... | tasks import -")
            }
            bytes = invocation.stdin.readToEnd()
        } else {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 { throw CLIError.usage("cannot read \(source): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            guard let read = Input.readAll(descriptor: descriptor) else {
                throw CLIError.usage("cannot read \(source): \(String(cString: strerror(errno)))")
            }
            bytes = read
        }
        do {
            let file: ImportedFile
            switch format {
            case .json: file = try TaskJSON.read(bytes)
            case .taskwarrior: file = try Taskwarrior.read(bytes, localTime: invocation.localTime)
            case .todotxt: file = try TodoTxt.read(bytes, localTime: invocation.localTime)
            case .csv: throw CLIError.usage("csv is written by export only")
            }
            return .importTasks(file, source: source)
        } catch let error as InterchangeError {
            throw CLIError.usage("cannot import \(source): \(error); nothing was imported")
        }
    }

    /// The format `--format` names, if it names one.
    private func outputFormat(_ parsed: ParsedCommand) -> OutputFormat? {
        parsed.value(Option.format).flatMap { OutputFormat(rawValue: $0.lowercased()) }
    }

    /// The output settings; a bad `--format` or `--color` is a usage error.
    func outputSettings(_ parsed: ParsedCommand) throws -> OutputSettings {
        var format: OutputFormat = invocation.terminal.stdoutIsTerminal ? .table : .tsv
        // A command with a --format of its own (export, import) reads it itself.
        let ownFormat = parsed.path.first.flatMap(TasksSpec.root.subcommand(named:))?.options.contains { $0.long == Option.format.long } ?? false
        if !ownFormat, let text = parsed.value(Option.format) {
            guard let chosen = OutputFormat(rawValue: text.lowercased()) else {
                throw CLIError.usage("'\(text)' is not a format; use table, tsv, csv, json or ids")
            }
            format = chosen
        }
        var choice = TerminalFacts.ColorChoice.auto
        if let text = parsed.value(Option.color) {
            guard let chosen = TerminalFacts.ColorChoice(rawValue: text.lowercased()) else {
                throw CLIError.usage("'\(text)' is not a colour choice; use auto, always or never")
            }
            choice = chosen
        }
        return OutputSettings(
            format: format, isExplicit: !ownFormat && parsed.has(Option.format), header: parsed.has(Option.header), quiet: parsed.has(Option.quiet),
            color: format == .table && invocation.terminal.usesColor(choice, environment: invocation.environment)
        )
    }

    /// The filters `list`, `ui` and `next` share: list, tag, search words, priority.
    private func filters(_ parsed: ParsedCommand) throws -> TaskQuery {
        var query = TaskQuery()
        query.list = parsed.value(Option.inList)
        for text in parsed.values(Option.withTag) {
            // `-t` and `!t` leave a tag out; `+t` and `t` ask for it.
            let excluded = text.hasPrefix("-") || text.hasPrefix("!")
            let tag = FieldRules.tagWord(excluded ? String(text.dropFirst()) : text)
            try FieldRules.checkTag(tag, typed: true)
            if excluded { query.excludedTags.append(tag) } else { query.tags.append(tag) }
        }
        var words = parsed.arguments
        if let search = parsed.value(Option.search) { words.insert(search, at: 0) }
        if !words.isEmpty { query.search = words.joined(separator: " ") }
        if let text = parsed.value(Option.withPriority) {
            guard let priority = try FieldRules.priority(text) else { throw TaskFieldError.badPriority(text) }
            query.priority = priority
        }
        return query
    }

    private func query(_ parsed: ParsedCommand) throws -> TaskQuery {
        var query = try filters(parsed)
        if parsed.has(Option.all) && parsed.has(Option.done) { throw CLIError.usage("give --all or --done, not both") }
        if parsed.has(Option.all) {
            query.status = .all
            query.waiting = .shown
        }
        if parsed.has(Option.done) { query.status = .done }
        if parsed.has(Option.waiting) { query.waiting = .only }
        let today = invocation.today()
        query.today = today
        if let text = parsed.value(Option.dueBefore) {
            guard let day = DueDate.parse(text, today: today) else { throw TaskFieldError.badDue(text) }
            query.dueBefore = day
        }
        if parsed.has(Option.overdue) { query.dueBefore = min(query.dueBefore ?? today, today) }
        if let text = parsed.value(Option.sort) {
            switch text.lowercased() {
            case "manual": query.sort = .manual
            case "due": query.sort = .due
            case "priority": query.sort = .priority
            case "created": query.sort = .created
            default: throw CLIError.usage("'\(text)' is not an order; use manual, due, priority or created")
            }
        }
        return query
    }

    private func fieldFlags(_ parsed: ParsedCommand, titled: Bool) throws -> FieldFlags {
        var fields = FieldFlags(title: titled ? parsed.value(Option.title) : nil, notes: parsed.value(Option.notes),
                                list: parsed.value(Option.list), due: parsed.value(Option.due), priority: parsed.value(Option.priority))
        let every = parsed.value(Option.every), after = parsed.value(Option.repeatAfter)
        if every != nil && after != nil { throw CLIError.usage("give --every or --after, not both") }
        if let every { fields.repeatRule = every.trimmingWhitespace.isEmpty ? "" : "every " + every }
        if let after { fields.repeatRule = after.trimmingWhitespace.isEmpty ? "" : "after " + after }
        fields.wait = parsed.value(Option.wait)
        for tag in parsed.values(Option.tag) {
            if ["", "+", "-"].contains(tag.trimmingWhitespace) {
                throw CLIError.usage("'--tag \(tag)' names no tag; use --tag NAME to add one, --tag -NAME to remove one")
            }
            if tag.hasPrefix("-") {
                fields.removeTags.append(String(tag.dropFirst()))
            } else {
                fields.addTags.append(tag)  // as typed: the editor reactor takes its `+` off and judges it
            }
        }
        return fields
    }

    private func ids(_ arguments: [String]) throws -> [Int64] {
        if arguments.contains("-") {
            guard arguments == ["-"] else { throw CLIError.usage("'-' (ids from stdin) cannot be mixed with ids as arguments") }
            return try StdinReader(input: invocation.stdin).ids()
        }
        return try arguments.map(IDParser.id)
    }

    private func placement(_ parsed: ParsedCommand) throws -> TaskPlacement {
        var placements: [TaskPlacement] = []
        if let text = parsed.value(Option.before) { placements.append(.before(try IDParser.id(text))) }
        if let text = parsed.value(Option.after) { placements.append(.after(try IDParser.id(text))) }
        if parsed.has(Option.top) { placements.append(.top) }
        if parsed.has(Option.bottom) { placements.append(.bottom) }
        if let list = parsed.value(Option.toList) { placements.append(.list(try FieldRules.list(list))) }
        guard placements.count == 1 else {
            throw CLIError.usage(placements.isEmpty ? "'move' needs where to: --before ID, --after ID, --top, --bottom or --list LIST"
                                                    : "'move' takes one of --before, --after, --top, --bottom and --list")
        }
        return placements[0]
    }
}

