import TaskModel

/// The field flags of `add` and `edit`, as typed; the editor reactor judges them.
struct FieldFlags: Equatable {
    var title: String?
    var notes: String?
    var list: String?
    var addTags: [String] = []
    var removeTags: [String] = []
    /// `every 2w`, `after 3d`, or `''` to stop.
    var repeatRule: String?
    /// The fields of `TaskFields.edited` given, as typed.
    var typed: [TaskField: String] = [:]
    /// `--blocked-by`, `--blocks`: ids to add, and (`-ID`) to remove.
    var dependencies = DependencyChanges()
    /// `--set NAME=VALUE`: custom fields, checked against their declarations.
    var customs: [CustomValue] = []

    var isEmpty: Bool { self == FieldFlags() }

    /// `defaults`' fields where these give none (a context's defaults under the command's own).
    mutating func adopt(_ defaults: FieldFlags) {
        if list == nil { list = defaults.list }
        if repeatRule == nil { repeatRule = defaults.repeatRule }
        for (field, text) in defaults.typed where typed[field] == nil { typed[field] = text }
        for tag in defaults.addTags where !addTags.contains(tag) { addTags.append(tag) }
        for value in defaults.customs where !customs.contains(where: { $0.name == value.name }) { customs.append(value) }
    }
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

