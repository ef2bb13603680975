#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QueryLanguage
import TaskModel
import TextFormats

/// The configuration file: `$XDG_CONFIG_HOME/tasks/config`, else `~/.config/tasks/config`
/// (`ConfigText`'s TOML subset). A missing file is an empty configuration. What it holds so
/// far: the custom fields (`uda.NAME.type`, `uda.NAME.values`, `uda.NAME.label`, as
/// Taskwarrior names them). Any other key, a bad value or a syntax error is status 2 naming
/// the file, the line and the key.
struct Configuration {
    /// Where it was read from (for messages).
    var path: String
    /// The custom fields declared, by name.
    var customFields: [String: CustomField]
    /// The contexts defined (`context.NAME.filter`, `context.NAME.defaults`), by name.
    var contexts: [String: ContextDefinition] = [:]
    /// The reports defined (`report.NAME.filter|columns|sort|limit|description`), by name.
    var reports: [String: ReportDefinition] = [:]
    /// `default.list`: the list a new task goes to when none is given.
    var defaultList: String?
    /// `default.command`: what `tasks` alone runs (a report's name or `list`).
    var defaultCommand: String?
    /// `next.*`: the points of `next`'s score.
    var rankWeights = TaskRank.Weights.standard
    /// `week.start`: `monday` … `sunday`.
    var weekStart: Int?
    /// `abbreviation.minimum`: the fewest letters that shorten a field's name (Taskwarrior's, 2).
    var abbreviationMinimum = FieldVocabulary.defaultMinimumAbbreviation
    /// `confirmation`: whether a change of many tasks chosen by a filter asks first on a
    /// terminal (Taskwarrior's key; `off` is `--yes` for every command).
    var confirmation = true
    /// `color`: auto, always or never.
    var color: String?
    /// The remotes configured (`remote.NAME.url|user|password-command|ca|timeout|insecure`), by name.
    var remotes: [String: RemoteDefinition] = [:]
    /// `hooks`: whether hooks run (on by default); `hooks.location`, their folder (Taskwarrior's
    /// key; `~/` is the home); `hooks.timeout`, the seconds one may take.
    var hooks = true
    var hooksLocation: String?
    var hooksTimeout = HookRunner.defaultTimeout
    /// `holiday.NAME.name|date|start|end`: the days `tasks calendar` marks, by name.
    var holidays: [String: HolidayDefinition] = [:]
    /// `color.RULE = STYLE` (Taskwarrior's colour rules, `Configuration+Colors.swift`), in the
    /// file's order; `rule.precedence.color`, their order; `rule.color.merge`.
    var colors: [ColorSetting] = []
    var colorPrecedence: [String]?
    var colorMerge = true
    /// `mcp.write`, `mcp.allow-write`, `mcp.max-changes`: what `tasks mcp` may change.
    var mcp = MCPSettings()
    /// Entries a program built on TaskCLI adds to the built-in vocabulary (`Invocation.fields`).
    var addedFields: [QueryField] = []

    init(path: String, customFields: [String: CustomField]) {
        self.path = path
        self.customFields = customFields
    }

    static let empty = Configuration(path: "", customFields: [:])

    /// The keys a configuration may set, for messages and `tasks config`.
    static let keyForms = "uda.NAME.type|values|label, context.NAME.filter|defaults, report.NAME.filter|columns|sort|limit|description, "
        + "remote.NAME.url|user|password-command|ca|timeout|insecure, default.list, default.command, week.start, abbreviation.minimum, confirmation, color, "
        + "hooks, hooks.location, hooks.timeout, holiday.NAME.name|date|start|end, color.RULE, rule.precedence.color, rule.color.merge, "
        + "mcp.write, mcp.allow-write, mcp.max-changes, next.due.*|next.priority.*|next.age.*"

    /// The file `environment` names.
    static func path(_ environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/tasks/config" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/tasks/config" }
        return nil
    }

    /// The configuration of `environment`: read and checked.
    static func load(_ environment: [String: String], overrides: [String] = []) throws(CLIError) -> Configuration {
        guard let path = path(environment) else { return try read("", path: "", overrides: overrides) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT || errno == ENOTDIR { return try read("", path: path, overrides: overrides) }
            // A folder on the way this user may not enter (running in someone else's HOME, as
            // `sudo -u` does): not this user's configuration, so none. A file that is there
            // but cannot be read is an error.
            let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            if errno == EACCES && access(folder, X_OK) != 0 { return try read("", path: path, overrides: overrides) }
            throw CLIError.usage("cannot read the configuration \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard let bytes = Input.readAll(descriptor: descriptor) else {
            throw CLIError.usage("cannot read the configuration \(path): \(String(cString: strerror(errno)))")
        }
        return try read(String(decoding: bytes, as: UTF8.self), path: path, overrides: overrides)
    }

    /// `text`, the file at `path`, read and checked.
    static func read(_ text: String, path: String, overrides: [String] = []) throws(CLIError) -> Configuration {
        var config: ConfigText
        do throws(ConfigText.Failure) {
            config = try ConfigText(text)
        } catch {
            throw CLIError.usage("\(path):\(error.line): \(error.reason)")
        }
        for override in overrides {
            guard let equals = override.firstIndex(of: "="), ConfigText.isKey(String(override[..<equals]).trimmingWhitespace) else {
                throw CLIError.usage("'-c \(override)': give KEY=VALUE, as -c color=never")
            }
            config.override(String(override[..<equals]).trimmingWhitespace, String(override[override.index(after: equals)...]))
        }
        var kinds: [String: (CustomField.Kind, Int)] = [:]
        var values: [String: [String]] = [:]
        var result = Configuration(path: path, customFields: [:])
        for entry in config.entries {
            func refuse(_ reason: String) -> CLIError {
                CLIError.usage(entry.line == 0 ? "-c \(entry.key)=\(entry.value): \(reason)" : "\(path):\(entry.line): \(reason)")
            }
            let words = entry.key.split(separator: ".").map(String.init)
            if try result.readSetting(entry, words, refuse) { continue }
            guard words.count == 3, words[0] == "uda" else {
                throw refuse("unknown key '\(entry.key)'; the keys are \(keyForms)")
            }
            let name = words[1]
            guard CustomField.isName(name), FieldVocabulary.builtIn.named(name) == nil else {
                throw refuse("'\(name)' cannot name a custom field: lower-case letters, digits and _, a letter first, and not a field of tasks")
            }
            switch words[2] {
            case "type":
                guard !entry.isArray, let kind = CustomField.Kind(rawValue: entry.value) else {
                    throw refuse("uda.\(name).type is '\(entry.values.joined(separator: ", "))'; use string, number, date or duration")
                }
                kinds[name] = (kind, entry.line)
            case "values":
                guard !entry.values.isEmpty, entry.values.allSatisfy({ !$0.trimmingWhitespace.isEmpty }) else {
                    throw refuse("uda.\(name).values needs values: uda.\(name).values = [\"S\", \"M\", \"L\"]")
                }
                values[name] = entry.isArray ? entry.values : entry.value.split(separator: ",").map { String($0).trimmingWhitespace }
            case "label": break
            default: throw refuse("unknown key '\(entry.key)'; a custom field has type, values and label")
            }
        }
        var fields: [String: CustomField] = [:]
        for name in values.keys.sorted() where kinds[name] == nil {
            throw CLIError.usage("\(path): uda.\(name).values is given, but not uda.\(name).type; add uda.\(name).type = string")
        }
        for (name, (kind, line)) in kinds {
            if values[name] != nil && kind != .string {
                throw CLIError.usage("\(path):\(line): uda.\(name) has values, so its type is string, not \(kind.rawValue)")
            }
            fields[name] = CustomField(name: name, kind: kind, values: values[name] ?? [])
        }
        result.customFields = fields
        try result.checkColorFields()
        // Each report's columns, order and limit, now that the custom fields are known.
        for name in result.reports.keys.sorted() {
            do { _ = try Report.named(name, in: result) } catch let error as CLIError { throw error } catch { throw CLIError.usage("\(error)") }
        }
        return result
    }

    /// A key other than a custom field's, read into its place; false for a key it is not.
    private mutating func readSetting(_ entry: ConfigText.Entry, _ words: [String], _ refuse: (String) -> CLIError) throws(CLIError) -> Bool {
        func single() throws(CLIError) -> String {
            guard !entry.isArray else { throw refuse("\(entry.key) takes one value, not an array") }
            return entry.value
        }
        switch (words.first, words.count) {
        case ("holiday", 3): try readHoliday(words[1], words[2], try single(), refuse)
        case ("mcp", 2): try mcp.read(words[1], try single(), refuse)
        case ("color", 2...):
            try readColor(entry, words, refuse)
        case ("rule", 3) where words[1...] == ["precedence", "color"] || words[1...] == ["color", "merge"]:
            try readColor(entry, words, refuse)
        case ("context", 3):
            let name = words[1]
            guard ContextDefinition.isName(name) else { throw refuse("'\(name)' cannot name a context: letters, digits, - and _") }
            var context = contexts[name] ?? ContextDefinition(name: name)
            switch words[2] {
            case "filter": context.filter = try single()
            case "defaults": context.defaults = try single()
            default: throw refuse("unknown key '\(entry.key)'; a context has filter and defaults")
            }
            context.line = entry.line
            contexts[name] = context
        case ("report", 3):
            let name = words[1]
            guard ContextDefinition.isName(name) else { throw refuse("'\(name)' cannot name a report: letters, digits, - and _") }
            var report = reports[name] ?? ReportDefinition(name: name)
            let text = entry.isArray ? entry.values.joined(separator: ",") : entry.value
            switch words[2] {
            case "filter": report.filter = text
            case "columns": report.columns = text
            case "sort": report.sort = text
            case "limit": report.limit = text
            case "description": report.description = text
            default: throw refuse("unknown key '\(entry.key)'; a report has filter, columns, sort, limit and description")
            }
            report.line = entry.line
            reports[name] = report
        case ("remote", 3):
            let name = words[1]
            guard ContextDefinition.isName(name) else { throw refuse("'\(name)' cannot name a remote: letters, digits, - and _") }
            var remote = remotes[name] ?? RemoteDefinition(name: name)
            let value = try single()
            switch words[2] {
            case "url": remote.url = value
            case "user": remote.settings.user = value
            case "password-command": remote.settings.passwordCommand = value
            case "ca": remote.settings.ca = value
            case "timeout":
                guard let seconds = Int(value), (1...86_400).contains(seconds) else {
                    throw refuse("\(entry.key) is '\(value)'; give the seconds one sync may take, from 1 to 86400")
                }
                remote.settings.timeout = seconds
            case "insecure":
                guard value == "true" || value == "false" else { throw refuse("\(entry.key) is '\(value)'; use true or false") }
                remote.settings.insecure = value == "true"
            default: throw refuse("unknown key '\(entry.key)'; a remote has url, user, password-command, ca, timeout and insecure")
            }
            remote.line = entry.line
            remotes[name] = remote
        case ("default", 2) where words[1] == "list":
            let list = try single()
            do throws(TaskFieldError) {
                defaultList = try FieldRules.list(list, typed: true)
            } catch {
                throw refuse("default.list: \(error)")
            }
        case ("default", 2) where words[1] == "command":
            defaultCommand = try single()
        case ("week", 2) where words[1] == "start":
            let day = try single().lowercased()
            guard let index = CalendarDay.weekdayNames.firstIndex(where: { $0 == day || $0.prefix(3) == day }) else {
                throw refuse("week.start is '\(day)'; use a weekday: monday … sunday")
            }
            weekStart = index
        case ("next", 3):
            guard let keyPath = TaskRank.Weights.keys.first(where: { $0.0 == entry.key })?.1 else {
                throw refuse("unknown key '\(entry.key)'; next's weights are " + TaskRank.Weights.keys.map(\.0).joined(separator: ", "))
            }
            let text = try single()
            guard let points = Int(text), (-10_000...10_000).contains(points) else {
                throw refuse("\(entry.key) is '\(text)'; give a whole number of points from -10000 to 10000")
            }
            rankWeights[keyPath: keyPath] = points
        case ("confirmation", 1), ("hooks", 1):
            let text = try single().lowercased()
            guard let on = Self.onOff(text) else {
                throw refuse("\(entry.key) is '\(text)'; use on or off")
            }
            if words[0] == "hooks" { hooks = on } else { confirmation = on }
        case ("hooks", 2) where words[1] == "location":
            let folder = try single()
            guard folder.hasPrefix("/") || folder.hasPrefix("~/") else {
                throw refuse("hooks.location is '\(folder)'; give a folder's whole path (/… or ~/…)")
            }
            hooksLocation = folder
        case ("hooks", 2) where words[1] == "timeout":
            let text = try single()
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw refuse("hooks.timeout is '\(text)'; give the seconds a hook may take, from 1 to 3600")
            }
            hooksTimeout = seconds
        case ("abbreviation", 2) where words[1] == "minimum":
            let text = try single()
            guard let letters = Int(text), (1...20).contains(letters) else {
                throw refuse("abbreviation.minimum is '\(text)'; give a number of letters from 1 to 20")
            }
            abbreviationMinimum = letters
        case ("color", 1):
            let when = try single()
            guard ["auto", "always", "never"].contains(when) else { throw refuse("color is '\(when)'; use auto, always or never") }
            color = when
        default:
            return false
        }
        return true
    }

    /// The declared fields, by name.
    /// The fields the query language names: the built-in ones and these custom ones.
    var vocabulary: FieldVocabulary {
        var vocabulary = FieldVocabulary.builtIn.adding(addedFields).adding(customFields)
        vocabulary.minimumAbbreviation = abbreviationMinimum
        return vocabulary
    }

    var sortedFields: [CustomField] { customFields.keys.sorted().compactMap { customFields[$0] } }
}

/// A context: the filter it ANDs into listings and changes, and the fields a new task gets
/// in it — declared (`defaults`), or, as Taskwarrior 2.6 derives its write context, the
/// filter itself when it is a plain AND of fields a task can be given (`writeWords`).
struct ContextDefinition: Equatable {
    var name: String
    var filter = ""
    /// Filter-shaped words a new task takes as its fields (`list:Work +work`).
    var defaults = ""
    var line = 0

    /// The words a new task in this context takes: the declared defaults, or else the
    /// filter's words when every one sets what it selects (`list:Work`, `project:Work`, `+work`,
    /// `priority:H`, a custom field's `name:value`) and nothing else is in it (no `or`, `not`,
    /// parenthesis, modifier or `-tag`); empty when neither.
    func writeWords(_ vocabulary: FieldVocabulary) -> [String] {
        if !defaults.trimmingWhitespace.isEmpty { return (try? FilterParser.words(of: defaults)) ?? [] }
        guard let words = try? FilterParser.words(of: filter), !words.isEmpty else { return [] }
        for word in words {
            let tag = word.dropFirst()
            // `+tag` (not a virtual one, all capitals).
            if word.hasPrefix("+"), !tag.isEmpty, !tag.contains(" "), !tag.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "_") }) { continue }
            guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else { return [] }
            let name = String(word[..<colon])
            guard FilterParser.isNameShaped(name), !name.contains("."), !word[word.index(after: colon)...].isEmpty,
                  let field = vocabulary.field(name, role: .set), field.custom != nil || field.stored == .list || field.stored == .priority else { return [] }
        }
        return words
    }

    static func isName(_ name: String) -> Bool {
        !name.isEmpty && name != "none" && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

/// A remote configured by name: its address and how to log in (never a password itself).
struct RemoteDefinition: Equatable {
    var name: String
    var url = ""
    var settings = RemoteSettings()
    var line = 0
}

/// A report defined in the configuration: a filter, columns, an order and a limit.
struct ReportDefinition: Equatable {
    var name: String
    var filter = ""
    var columns = ""
    var sort = ""
    var limit = ""
    var description = ""
    var line = 0
}
