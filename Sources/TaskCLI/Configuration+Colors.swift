import QueryLanguage
import TextFormats

/// One `color.NAME = STYLE` line: the name after `color.`, the style, and its line.
struct ColorSetting: Equatable {
    var name: String
    var style: TerminalStyle
    var line: Int
}

extension Configuration {
    /// The rules Taskwarrior colours rows by, and the filter words each stands for (a tag,
    /// list, keyword or custom field rule is made from its name: `colorRule`).
    static let colorRuleWords: [String: String] = [
        "overdue": "+OVERDUE", "due.today": "+TODAY", "due": "+DUE", "active": "+ACTIVE", "blocked": "+BLOCKED",
        "blocking": "+BLOCKING", "scheduled": "+SCHEDULED", "until": "+UNTIL", "recurring": "+REPEATING", "tagged": "+TAGGED",
        "completed": "+COMPLETED", "deleted": "+DELETED", "tag.none": "-TAGGED", "project.none": "-PROJECT",
    ]

    /// Taskwarrior's other colour keys: read and checked (a switcher's file keeps working),
    /// not drawn — the table's header is bold and the charts keep their colours.
    static let colorKeysNotDrawn: Set<String> = [
        "header", "footnote", "alternate", "label", "label.sort", "warning", "error", "debug", "summary.bar", "summary.background",
        "calendar.today", "calendar.due", "calendar.due.today", "calendar.overdue", "calendar.weekend", "calendar.holiday",
        "calendar.scheduled", "calendar.weeknumber", "history.add", "history.done", "history.delete", "burndown.pending",
        "burndown.started", "burndown.done", "sync.added", "sync.changed", "sync.rejected", "undo.before", "undo.after",
    ]

    /// A switch's words (`on`, `yes`, `true`, `1`; `off`, `no`, `false`, `0`), else nil: for
    /// `confirmation`, `hooks` and `rule.color.merge` alike.
    static func onOff(_ text: String) -> Bool? {
        ["on": true, "yes": true, "true": true, "1": true, "off": false, "no": false, "false": false, "0": false][text.lowercased()]
    }

    /// `color.NAME = STYLE`, `rule.precedence.color` and `rule.color.merge`.
    mutating func readColor(_ entry: ConfigText.Entry, _ words: [String], _ refuse: (String) -> CLIError) throws(CLIError) {
        guard !entry.isArray else { throw refuse("\(entry.key) takes one value, not an array") }
        if words[0] == "rule" {
            if words[1] == "color" {
                guard let merge = Self.onOff(entry.value) else {
                    throw refuse("rule.color.merge is '\(entry.value)'; use on or off")
                }
                colorMerge = merge
                return
            }
            var order: [String] = []
            for item in entry.value.split(separator: ",").map({ String($0).trimmingWhitespace }) where !item.isEmpty {
                guard Self.colorRuleWords[item] != nil || ["tag.", "project.", "keyword.", "uda."].contains(item) else {
                    throw refuse("rule.precedence.color names '\(item)', no colour rule; the rules are "
                        + Self.defaultOrderText + ", until, tag.none, project.none")
                }
                order.append(item)
            }
            colorPrecedence = order
            return
        }
        let name = words.dropFirst().joined(separator: ".")
        let prefixed = ["tag.", "project.", "keyword.", "uda."].contains { name.hasPrefix($0) && name.count > $0.count }
        guard Self.colorRuleWords[name] != nil || prefixed || Self.colorKeysNotDrawn.contains(name) else {
            throw refuse("unknown key '\(entry.key)'; the colour rules are color.overdue, color.due.today, color.due, color.active, color.blocked, "
                + "color.blocking, color.scheduled, color.until, color.recurring, color.tagged, color.completed, color.deleted, "
                + "color.tag.NAME, color.project.NAME, color.keyword.WORD, color.uda.NAME[.VALUE]")
        }
        do throws(StyleError) {
            let style = try TerminalStyle(taskwarrior: entry.value)
            colors.removeAll { $0.name == name }
            colors.append(ColorSetting(name: name, style: style, line: entry.line))
        } catch {
            throw refuse("\(entry.key): \(error.description)")
        }
    }

    static var defaultOrderText: String { ColorRules.defaultPrecedence.joined(separator: ", ") }

    /// The colour rules, strongest first, their filters read with `settings`; a rule whose
    /// words name no field (`color.uda.size.L` with no field `size`) is status 2 naming its line.
    func colorRules(_ settings: FilterSettings) throws -> ColorRules {
        let drawn = colors.filter { !$0.style.isPlain && !Self.colorKeysNotDrawn.contains($0.name) }
        guard !drawn.isEmpty else { return .none }
        var rules: [ColorRule] = []
        // Each entry of the order takes the rule of its name, or (ending in `.`) every rule
        // under it, in name order — as Taskwarrior completes `tag.` among its keys.
        for item in colorPrecedence ?? ColorRules.defaultPrecedence {
            let matching = item.hasSuffix(".") ? drawn.filter { $0.name.hasPrefix(item) }.sorted { $0.name < $1.name } : drawn.filter { $0.name == item }
            for setting in matching where !rules.contains(where: { $0.key == "color." + setting.name }) {
                let words = try Self.colorRuleFilterWords(setting.name, settings.vocabulary, line: setting.line, path: path)
                guard let filter = try FilterInput.parse(words, settings, source: "\(path):\(setting.line): color.\(setting.name): ").filter else { continue }
                rules.append(ColorRule(key: "color." + setting.name, style: setting.style, filter: filter))
            }
        }
        return ColorRules(rules: rules, merges: colorMerge)
    }

    /// Each custom field's colour rule names a field there is (checked once the fields are read).
    func checkColorFields() throws(CLIError) {
        for setting in colors where setting.name.hasPrefix("uda.") {
            _ = try Self.colorRuleFilterWords(setting.name, vocabulary, line: setting.line, path: path)
        }
    }

    /// The filter words a rule stands for.
    static func colorRuleFilterWords(_ name: String, _ vocabulary: FieldVocabulary, line: Int, path: String) throws(CLIError) -> [String] {
        if let words = colorRuleWords[name] { return [words] }
        let parts = name.split(separator: ".", maxSplits: 2).map(String.init)
        let rest = parts.dropFirst().joined(separator: ".")
        switch parts[0] {
        case "tag": return ["+" + rest]
        case "project": return ["list:" + rest]
        case "keyword": return [rest]
        default:
            guard parts.count >= 2, vocabulary.named(parts[1]) != nil else {
                throw CLIError.usage("\(path):\(line): color.\(name) names '\(parts.count > 1 ? parts[1] : "")', no field; declare it as uda.NAME.type")
            }
            if parts.count == 2 { return [parts[1] + ".any:"] }
            return [parts[1] + ":" + (parts[2] == "none" ? "" : parts[2])]
        }
    }
}
