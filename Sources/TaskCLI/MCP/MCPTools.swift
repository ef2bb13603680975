import CommandLineKit
import QueryLanguage
import TaskModel
import TaskReactors
import TaskStore
import TextFormats

/// What a tool returns: `structuredContent` and the short text beside it.
struct ToolResult {
    var structured: JSONValue
    var text: String
}

/// Why a tool could not do what was asked, in the words the CLI uses: a tool error
/// (`isError`), which the agent reads and can act on.
struct ToolFailure: Error {
    var message: String

    init(_ message: String) { self.message = message }

    /// Any error, as the CLI would word it.
    init(presenting error: any Error) {
        let presented = ErrorPresenter.present(error, changes: false)
        message = presented.message + (presented.hint.map { " (\($0))" } ?? "")
    }
}

/// One tool: its name, what it is for, its schemas and hints, and what it does.
struct MCPTool: Sendable {
    let name: String
    let title: String
    let description: String
    let input: JSONValue
    let output: JSONValue
    let readOnly: Bool
    /// It may overwrite or remove what is there (not only add to it).
    var destructive = false
    let run: @Sendable (MCPCall) throws -> ToolResult

    /// Its entry in `tools/list`.
    var listed: JSONValue {
        .object([
            ("name", .string(name)), ("title", .string(title)), ("description", .string(description)),
            ("inputSchema", input), ("outputSchema", output),
            ("annotations", .object([
                ("readOnlyHint", .bool(readOnly)), ("destructiveHint", .bool(destructive)), ("idempotentHint", .bool(readOnly)),
                ("openWorldHint", .bool(false)),
            ])),
        ])
    }
}

/// JSON Schema, as the tools declare their arguments and results.
enum Schema {
    static func object(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        .object([("type", .string("object")), ("properties", .object(properties)), ("required", .array(required.map(JSONValue.string))),
                 ("additionalProperties", .bool(false))])
    }

    /// An object whose members are not all listed (results: more may come).
    static func open(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        .object([("type", .string("object")), ("properties", .object(properties)), ("required", .array(required.map(JSONValue.string)))])
    }

    static func string(_ description: String, oneOf words: [String]? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string("string")), ("description", .string(description))]
        if let words { members.append(("enum", .array(words.map(JSONValue.string)))) }
        return .object(members)
    }

    static func integer(_ description: String, _ range: ClosedRange<Int64>, default value: Int64? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string("integer")), ("description", .string(description)),
                                              ("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))]
        if let value { members.append(("default", .number(value))) }
        return .object(members)
    }

    static func array(_ items: JSONValue) -> JSONValue { .object([("type", .string("array")), ("items", items)]) }

    static func array(_ description: String, of items: JSONValue, most: Int) -> JSONValue {
        .object([("type", .string("array")), ("description", .string(description)), ("items", items), ("minItems", .number(1)),
                 ("maxItems", .number(Int64(most)))])
    }

    static func boolean(_ description: String) -> JSONValue {
        .object([("type", .string("boolean")), ("description", .string(description)), ("default", .bool(false))])
    }

    static let plainString: JSONValue = .object([("type", .string("string"))])
    static let plainInteger: JSONValue = .object([("type", .string("integer"))])
    static let plainBool: JSONValue = .object([("type", .string("boolean"))])
}

/// One `tools/call`: its arguments, read with their types checked, and the run it belongs to.
struct MCPCall {
    let arguments: [(String, JSONValue)]
    let session: MCPSession
    /// The client that called, from its `clientInfo` (`claude-code 2.1.0`), for the history.
    let client: String

    /// The arguments, none of them a name the tool does not take.
    init(arguments: JSONValue?, tool: MCPTool, session: MCPSession, client: String = "") throws {
        self.session = session
        self.client = client
        switch arguments {
        case nil, .null?: self.arguments = []
        case .object(let members)?: self.arguments = members
        default: throw ToolFailure("'arguments' must be an object")
        }
        let known = tool.input["properties"]?.members?.map(\.0) ?? []
        if let unknown = self.arguments.first(where: { !known.contains($0.0) }) {
            throw ToolFailure("\(tool.name) takes no argument '\(unknown.0)'; it takes " + (known.isEmpty ? "none" : known.joined(separator: ", ")))
        }
    }

    private func value(_ name: String) -> JSONValue? {
        guard let value = arguments.last(where: { $0.0 == name })?.1, value != .null else { return nil }
        return value
    }

    /// The most bytes a string argument may hold (notes are the longest a person writes), and
    /// words to be read (a filter, modifications) — a shell passes none longer than 128 KiB.
    static let mostText = 1 << 20
    static let mostWords = 64 << 10

    func string(_ name: String, most: Int = MCPCall.mostText) throws -> String? {
        guard let value = value(name) else { return nil }
        guard let text = value.string else { throw ToolFailure("'\(name)' must be a string") }
        try Self.bounded(text, name, most: most)
        return text
    }

    /// Refuses `text` past `most` bytes, before anything reads it.
    static func bounded(_ text: String, _ name: String, most: Int) throws {
        guard text.utf8.count <= most else { throw ToolFailure("'\(name)' is \(text.utf8.count) bytes; at most \(most) are read") }
    }

    func integer(_ name: String, _ range: ClosedRange<Int64>, default fallback: Int64) throws -> Int {
        guard let value = value(name) else { return Int(fallback) }
        guard let number = value.integer else { throw ToolFailure("'\(name)' must be a whole number") }
        guard range.contains(number) else { throw ToolFailure("'\(name)' is \(number); give \(range.lowerBound) to \(range.upperBound)") }
        return Int(number)
    }

    func bool(_ name: String) throws -> Bool {
        guard let value = value(name) else { return false }
        guard case .bool(let flag) = value else { throw ToolFailure("'\(name)' must be true or false") }
        return flag
    }

    /// An array argument's items, at most `most` of them.
    func items(_ name: String, most: Int) throws -> [JSONValue]? {
        guard let value = value(name) else { return nil }
        guard let items = value.elements else { throw ToolFailure("'\(name)' must be an array") }
        guard !items.isEmpty else { throw ToolFailure("'\(name)' is empty") }
        guard items.count <= most else { throw ToolFailure("'\(name)' holds \(items.count) items; one call takes at most \(most)") }
        return items
    }

    /// The arguments but `leaving`, as one text in name order: what a plan was made for.
    func canonical(leaving: Set<String>) -> String {
        JSONValue.object(arguments.filter { !leaving.contains($0.0) && $0.1 != .null }.sorted { $0.0 < $1.0 }).serialized()
    }

    func choice(_ name: String, _ words: [String], default fallback: String) throws -> String {
        guard let text = try string(name) else { return fallback }
        guard words.contains(text) else { throw ToolFailure("'\(name)' is '\(text)'; use " + words.joined(separator: ", ")) }
        return text
    }

    /// `filter`'s words, split as a shell splits them (`'list:My List' +bills`).
    func filterWords(_ name: String = "filter") throws -> [String] {
        guard let text = try string(name, most: Self.mostWords), !text.trimmingWhitespace.isEmpty else { return [] }
        do { return try FilterParser.words(of: text) } catch { throw ToolFailure(presenting: error) }
    }

    /// A command line read as the CLI reads it: `words` after `--`, so that no word is an option.
    func line(_ command: [String], words: [String]) throws -> ParsedLine {
        do {
            let parsed = try CommandParser(root: TasksSpec.root).parse(command + ["--"] + words)
            return ParsedLine(parsed: parsed, invocation: session.invocation)
        } catch { throw ToolFailure(presenting: error) }
    }
}
