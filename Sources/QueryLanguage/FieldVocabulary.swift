import TaskModel
import TextFormats

/// The query language's words for fields, in one table: every filter word's field, every
/// `--sort` key, every report column and every field `add`'s words set is an entry here —
/// the stored fields from `TaskFields.all` (their `words`), the ones made from others (`id`,
/// `uuid`, `status`, `score`) below, and the configuration's custom fields added at start-up
/// (`adding(_:)`). The filter parser, the sort keys, the columns, `add`'s words and the shells'
/// completions all look names up here, so a name, an alias or an abbreviation means the same
/// in each of them.
public struct FieldVocabulary: Sendable {
    /// The entries: the id and uuid, the stored fields in `TaskFields.all`'s order, the status
    /// and the score, then custom fields.
    public let fields: [QueryField]
    /// Every name and alias (lower case) to its entry.
    private let exact: [String: Int]
    /// The fewest letters that shorten a name (`du` for due): Taskwarrior's
    /// `abbreviation.minimum`, 2 unless the configuration says otherwise.
    public var minimumAbbreviation = FieldVocabulary.defaultMinimumAbbreviation
    public static let defaultMinimumAbbreviation = 2

    public init(_ fields: [QueryField]) {
        self.fields = fields
        var exact: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            for name in field.names where exact[name.lowercased()] == nil { exact[name.lowercased()] = index }
        }
        self.exact = exact
    }

    /// The built-in fields.
    public static let builtIn = FieldVocabulary(derived.prefix(2) + TaskFields.all.compactMap(entry) + derived.dropFirst(2))

    /// The built-in dates that keep a task from being ready while ahead (`+READY`).
    static let heldBack = builtIn.fields.filter(\.holdsBack)

    /// These entries and `custom`'s fields (sorted by name).
    public func adding(_ custom: [String: CustomField]) -> FieldVocabulary {
        custom.isEmpty ? self : adding(custom.keys.sorted().compactMap { custom[$0] }.map(Self.entry))
    }

    /// These entries and `more`.
    public func adding(_ more: [QueryField]) -> FieldVocabulary {
        var vocabulary = FieldVocabulary(fields + more)
        vocabulary.minimumAbbreviation = minimumAbbreviation
        return vocabulary
    }

    /// The entry `typed` names, whatever its roles: a name or an alias, any case.
    public func named(_ typed: String) -> QueryField? { exact[typed.lowercased()].map { fields[$0] } }

    /// The entry `typed` names for `role`: a name or an alias, or `minimumAbbreviation` letters
    /// or more that begin the names of one entry only (`du`, `pri`, `sched`); nil when none
    /// (or several: `pr` is priority and project).
    public func field(_ typed: String, role: QueryRoles) -> QueryField? {
        let lowered = typed.lowercased()
        if let index = exact[lowered] { return fields[index].roles.contains(role) ? fields[index] : nil }
        guard lowered.count >= minimumAbbreviation else { return nil }
        let begun = Set(fields.indices.filter { fields[$0].roles.contains(role) && fields[$0].names.contains { $0.hasPrefix(lowered) } })
        guard begun.count == 1, let index = begun.first else { return nil }
        return fields[index]
    }

    /// The names (with the alias begun, when it is one: `project (list)`) of the entries with
    /// `role` that `typed` begins, for a word too short to choose one.
    public func begun(by typed: String, role: QueryRoles) -> [String] {
        let lowered = typed.lowercased()
        guard lowered.count >= minimumAbbreviation else { return [] }
        return fields(role).compactMap { field in
            guard let name = field.names.first(where: { $0.hasPrefix(lowered) }) else { return nil }
            return name == field.name ? name : "\(name) (\(field.name))"
        }
    }

    /// The entries with `role`, in order.
    public func fields(_ role: QueryRoles) -> [QueryField] { fields.filter { $0.roles.contains(role) } }

    /// The names (not aliases) of the entries with `role`.
    public func names(_ role: QueryRoles) -> [String] { fields(role).map(\.name) }

    /// The name or alias of an entry with `role` closest to `typed`, for a suggestion.
    public func closest(to typed: String, role: QueryRoles) -> String? {
        Suggestion.closest(to: typed.lowercased(), among: fields(role).flatMap(\.names))
    }
}

extension FieldVocabulary {
    /// The entry of a stored field, from its `words` (none: the query language does not name it).
    static func entry(_ spec: TaskFieldSpec) -> QueryField? {
        guard let words = spec.words?() else { return nil }
        let stored = spec.stored, kind = spec.kind, column = spec.column
        let isPriority = kind == .priority
        let read: @Sendable (Task, QueryContext) -> QueryValue?
        if isPriority {
            // H above M above L above none: 3, 2, 1 (and 0 for none, `missing`).
            read = { task, _ in stored(task).integer.map { .integer(3 - $0) } }
        } else {
            read = { task, _ in QueryValue(stored(task)) }
        }
        return QueryField(name: spec.name, aliases: words.aliases, type: words.type ?? type(of: kind), roles: words.roles, stored: spec.field,
                          isOptional: kind.isOptional, defaultModifier: words.defaultModifier, missing: isPriority ? .integer(0) : nil, read: read,
                          sql: { _ in isPriority ? "(3 - \(column))" : column },
                          cell: words.cell ?? { task, context, forTable in Self.cell(kind, stored(task), task, context, forTable) },
                          ordering: words.ordering, setTag: words.setTag, holdsBack: words.holdsBack)
    }

    /// A custom field's entry: kept in `extras` as Taskwarrior writes it, read in SQL by
    /// `tasks_custom` (`SQLiteTaskService.defineFilterFunctions`).
    public static func entry(_ field: CustomField) -> QueryField {
        let name = field.name, kind = field.kind
        let type: QueryType
        switch kind {
        case .string: type = .text
        case .number: type = .number
        case .duration: type = .duration
        case .date: type = .date(.stamp)
        }
        return QueryField(name: name, type: type, roles: .every, custom: field, isOptional: true,
                          read: { task, _ in
                              switch CustomComparable.of(ExtrasText.value(name, in: task.extras), kind) {
                              case .none: nil
                              case .text(let text)?: .text(text)
                              case .number(let number)?: .real(number)
                              case .seconds(let seconds)?: .integer(seconds)
                              }
                          },
                          sql: { _ in "tasks_custom(extras, '\(name) \(kind.rawValue)')" },
                          cell: { task, context, _ in ExtrasText.value(name, in: task.extras).map { field.shown($0, zone: context.zone) } ?? "" })
    }

    /// The fields made from others: the id and uuid (a task's identity), its status, its score.
    static let derived: [QueryField] = [
        QueryField(name: "id", type: .id, roles: [.filter, .sort, .column], isOptional: false,
                   read: { task, _ in .integer(task.id) }, sql: { _ in "id" }, cell: { task, _, _ in String(task.id) }),
        QueryField(name: "uuid", type: .uuid, roles: [.filter, .column], isOptional: false,
                   read: { task, _ in .text(task.uuid) }, sql: { _ in "uuid" }, cell: { task, _, _ in task.uuid }),
        // The start of the uuid that is the task's alone (`TaskWriter.shortUUIDs` finds it for a
        // listing; eight digits where none is asked).
        QueryField(name: "short", type: .uuid, roles: [.column], isOptional: false,
                   read: { task, _ in .text(task.uuid) }, sql: { _ in "uuid" }, cell: { task, _, _ in String(task.uuid.prefix(8)) }),
        QueryField(name: "status", type: .status, roles: [.filter, .column], isOptional: false,
                   read: { task, _ in .integer(task.isDone ? 1 : 0) }, sql: { _ in "done" },
                   cell: { task, context, forTable in doneCell(task, forTable) }),
        QueryField(name: "score", aliases: ["urgency"], type: .number, roles: .shown, isOptional: false,
                   read: { task, context in .integer(Int64(TaskRank(task, today: context.today, weights: context.weights).score)) },
                   sql: { context in TaskRank.sql(today: context.today, weights: context.weights) },
                   cell: { task, context, _ in String(TaskRank(task, today: context.today, weights: context.weights).score) }),
    ]

    /// What a field of `kind` is to a query.
    static func type(of kind: FieldKind) -> QueryType {
        switch kind {
        case .text, .optionalText: .text
        case .date: .date(.text)
        case .time: .date(.milliseconds)
        case .priority: .priority
        case .tags: .tags
        case .number: .number
        case .duration: .duration
        case .flag, .day, .rule, .annotations, .reminders: .shown
        }
    }

    /// `done`'s cell: `[x]`, `[↻]` (repeats), `[ ]` on a table; `true` or `false` in a record.
    /// A deleted task's (listed by `status:deleted`): `[-]`, `deleted`.
    public static func doneCell(_ task: Task, _ forTable: Bool) -> String {
        if task.isDeleted { return forTable ? "[-]" : "deleted" }
        return forTable ? (task.isDone ? "[x]" : task.repeat != nil ? "[↻]" : "[ ]") : (task.isDone ? "true" : "false")
    }

    /// A stored value's cell by its kind: a date or a time on the local clock on a table (a
    /// record: as stored, a time in UTC as `history` and `export` write moments), tags as
    /// `+a +b`, the first line of text.
    static func cell(_ kind: FieldKind, _ value: SyncValue, _ task: Task, _ context: QueryContext, _ forTable: Bool) -> String {
        switch (kind, value) {
        case (_, .null): return ""
        case (.flag, _): return doneCell(task, forTable)
        case (.date, .text(let text)):
            guard forTable, let date = TaskDate(text), !date.isDay else { return text }
            return date.shown(in: context.zone)
        case (.time, .integer(let milliseconds)):
            let stamp = Timestamp(millisecondsSince1970: milliseconds)
            return forTable ? TaskDate(stamp, in: context.zone).shown(in: context.zone) : TimestampText.iso8601(stamp)
        case (.priority, .integer(let rank)): return Priority(rank: rank)?.rawValue ?? ""
        case (.tags, .text(let text)):
            let tags = TagsText.decode(text)
            return forTable ? tags.map { "+" + $0 }.joined(separator: " ") : tags.joined(separator: " ")
        case (_, .text(let text)): return forTable ? String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") : text
        case (_, .integer(let number)): return String(number)
        }
    }
}

extension QueryValue {
    /// A stored value as a query reads it (nil: none).
    init?(_ value: SyncValue) {
        switch value {
        case .null: return nil
        case .text(let text): self = .text(text)
        case .integer(let number): self = .integer(number)
        }
    }
}

