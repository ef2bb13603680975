#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import TaskInterchange
import TaskReactors

/// `tasks import [FILE]`: tasks from a file or stdin, in one transaction; a task whose uuid
/// is here already is updated.
struct ImportCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "import", abstract: "Read tasks from a file or stdin, in one transaction.",
        discussion: """
            FORMATS (--format):
              json         what 'tasks export' writes (the default)
              taskwarrior  what Taskwarrior's 'task export' writes (2.6 and 3.x)
              todotxt      todo.txt, as todo.txt-cli writes it
            A task whose uuid is already here is updated, not added again: importing
            the same file twice changes nothing. A bad record stops the import, named
            by its number (or line), and nothing is imported. What has no place here
            (Taskwarrior's wait, depends, recurrence…) is named on stderr.
            """,
        arguments: [ArgumentSpec("FILE", help: "The file, or '-' for stdin (the default when stdin is not a terminal).",
                                 optional: true, completion: .files)],
        options: [Option.importFormat]
    )
    static let changesTasks = true

    /// The formats `import` reads (csv is written by export only).
    enum Format: String, OptionChoice {
        case json, taskwarrior, todotxt
        static var noun: String { "an import format" }
        /// `todo.txt` is `todotxt`.
        init?(word text: String) { self.init(rawValue: text.lowercased().replacing(".", with: "")) }
    }

    /// The file read and parsed (not yet checked against the task rules).
    let file: ImportedFile
    /// Where it came from, for messages: `stdin` or `'tasks.json'`.
    let source: String

    init(_ line: ParsedLine) throws {
        let text = line.value(Option.importFormat) ?? "json"
        let format = try ParsedLine.choice(text, Format.self, orElse: text.lowercased() == "csv" ? " (csv is written by export only)" : "")
        let path = line.arguments.first ?? "-"
        source = path == "-" ? "stdin" : "'\(path)'"
        let bytes = try Self.read(path, source: source, line)
        do {
            switch format {
            case .json: file = try TaskJSON.read(bytes)
            case .taskwarrior:
                let declared = Set(try line.configuration().customFields.keys)
                file = try Taskwarrior.read(bytes, localTime: line.invocation.localTime, customFields: declared)
            case .todotxt: file = try TodoTxt.read(bytes, localTime: line.invocation.localTime)
            }
        } catch let error as InterchangeError {
            throw CLIError.usage("cannot import \(source): \(error); nothing was imported")
        }
    }

    /// The bytes of `path`, or of stdin for `-`.
    private static func read(_ path: String, source: String, _ line: ParsedLine) throws -> [UInt8] {
        if path == "-" {
            if line.arguments.isEmpty && line.invocation.stdin.isTerminal {
                throw CLIError.usage("'import' needs a FILE, or tasks on stdin: tasks import FILE, or ... | tasks import -")
            }
            return line.invocation.stdin.readToEnd()
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { throw CLIError.usage("cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard let read = Input.readAll(descriptor: descriptor) else {
            throw CLIError.usage("cannot read \(source): \(String(cString: strerror(errno)))")
        }
        return read
    }

    func run(_ context: CommandContext) {
        let reactor = TaskImportReactor(service: context.service)
        let view = ImportView(context: context.view, file: file, source: source)
        view.reactor = reactor
        reactor.action.onNext(.importTasks(file.batch))
    }
}
