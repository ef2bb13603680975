#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CommandLineKit
import TaskInterchange
import TaskModel
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

    /// The file read and parsed (not yet checked against the task rules); for our JSON, what
    /// the stream has read so far (nothing but the array's opening).
    let file: ImportedFile
    /// Our JSON, read a record at a time while the import writes (Taskwarrior's and todo.txt
    /// files are read whole: a Taskwarrior series is sorted out across its records).
    let stream: TaskJSONStream?
    /// Where it came from, for messages: `stdin` or `'tasks.json'`.
    let source: String
    /// The most of a Taskwarrior or todo.txt file read (they are read whole): what a million
    /// tasks take, so that the memory an import holds has a bound whatever it is fed.
    static let wholeLimit = 512 << 20

    init(_ line: ParsedLine) throws {
        let text = line.value(Option.importFormat) ?? "json"
        let format = try ParsedLine.choice(text, Format.self, orElse: text.lowercased() == "csv" ? " (csv is written by export only)" : "")
        let path = line.arguments.first ?? "-"
        source = path == "-" ? "stdin" : "'\(path)'"
        let (input, size) = try Self.input(path, source: source, line)
        let source = source
        func whole() throws -> [UInt8] {
            let (bytes, tooLarge) = input.readAll(atMost: Self.wholeLimit)
            if tooLarge {
                throw CLIError.usage("cannot import \(source): a \(text) file is read whole (a Taskwarrior series is sorted out across its "
                                     + "records) and this one is over \(Self.wholeLimit >> 20) MB; nothing was imported",
                                     hint: "split it, or import our JSON (tasks export), which is read a record at a time in bounded memory")
            }
            guard let bytes else { throw CLIError.usage("cannot read \(source): \(String(cString: strerror(errno)))") }
            return bytes
        }
        do {
            switch format {
            case .json:
                let stream = TaskJSONStream(size: size) { buffer, count in Self.read(input, into: &buffer, count: count) }
                // The array's opening is read now, so that input that is no array of tasks is
                // refused before the database is opened; the records are read as they are written.
                try stream.begin()
                self.stream = stream
                file = ImportedFile(batch: TaskImportBatch(records: []))
            case .taskwarrior:
                let declared = Set(try line.configuration().customFields.keys)
                stream = nil
                file = try Taskwarrior.read(whole(), localTime: line.invocation.localTime, customFields: declared)
            case .todotxt:
                stream = nil
                file = try TodoTxt.read(whole(), localTime: line.invocation.localTime)
            }
        } catch let error as InterchangeError {
            throw CLIError.usage("cannot import \(source): \(error); nothing was imported")
        } catch let error as TaskImportInputError {
            throw CLIError.usage("cannot import \(source): \(error); nothing was imported")
        }
    }

    /// The input of `path` (`-`: stdin), opened, with its size when it is a file.
    private static func input(_ path: String, source: String, _ line: ParsedLine) throws -> (Input, size: Int?) {
        if path == "-" {
            if line.arguments.isEmpty && line.invocation.stdin.isTerminal {
                throw CLIError.usage("'import' needs a FILE, or tasks on stdin: tasks import FILE, or ... | tasks import -")
            }
            return (line.invocation.stdin, nil)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { throw CLIError.usage("cannot read \(source): \(String(cString: strerror(errno)))") }
        let input = Input.file(descriptor: descriptor)
        var facts = stat()
        guard fstat(descriptor, &facts) == 0 else { return (input, nil) }
        if (facts.st_mode & S_IFMT) == S_IFDIR { throw CLIError.usage("cannot read \(source): \(String(cString: strerror(EISDIR)))") }
        return (input, (facts.st_mode & S_IFMT) == S_IFREG ? Int(facts.st_size) : nil)
    }

    /// Up to `count` more bytes of `input` at the end of `buffer` (the stream's `Read`).
    private static func read(_ input: Input, into buffer: inout [UInt8], count: Int) -> Result<Int, TaskImportInputError> {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        let got = buffer.withUnsafeMutableBytes { input.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
        buffer.removeLast(count - max(got, 0))
        return got < 0 ? .failure(TaskImportInputError("reading stopped: \(String(cString: strerror(errno)))")) : .success(got)
    }

    func run(_ context: CommandContext) {
        let reactor = TaskImportReactor(service: context.service)
        // (A file this import made is taken away again when it fails: TasksProgram.)
        let view = ImportView(context: context.view, file: file, source: source, streamed: stream != nil)
        view.reactor = reactor
        if let stream {
            if stream.isEmpty {
                reactor.action.onNext(.importTasks(TaskImportBatch(records: [])))
            } else {
                reactor.action.onNext(.importStream(stream))
            }
        } else {
            reactor.action.onNext(.importTasks(file.batch))
        }
    }
}
