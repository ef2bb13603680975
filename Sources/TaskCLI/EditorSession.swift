#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskModel

/// `tasks edit ID` on a terminal: the title and notes in `$VISUAL`/`$EDITOR`, as `git commit`.
struct EditorSession {
    let invocation: Invocation

    /// The line that ends what the user wrote, as `git commit --cleanup=scissors` has it:
    /// everything from the last such line on is the template's own text. Nothing above it is
    /// taken out, so notes keep every line — `# Heading`, `#42` — byte for byte.
    static let scissors = "# ------------------------ >8 ------------------------"

    static let instructions = """
        # Do not change or remove the line above: everything below it is left out.
        # The first line is the title; the lines after the blank line below it are the
        # notes, kept exactly as written. An empty title leaves the task as it was.
        """

    /// `nil` when the editor could not run; `.some(nil)` when nothing changed; else the new
    /// title and notes.
    func edit(_ task: Task) -> (String, String)?? {
        let editor = [invocation.environment["VISUAL"], invocation.environment["EDITOR"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let folder = invocation.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/tasks-edit-XXXXXX.txt").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemps($0, 4) } ?? -1
        }
        guard descriptor >= 0 else { return nil }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let original = EditorSession.text(title: task.title, notes: task.notes, id: task.id)
        let written = Array(original.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == original.utf8.count, invocation.runEditor(editor, path) == 0,
              let bytes = EditorSession.readFile(path), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        guard let (title, notes) = EditorSession.parse(text), title != task.title || notes != task.notes else { return .some(nil) }
        return .some((title, notes))
    }

    static func text(title: String, notes: String, id: Int64) -> String {
        title + "\n\n" + (notes.isEmpty ? "" : notes + "\n") + scissors + "\n" + instructions + "\n# Task \(id).\n"
    }

    /// The title (the first line that is not blank) and the notes (after the blank line that
    /// follows it, up to the line before the scissors line, exactly); `nil` when the title is
    /// empty. Without the scissors line (the user removed it), the template's own lines are
    /// taken out where they are found whole at the end.
    static func parse(_ text: String) -> (String, String)? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let cut = lines.lastIndex(of: scissors) {
            lines.removeSubrange(cut...)
        } else {
            let template = instructions.split(separator: "\n").map(String.init)
            while let last = lines.last, last.isEmpty || template.contains(last) || (last.hasPrefix("# Task ") && last.hasSuffix(".")) {
                lines.removeLast()
            }
        }
        while let first = lines.first, first.trimmingWhitespace.isEmpty { lines.removeFirst() }
        guard let title = lines.first?.trimmingWhitespace, !title.isEmpty else { return nil }
        lines.removeFirst()
        if lines.first?.isEmpty == true { lines.removeFirst() }
        return (title, lines.joined(separator: "\n"))
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return Input.readAll(descriptor: descriptor)
    }
}
