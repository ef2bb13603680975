#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskModel
import TextFormats

/// The configuration file: `$XDG_CONFIG_HOME/tasks/config`, else `~/.config/tasks/config`
/// (`ConfigText`'s TOML subset). A missing file is an empty configuration. What it holds so
/// far: the custom fields (`uda.NAME.type`, `uda.NAME.values`, `uda.NAME.label`, as
/// Taskwarrior names them). Any other key, a bad value or a syntax error is status 2 naming
/// the file, the line and the key.
struct Configuration {
    /// Where it was read from (for messages).
    let path: String
    /// The custom fields declared, by name.
    let customFields: [String: CustomField]

    static let empty = Configuration(path: "", customFields: [:])

    /// The file `environment` names.
    static func path(_ environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/tasks/config" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/tasks/config" }
        return nil
    }

    /// The configuration of `environment`: read and checked.
    static func load(_ environment: [String: String]) throws(CLIError) -> Configuration {
        guard let path = path(environment) else { return .empty }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT || errno == ENOTDIR { return Configuration(path: path, customFields: [:]) }
            // A folder on the way this user may not enter (running in someone else's HOME, as
            // `sudo -u` does): not this user's configuration, so none. A file that is there
            // but cannot be read is an error.
            let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
            if errno == EACCES && access(folder, X_OK) != 0 { return Configuration(path: path, customFields: [:]) }
            throw CLIError.usage("cannot read the configuration \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard let bytes = Input.readAll(descriptor: descriptor) else {
            throw CLIError.usage("cannot read the configuration \(path): \(String(cString: strerror(errno)))")
        }
        return try read(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// `text`, the file at `path`, read and checked.
    static func read(_ text: String, path: String) throws(CLIError) -> Configuration {
        let config: ConfigText
        do throws(ConfigText.Failure) {
            config = try ConfigText(text)
        } catch {
            throw CLIError.usage("\(path):\(error.line): \(error.reason)")
        }
        var kinds: [String: (CustomField.Kind, Int)] = [:]
        var values: [String: [String]] = [:]
        for entry in config.entries {
            func refuse(_ reason: String) -> CLIError { CLIError.usage("\(path):\(entry.line): \(reason)") }
            let words = entry.key.split(separator: ".").map(String.init)
            guard words.count == 3, words[0] == "uda" else {
                throw refuse("unknown key '\(entry.key)'; this version reads uda.NAME.type, uda.NAME.values and uda.NAME.label")
            }
            let name = words[1]
            guard CustomField.isName(name) else {
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
        return Configuration(path: path, customFields: fields)
    }

    /// The declared fields, by name.
    var sortedFields: [CustomField] { customFields.keys.sorted().compactMap { customFields[$0] } }
}
