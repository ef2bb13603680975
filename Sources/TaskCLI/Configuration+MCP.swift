/// What `tasks mcp` may change: nothing unless the configuration says so (`mcp.write = on`,
/// or `mcp.allow-write = FILTER`, the only tasks an agent may change or make), and at most
/// `mcp.max-changes` tasks in one call. `tasks mcp --read-only` and `--allow-write FILTER`
/// override them for one run.
struct MCPSettings: Equatable {
    var write = false
    var allowWrite: String?
    var maxChanges = MCPSettings.defaultMaxChanges

    static let defaultMaxChanges = 50

    mutating func read(_ key: String, _ value: String, _ refuse: (String) -> CLIError) throws(CLIError) {
        switch key {
        case "write":
            guard let on = Configuration.onOff(value.lowercased()) else { throw refuse("mcp.write is '\(value)'; use on or off") }
            write = on
        case "allow-write":
            guard !value.trimmingWhitespace.isEmpty else {
                throw refuse("mcp.allow-write is empty; give the filter of the tasks an agent may change (+agent, list:Errands), or set mcp.write = on")
            }
            allowWrite = value
        case "max-changes":
            guard let count = Int(value), (1...10_000).contains(count) else {
                throw refuse("mcp.max-changes is '\(value)'; give how many tasks one call may change, from 1 to 10000")
            }
            maxChanges = count
        default:
            throw refuse("unknown key 'mcp.\(key)'; tasks mcp reads mcp.write, mcp.allow-write and mcp.max-changes")
        }
    }
}
