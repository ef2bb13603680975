/// Where the database is: `--db`, `$TASKS_DB`, `$XDG_DATA_HOME/tasks/tasks.db`,
/// `~/.local/share/tasks/tasks.db`, first to last.
enum DatabaseLocation {
    static func path(option: String?, environment: [String: String]) throws(CLIError) -> String {
        if let option {
            guard !option.isEmpty else { throw CLIError.usage("--db needs a path") }
            return option
        }
        if let path = environment["TASKS_DB"], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/tasks/tasks.db" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/tasks/tasks.db" }
        throw CLIError.failure("cannot tell where the database is: HOME is not set",
                               hint: "give --db PATH, or set TASKS_DB or XDG_DATA_HOME")
    }
}
