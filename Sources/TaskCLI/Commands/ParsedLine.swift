import CommandLineKit
import QueryLanguage
import TaskModel

/// A parsed command line with the run it belongs to: what every command's `init` reads its
/// values through. The readings more than one command shares live here; a command's own stay
/// in its file.
struct ParsedLine {
    let parsed: ParsedCommand
    let invocation: Invocation
    /// The configuration once read: a command asks for it from several readings (its filter,
    /// its context's header, its columns, the score's weights), and the file is read once.
    private var read: ConfigurationOnce

    init(parsed: ParsedCommand, invocation: Invocation) {
        self.parsed = parsed
        self.invocation = invocation
        read = ConfigurationOnce()
    }

    /// The same line as another command reads it (`report next` is `next`): its path and
    /// arguments changed, what it read kept.
    func rewritten(path: [String]? = nil, arguments: [String]) -> ParsedLine {
        var changed = parsed
        if let path { changed.path = path }
        changed.arguments = arguments
        var line = ParsedLine(parsed: changed, invocation: invocation)
        line.read = read
        return line
    }

    /// The positional arguments, in order.
    var arguments: [String] { parsed.arguments }
    func has(_ option: OptionSpec) -> Bool { parsed.has(option) }
    func value(_ option: OptionSpec) -> String? { parsed.value(option) }
    func values(_ option: OptionSpec) -> [String] { parsed.values(option) }

    /// The one argument a command declares as required (the parser has checked it is there).
    var requiredArgument: String {
        get throws {
            guard let first = parsed.arguments.first else { throw CLIError.usage("'\(parsed.path.joined(separator: " "))' needs an argument") }
            return first
        }
    }

    /// The option's value as one of `Choice`'s words; a word that is none of them is a usage
    /// error naming every one.
    func choice<Choice: OptionChoice>(_ option: OptionSpec, _ choice: Choice.Type) throws -> Choice? {
        guard let text = parsed.value(option) else { return nil }
        return try Self.choice(text, choice)
    }

    /// `text` as one of `Choice`'s words.
    static func choice<Choice: OptionChoice>(_ text: String, _ choice: Choice.Type, orElse: String = "") throws -> Choice {
        guard let chosen = Choice(word: text) else { throw CLIError.usage("'\(text)' is not \(Choice.noun); use \(Choice.wordList)" + orElse) }
        return chosen
    }

    /// The ids of `toggle`, `done`, `reopen`, `delete`: the arguments, or stdin's lines for `-`.
    func ids() throws -> [Int64] {
        let arguments = parsed.arguments
        if arguments.contains("-") {
            guard arguments == ["-"] else { throw CLIError.usage("'-' (ids from stdin) cannot be mixed with ids as arguments") }
            return try StdinReader(input: invocation.stdin).ids()
        }
        return try arguments.map(IDParser.id)
    }

    /// The configuration, with this command's `-c KEY=VALUE` over it.
    func configuration() throws -> Configuration {
        if let configuration = read.value { return configuration }
        var configuration = try Configuration.load(invocation.environment, overrides: parsed.values(Option.setting))
        configuration.addedFields = invocation.fields
        read.value = configuration
        return configuration
    }

    /// The run's dates: its clock, day and zone, and the week's first day — resolved once, and
    /// the same for everything that reads a date (filters, `add`'s words, field flags, the
    /// editor reactor, `history --since`, `date`): `TASKS_WEEK_START` over the configuration's
    /// `week.start` (`-c` over the file), Monday without either. The configuration is read
    /// only when the environment does not say.
    func dates() throws -> DateContext {
        if let start = read.weekStart { return DateSettings.context(invocation, weekStart: start) }
        let start: Int
        if invocation.environment["TASKS_WEEK_START"].map({ !$0.isEmpty }) == true {
            start = try DateSettings.weekStart(invocation.environment)
        } else {
            start = try configuration().weekStart ?? 0
        }
        read.weekStart = start
        return DateSettings.context(invocation, weekStart: start)
    }

    /// The week's first day if a reading resolved it (`dates()`).
    var resolvedWeekStart: Int? { read.weekStart }

    /// The filter words' settings: the run's dates, the fields (custom ones too).
    func filterSettings(_ configuration: Configuration) throws -> FilterSettings {
        FilterSettings(dates: try dates(), vocabulary: configuration.vocabulary)
    }

    /// The tasks a change acts on (`done`, `delete`, `modify`, …): plain ids as typed (or
    /// stdin's for `-`), else the filter the words spell, over the tasks of `status` unless it
    /// names a status itself, in the active context unless it is only ids.
    /// `deleted`: the filter is read over the deleted tasks alone (`undelete`, `purge`); any
    /// other change refuses a filter that names them. `alwaysAsks`: a terminal is asked even
    /// for a few tasks, or ids.
    func selection(status: TaskQuery.Status = .pending, words: [String]? = nil, deleted: Bool = false, alwaysAsks: Bool = false) throws -> Selection {
        let arguments = words ?? parsed.arguments
        let yes = parsed.has(Option.yes)
        // Read (and so declared) even for ids, which the context never filters.
        let context = parsed.value(Option.context)
        if arguments.isEmpty { return Selection(ids: [], yes: yes) }
        if !alwaysAsks, arguments.contains("-") || arguments.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }) {
            return Selection(ids: words == nil ? try ids() : try arguments.map(IDParser.id), yes: yes)
        }
        var query = try filters(words: arguments, withContext: false)
        if query.filter?.isOnlyIDs != true || query.search != nil || context != nil { query = try filters(words: arguments) }
        // `confirmation = off` in the configuration does not ask, as `--yes` does not.
        let asks = !yes && (alwaysAsks || query.filter?.isOnlyIDs != true) ? try configuration().confirmation : false
        if deleted {
            query.filter = TaskFilter.all([query.filter, .term(.status(.deleted))])
            (query.status, query.waiting, query.expired) = (.all, .shown, .shown)
        } else if query.includesDeleted {
            throw CLIError.usage("deleted tasks are listed, counted and exported, not changed; nothing was changed",
                                 hint: "'tasks undelete FILTER' brings them back")
        }
        if query.filter?.choosesStatus != true { query.status = status }
        if status == .done { query.waiting = .shown; query.expired = .shown }
        query.today = invocation.today()
        query.now = TaskDate.reading(invocation.now(), in: invocation.localTime, today: query.today)
        query.sort = .id
        query.grouping = .none
        return Selection(ids: [], query: query, yes: yes || !asks, asksAlways: alwaysAsks && asks)
    }

    /// The filters `list`, `ui`, `next`, `count` and the changes share: the words and the flags
    /// that spell filter terms (`--list`, `--tag`, `--search`, `--priority`), the context when
    /// `withContext`; the status left as the query's default unless the filter chooses it.
    /// `words` are the arguments unless given.
    func filters(words: [String]? = nil, withContext: Bool = true, report: Report? = nil, context: ContextChoice? = nil) throws -> TaskQuery {
        var query = TaskQuery()
        let choice = context ?? (withContext ? ContextChoice.of(self) : ContextChoice(name: nil, source: ""))
        // The flags spell filter terms in a listing; a change's `--list`, `--tag` and
        // `--priority` are the fields it sets.
        var parts = words == nil ? try FilterInput.flagTerms(self) : []
        if words == nil, let search = parsed.value(Option.search), !search.trimmingWhitespace.isEmpty { query.search = search }
        let words = words ?? parsed.arguments
        if !words.isEmpty || choice.name != nil || report?.filter.isEmpty == false {
            let configuration = try configuration()
            let settings = try filterSettings(configuration)
            let parsedWords = try FilterInput.parse(words, settings)
            if let filter = parsedWords.filter { parts.append(filter) }
            query.limit = parsedWords.limit
            if let context = try choice.definition(in: configuration), !context.filter.trimmingWhitespace.isEmpty {
                // The context's words are a group of their own, ANDed: nothing of the command's
                // `or` reaches into it.
                if let filter = try FilterInput.parse(text: context.filter, settings, source: "context \(context.name): ") { parts.insert(filter, at: 0) }
            }
            // The report's words too: a group of their own, before the command line's.
            if let report, let filter = try FilterInput.parse(text: report.filter, settings, source: "report \(report.name): ") {
                parts.insert(filter, at: 0)
            }
        }
        query.filter = TaskFilter.all(parts)
        if query.filter?.choosesStatus == true {
            query.status = .all
            query.waiting = .shown
            query.expired = .shown
        }
        return query
    }

    /// The query of `list` and `ui`: the filters, with status, waiting, due and order.
    func query(report: Report? = nil, context: ContextChoice? = nil) throws -> TaskQuery {
        var query = try filters(report: report, context: context)
        if let report {
            query.sort = report.sort
            query.grouping = report.grouping
            if let limit = report.limit { query.limit = min(query.limit ?? limit, limit) }
            if report.everyTask {
                query.status = .all
                query.waiting = .shown
                query.expired = .shown
            }
        }
        if parsed.has(Option.all) && parsed.has(Option.done) { throw CLIError.usage("give --all or --done, not both") }
        if parsed.has(Option.all) {
            query.status = .all
            query.waiting = .shown
            query.expired = .shown
        }
        if (parsed.has(Option.done) || parsed.has(Option.waiting) || parsed.has(Option.expired)) && query.filter?.choosesStatus == true {
            query.waiting = .hidden
            query.expired = .hidden
            query.status = .pending
        }
        if parsed.has(Option.done) { query.status = .done }
        if parsed.has(Option.waiting) { query.waiting = .only }
        if parsed.has(Option.expired) {
            if parsed.has(Option.done) { throw CLIError.usage("give --expired or --done, not both: an expired task is pending") }
            query.expired = .only
            query.waiting = .shown
        }
        let today = invocation.today()
        query.today = today
        if let text = parsed.value(Option.dueBefore) {
            // The grammar of --due, with the run's clock, zone and week start.
            let dates = try dates()
            guard case .date(let date) = try TaskFields.spec(.due).judge(text, in: dates) else { throw TaskFieldError.badValue(.due, text) }
            query.dueBefore = date
        }
        query.now = TaskDate.reading(invocation.now(), in: invocation.localTime, today: today)
        query.overdue = parsed.has(Option.overdue)
        try readOrder(into: &query)
        return query
    }

    /// `--sort`, `--group` and `--limit` where the command has them: a named order (`due`), or
    /// keys (`due,priority-`, which list across lists unless `--group` says otherwise).
    func readOrder(into query: inout TaskQuery) throws {
        if let text = parsed.value(Option.sort) {
            if let named = SortChoice(rawValue: text) {
                query.sort = named.sort
            } else {
                let vocabulary = text.contains(where: \.isLetter) ? (try? configuration().vocabulary) ?? .builtIn : .builtIn
                do throws(SortKeyError) { query.sort = .keys(try SortKey.parse(text, vocabulary: vocabulary)) } catch {
                    throw CLIError.usage("'\(error.word)' is not an order" + (error.suggestion.map { " (did you mean '\($0)'?)" } ?? "")
                                         + "; use manual, due, priority or created, or keys such as due,priority- (- descending)",
                                         hint: "the keys: " + error.keys.joined(separator: ", "))
                }
                query.grouping = .none
            }
        }
        // `ui` takes --sort alone: its sections and its window are its own.
        guard parsed.declared.contains(Option.group.long) else { return }
        if let group = try choice(Option.group, GroupChoice.self) { query.grouping = group.grouping }
        if let text = parsed.value(Option.reportLimit) {
            query.limit = try IDParser.count(text)
        }
    }

    /// `--columns id,title,due`: the columns, checked against the configuration's custom fields.
    func columns() throws -> [ReportColumn]? {
        guard let text = parsed.value(Option.columns) else { return nil }
        let vocabulary = text.contains(where: \.isLetter) ? (try? configuration().vocabulary) ?? .builtIn : .builtIn
        do throws(ReportColumn.Refusal) { return try ReportColumn.parse(text, vocabulary: vocabulary) } catch {
            throw CLIError.usage("--columns \(text): \(error.message)")
        }
    }

    /// The tasks of a command whose first argument chooses them and whose other words are text
    /// (`annotate 3 TEXT`, `annotate '+bills due.before:eow' TEXT`): an id, or that one word's
    /// filter words (quoted for the shell when several).
    /// The filter words one word holds (`'+bills list:Home'`, `(+a or +b)`); a word the parser
    /// cannot split is status 2, named.
    static func filterWords(of word: String) throws -> [String] {
        do throws(FilterError) { return try FilterParser.words(of: word) } catch { throw CLIError.usage("'\(word)': \(error.reason)") }
    }

    func selectionWord() throws -> Selection {
        let first = try requiredArgument
        if first == "-" { throw CLIError.usage("'-' (ids on stdin) is not taken here: give an id, or the filter quoted as one word ('+bills list:Home')") }
        let words = try Self.filterWords(of: first)
        guard !words.isEmpty else { throw CLIError.usage("'\(first)' names no task: give an id or a filter") }
        return try selection(words: words)
    }

    /// The field flags of `add` and `edit`, as typed (the editor reactor judges them).
    func fieldFlags(titled: Bool) throws -> FieldFlags {
        var fields = FieldFlags(title: titled ? parsed.value(Option.title) : nil, notes: parsed.value(Option.notes),
                                list: parsed.value(Option.list))
        for (field, option) in Option.edited { fields.typed[field] = parsed.value(option) }
        let every = parsed.value(Option.every), after = parsed.value(Option.repeatAfter)
        if every != nil && after != nil { throw CLIError.usage("give --every or --after, not both") }
        if let every { fields.repeatRule = every.trimmingWhitespace.isEmpty ? "" : "every " + every }
        if let after { fields.repeatRule = after.trimmingWhitespace.isEmpty ? "" : "after " + after }
        for (option, adding, removing) in [(Option.blockedBy, \DependencyChanges.blockedBy, \DependencyChanges.notBlockedBy),
                                           (Option.blocks, \DependencyChanges.blocks, \DependencyChanges.notBlocks)] {
            for text in parsed.values(option) {
                try FieldFlags.readIDs(text, as: "--\(option.long) \(text)", adding: adding, removing: removing, into: &fields.dependencies)
            }
        }
        if let text = parsed.value(Option.parent) {
            let trimmed = text.trimmingWhitespace
            if trimmed.isEmpty {
                fields.dependencies.parent = .clear
            } else if let id = Int64(trimmed), id > 0 {
                fields.dependencies.parent = .set(id)
            } else {
                throw CLIError.usage("'--parent \(text)': '\(trimmed)' is not a task id; give one id, or '' for no parent")
            }
        }
        let sets = parsed.values(Option.setCustom)
        if !sets.isEmpty {
            let configuration = try configuration()
            let dates = try dates()
            for text in sets {
                guard let equals = text.firstIndex(of: "=") else {
                    throw CLIError.usage("'--set \(text)': give NAME=VALUE (NAME= removes the field)")
                }
                let name = String(text[..<equals]).trimmingWhitespace
                guard let field = configuration.customFields[name] else {
                    let declared = configuration.sortedFields.map(\.name)
                    throw CLIError.usage("no custom field '\(name)'" + (declared.isEmpty ? "" : " (declared: \(declared.joined(separator: ", ")))"),
                                         hint: "declare it in \(configuration.path.isEmpty ? "~/.config/tasks/config" : configuration.path): uda.\(name).type = string")
                }
                do throws(CustomField.Refusal) {
                    fields.customs.append(CustomValue(name: name, stored: try field.stored(String(text[text.index(after: equals)...]), in: dates)))
                } catch {
                    throw CLIError.usage(error.message)
                }
            }
        }
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
}

/// Where a line keeps the configuration it read (a line is a value; what it read is shared
/// by its copies within the one run).
final class ConfigurationOnce {
    var value: Configuration?
    /// The week's first day, once resolved (`ParsedLine.dates()`).
    var weekStart: Int?
}

/// What a change acts on: ids, or the tasks a filter chooses.
struct Selection {
    var ids: [Int64]
    var query: TaskQuery?
    /// `--yes`: no question, however many tasks.
    var yes = false
    /// A question on a terminal however few the tasks, and though named by id (`purge`).
    var asksAlways = false

    /// Whether the tasks are named by id only (a change then never asks).
    var byIDs: Bool { !asksAlways && query?.filter?.isOnlyIDs ?? true && query?.search == nil }
}

/// `--group`: the sections a listing falls into.
enum GroupChoice: String, OptionChoice {
    case list, status, none
    static var noun: String { "a grouping" }

    var grouping: TaskQuery.Grouping {
        switch self {
        case .list: .byList
        case .status: .byStatus
        case .none: .none
        }
    }
}

/// `--sort`: the named orders a listing takes (or keys: `SortKey`).
enum SortChoice: String, OptionChoice {
    case manual, due, priority, created
    static var noun: String { "an order" }

    var sort: TaskQuery.Sort {
        switch self {
        case .manual: .manual
        case .due: .due
        case .priority: .priority
        case .created: .created
        }
    }
}
