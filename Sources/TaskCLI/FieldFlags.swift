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

