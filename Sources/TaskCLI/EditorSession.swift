#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskModel

/// `tasks edit ID` on a terminal: the title and notes in `$VISUAL`/`$EDITOR`, as `git commit`.
struct EditorSession {
    let invocation: Invocation

    static let instructions = """
        # The first line is the title; the lines after a blank line are the notes.
        # Lines starting with '#' are left out. An empty title leaves the task as it was.
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
        title + "\n\n" + (notes.isEmpty ? "" : notes + "\n") + "\n" + instructions + "\n# Task \(id).\n"
    }

    /// The title (first line) and notes (after the blank line), comments left out; `nil`
    /// when the title is empty.
    static func parse(_ text: String) -> (String, String)? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.hasPrefix("#") }
        while let first = lines.first, first.trimmingWhitespace.isEmpty { lines.removeFirst() }
        guard let title = lines.first?.trimmingWhitespace, !title.isEmpty else { return nil }
        lines.removeFirst()
        while let first = lines.first, first.trimmingWhitespace.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.trimmingWhitespace.isEmpty { lines.removeLast() }
        return (title, lines.joined(separator: "\n"))
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return Input.readAll(descriptor: descriptor)
    }
}
