import QueryLanguage
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

    /// `3,5,-7` (`--blocked-by`, `depends:`): each id added to `adding`, a `-ID` to `removing`;
    /// a word that is no id is refused, named as `word`.
    static func readIDs(_ text: String, as word: String, adding: WritableKeyPath<DependencyChanges, [Int64]>,
                        removing: WritableKeyPath<DependencyChanges, [Int64]>, into changes: inout DependencyChanges) throws {
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let removes = part.hasPrefix("-")
            guard let id = Int64(removes ? part.dropFirst() : part), id > 0 else {
                throw CLIError.usage("'\(word)': '\(part)' is not a task id; give ids, comma-separated, and -ID to remove one")
            }
            changes[keyPath: removes ? removing : adding].append(id)
        }
    }

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
    /// `--format svg`: a picture (`TasksSpec.drawsSVG`) as a standalone SVG, drawn as its
    /// coloured table is (`format` is then `table`).
    var svg = false
    /// The configuration's colour rules, read when colour is on and a rule is set.
    var colorRules = ColorRules.none
}

