import QueryLanguage
import TaskModel
import TextFormats

/// Filter words as a command reads them: parsed with the run's clock, zone, week start and
/// custom fields, a bad word a usage error (status 2) before the database is opened.
enum FilterInput {
    /// `words` parsed; a word in error is named with its place among them.
    static func parse(_ words: [String], _ settings: FilterSettings, source: String = "") throws -> ParsedFilter {
        do throws(FilterError) {
            return try FilterParser(settings: settings).parse(words)
        } catch {
            throw CLIError.usage(source + error.description,
                                 hint: "filters are documented in 'tasks help filters'; --explain shows how words are read")
        }
    }

    /// The text of a context's or a report's filter, parsed (its words are split as a shell would).
    static func parse(text: String, _ settings: FilterSettings, source: String) throws -> TaskFilter? {
        do throws(FilterError) {
            return try FilterParser(settings: settings).parse(try FilterParser.words(of: text)).filter
        } catch {
            throw CLIError.usage(source + error.description)
        }
    }

    /// The flags `--list`, `--tag`, `--priority` as the filter terms they spell.
    static func flagTerms(_ line: ParsedLine) throws -> [TaskFilter] {
        var parts: [TaskFilter] = []
        if let list = line.value(Option.inList) {
            guard !list.trimmingWhitespace.isEmpty else { throw CLIError.usage("'--list' needs a list name") }
            parts.append(.term(.list(list, exact: false)))
        }
        for text in line.values(Option.withTag) {
            // `-t` and `!t` leave a tag out; `+t` and `t` ask for it.
            let excluded = text.hasPrefix("-") || text.hasPrefix("!")
            let tag = FieldRules.tagWord(excluded ? String(text.dropFirst()) : text)
            try FieldRules.checkTag(tag, typed: true)
            parts.append(excluded ? .not(.term(.tag(tag))) : .term(.tag(tag)))
        }
        if let text = line.value(Option.withPriority) {
            guard let priority = try FieldRules.priority(text) else { throw TaskFieldError.badValue(.priority, text) }
            if let term = FilterParser.priorityTerm(priority) { parts.append(.term(term)) }
        }
        return parts
    }
}

/// The context a run is in: `--context NAME` over `TASKS_CONTEXT` over the one `tasks context
/// NAME` chose (kept in the state file, not the configuration); `none` is none.
struct ContextChoice {
    /// Its name, or nil.
    let name: String?
    /// Where the choice came from: `--context`, `TASKS_CONTEXT` or the saved setting.
    let source: String

    /// The state file: `$XDG_STATE_HOME/tasks/context`, else `~/.local/state/tasks/context`.
    static func statePath(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/tasks/context" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/tasks/context" }
        return nil
    }

    /// The saved choice (the first line of the state file), if any.
    static func saved(_ environment: [String: String]) -> String? {
        guard let path = statePath(environment), let bytes = StateFile.read(path) else { return nil }
        let name = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map { String($0).trimmingWhitespace } ?? ""
        return name.isEmpty || name == "none" ? nil : name
    }

    static func of(_ line: ParsedLine) -> ContextChoice {
        if let flag = line.value(Option.context) { return ContextChoice(name: flag == "none" || flag.isEmpty ? nil : flag, source: "--context") }
        if let variable = line.invocation.environment["TASKS_CONTEXT"] {
            return ContextChoice(name: variable == "none" || variable.isEmpty ? nil : variable, source: "TASKS_CONTEXT")
        }
        return ContextChoice(name: saved(line.invocation.environment), source: "tasks context")
    }

    /// What a table says above its rows when a context is active: `Context work: list:Work or
    /// +work` (nil without one), so that an empty list under a context is never a surprise.
    func headerLine(in line: ParsedLine) throws -> String? {
        guard name != nil, let context = try definition(in: try line.configuration()) else { return nil }
        return "Context \(context.name): \(context.filter.trimmingWhitespace)"
    }

    /// The definition of the chosen context, from `configuration`; an unknown name is a usage
    /// error naming the contexts there are.
    func definition(in configuration: Configuration) throws -> ContextDefinition? {
        guard let name else { return nil }
        guard let context = configuration.contexts[name] else {
            let names = configuration.contexts.keys.sorted()
            throw CLIError.usage("no context '\(name)' (chosen by \(source))" + (names.isEmpty ? "; none is defined" : "; defined: \(names.joined(separator: ", "))"),
                                 hint: "define it with: tasks context define \(name) 'FILTER', or choose none: tasks context none")
        }
        return context
    }
}
