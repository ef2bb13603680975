#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import TaskInterchange
import TaskKit

/// A command line after validation: every id a positive number, every format known, stdin
/// read and checked. Nothing here has touched the database.
enum Command {
    case help([String])
    case version
    case list(TaskQuery)
    case lists
    case add(titles: [String], fromStdin: Bool, fields: FieldFlags)
    case setDone(ids: [Int64], how: DoneChange)
    case edit(id: Int64, fields: FieldFlags)
    case show(id: Int64)
    case delete(ids: [Int64])
    case move(id: Int64, to: TaskPlacement)
    case export(InterchangeFormat)
    /// A file read and parsed (not yet checked against the task rules), and where it came from.
    case importTasks(ImportedFile, source: String)
    case completions(Shell)

    enum DoneChange { case toggle, done, reopen }
}

/// The field flags of `add` and `edit`, as typed; the editor reactor judges them.
struct FieldFlags: Equatable {
    var title: String?
    var notes: String?
    var list: String?
    var due: String?
    var priority: String?
    var addTags: [String] = []
    var removeTags: [String] = []

    var isEmpty: Bool { self == FieldFlags() }
}

/// The output settings of a run.
struct OutputSettings {
    var format: OutputFormat
    /// `--format` was given (not the default for the terminal or pipe).
    var isExplicit: Bool
    var header: Bool
    var quiet: Bool
    var color: Bool
}

/// Parse, then validate: from words to a `Command`, with stdin read where `-` asks for it.
struct CommandReader {
    let invocation: Invocation

    func read(_ parsed: ParsedCommand) throws -> Command {
        if parsed.wantsHelp { return .help(parsed.path) }
        if parsed.has("version") { return .version }
        let name = parsed.path.first ?? "list"
        switch name {
        case "help":
            if let topic = parsed.arguments.first {
                guard let command = TasksSpec.root.subcommand(named: topic) else {
                    throw UsageError.unknownCommand(topic, suggestion: Suggestion.closest(to: topic, among: TasksSpec.root.subcommands.map(\.name)),
                                                    among: TasksSpec.root.subcommands.map(\.name))
                }
                return .help([command.name])
            }
            return .help([])
        case "list":
            return .list(try query(parsed))
        case "lists":
            return .lists
        case "add":
            var fields = try fieldFlags(parsed)
            if !fields.removeTags.isEmpty {
                throw CLIError.usage("'--tag -\(fields.removeTags[0])' removes a tag, and a new task has none; use --tag \(fields.removeTags[0])")
            }
            fields.title = nil
            if parsed.arguments.contains("-") {
                guard parsed.arguments == ["-"] else { throw CLIError.usage("'-' (titles from stdin) cannot be mixed with titles as arguments") }
                return .add(titles: try StdinReader(input: invocation.stdin).titles(), fromStdin: true, fields: fields)
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
            let fields = try fieldFlags(parsed)
            return .edit(id: try IDParser.id(parsed.arguments[0]), fields: fields)
        case "move":
            return .move(id: try IDParser.id(parsed.arguments[0]), to: try placement(parsed))
        case "export":
            let text = parsed.value("format") ?? "json"
            guard let format = InterchangeFormat(named: text) else {
                throw CLIError.usage("'\(text)' is not an export format; use json, csv, taskwarrior or todotxt")
            }
            return .export(format)
        case "import":
            return try importFile(parsed)
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
        let text = parsed.value("format") ?? "json"
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

    /// The output settings; a bad `--format` or `--color` is a usage error.
    func outputSettings(_ parsed: ParsedCommand) throws -> OutputSettings {
        var format: OutputFormat = invocation.terminal.stdoutIsTerminal ? .table : .tsv
        // A command with a --format of its own (export, import) reads it itself.
        let ownFormat = parsed.path.first.flatMap(TasksSpec.root.subcommand(named:))?.options.contains { $0.long == "format" } ?? false
        if !ownFormat, let text = parsed.value("format") {
            guard let chosen = OutputFormat(rawValue: text.lowercased()) else {
                throw CLIError.usage("'\(text)' is not a format; use table, tsv, csv, json or ids")
            }
            format = chosen
        }
        var choice = TerminalFacts.ColorChoice.auto
        if let text = parsed.value("color") {
            guard let chosen = TerminalFacts.ColorChoice(rawValue: text.lowercased()) else {
                throw CLIError.usage("'\(text)' is not a colour choice; use auto, always or never")
            }
            choice = chosen
        }
        return OutputSettings(
            format: format, isExplicit: !ownFormat && parsed.has("format"), header: parsed.has("header"), quiet: parsed.has("quiet"),
            color: format == .table && invocation.terminal.usesColor(choice, environment: invocation.environment)
        )
    }

    private func query(_ parsed: ParsedCommand) throws -> TaskQuery {
        var query = TaskQuery()
        if parsed.has("all") && parsed.has("done") { throw CLIError.usage("give --all or --done, not both") }
        if parsed.has("all") { query.status = .all }
        if parsed.has("done") { query.status = .done }
        query.list = parsed.value("list")
        query.tag = parsed.value("tag").map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 }
        var words = parsed.arguments
        if let search = parsed.value("search") { words.insert(search, at: 0) }
        if !words.isEmpty { query.search = words.joined(separator: " ") }
        if let text = parsed.value("priority") {
            guard let priority = Priority(rawValue: text.uppercased()) else { throw TaskFieldError.badPriority(text) }
            query.priority = priority
        }
        let today = invocation.today()
        if let text = parsed.value("due-before") {
            guard let day = DueDate.parse(text, today: today) else { throw TaskFieldError.badDue(text) }
            query.dueBefore = day
        }
        if parsed.has("overdue") { query.dueBefore = min(query.dueBefore ?? today, today) }
        if let text = parsed.value("sort") {
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

    private func fieldFlags(_ parsed: ParsedCommand) throws -> FieldFlags {
        var fields = FieldFlags(title: parsed.value("title"), notes: parsed.value("notes"), list: parsed.value("list"),
                                due: parsed.value("due"), priority: parsed.value("priority"))
        for tag in parsed.values("tag") {
            if tag.hasPrefix("-") {
                fields.removeTags.append(String(tag.dropFirst()))
            } else {
                fields.addTags.append(tag.hasPrefix("+") ? String(tag.dropFirst()) : tag)
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
        if let text = parsed.value("before") { placements.append(.before(try IDParser.id(text))) }
        if let text = parsed.value("after") { placements.append(.after(try IDParser.id(text))) }
        if parsed.has("top") { placements.append(.top) }
        if parsed.has("bottom") { placements.append(.bottom) }
        if let list = parsed.value("list") {
            if list.trimmingWhitespace.isEmpty { throw TaskFieldError.emptyList }
            placements.append(.list(list.trimmingWhitespace))
        }
        guard placements.count == 1 else {
            throw CLIError.usage(placements.isEmpty ? "'move' needs where to: --before ID, --after ID, --top, --bottom or --list LIST"
                                                    : "'move' takes one of --before, --after, --top, --bottom and --list")
        }
        return placements[0]
    }
}

/// Task ids as typed: positive whole numbers.
enum IDParser {
    static func id(_ text: String) throws -> Int64 {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (48...57).contains($0) }) else {
            throw CLIError.usage("'\(text)' is not a task id; an id is a whole number such as 42 ('tasks list' shows them)")
        }
        guard let id = Int64(trimmed), id > 0 else {
            throw CLIError.usage("'\(text)' is not a task id; ids start at 1 and are less than 2^63")
        }
        return id
    }
}

/// Standard input as titles or ids: UTF-8, no NUL bytes, one title per line.
struct StdinReader {
    let input: Input

    /// One title per line; a final newline is optional, `\r\n` is accepted.
    func titles() throws -> [String] {
        let bytes = input.readToEnd()
        var titles: [String] = []
        try bytes.withUnsafeBufferPointer { buffer in
            try Lines.forEach(in: buffer) { number, line in titles.append(try text(line, line: number)) }
        }
        if titles.isEmpty { throw CLIError.usage("no titles on stdin; give one title per line") }
        return titles
    }

    /// Ids separated by whitespace or newlines.
    func ids() throws -> [Int64] {
        let bytes = input.readToEnd()
        var ids: [Int64] = []
        var lineNumber = 1
        var start = 0
        while start < bytes.count {
            let byte = bytes[start]
            if byte == 10 { lineNumber += 1 }
            if byte == 10 || byte == 32 || byte == 9 || byte == 13 {
                start += 1
                continue
            }
            var end = start
            while end < bytes.count && ![10, 32, 9, 13].contains(bytes[end]) { end += 1 }
            let word = try bytes[start..<end].withUnsafeBufferPointer { try text($0, line: lineNumber) }
            do {
                ids.append(try IDParser.id(word))
            } catch let error as CLIError {
                throw CLIError.usage("stdin line \(lineNumber): " + error.message)
            }
            start = end
        }
        return ids
    }

    private func text(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws -> String {
        if bytes.contains(0) { throw CLIError.usage("stdin line \(line) holds a NUL byte; nothing was changed") }
        guard let text = UTF8Text.string(bytes) else {
            throw CLIError.usage("stdin line \(line) is not valid UTF-8; nothing was changed")
        }
        return text
    }
}

/// The shells `tasks completions` writes for.
enum Shell: String {
    case bash, zsh, fish
}
