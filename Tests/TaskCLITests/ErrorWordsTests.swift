@testable import TaskCLI
import TaskModel
import Testing

/// Issue 24: `tasks show 999` said "nothing was changed" for a read. Only a command that changes
/// tasks may say it; every storage error is worded for both kinds of command.
@Suite("Error words: \"nothing was changed\" only where something could have been")
struct ErrorWordsTests {
    static let storageErrors: [TaskServiceError] = [
        .notFound(ids: [9]), .notFound(ids: [9, 10]), .moveRelativeToItself(id: 1), .notPending(id: 3, title: "t", action: "started"),
        .dependencyCycle(ids: [1]), .dependencyCycle(ids: [1, 2]), .noSuchAnnotation(id: 1, pick: "2"), .nothingToUndo, .nothingToRedo, .noSuchEntry(3),
        .notUndoable(entry: 2, reason: "why"), .changedLater(entry: 2, taskID: 3, title: "t", later: 5, laterSummary: "s"),
        .notADatabase(path: "f", reason: "r"), .damaged(path: "f", reason: "r"), .readOnly(path: "f"), .locked(path: "f"),
        .diskFull(path: "f"), .newerSchema(path: "f", found: 9, supported: 6), .cannotCreate(path: "f", reason: "r"),
        .cannotOpen(path: "f", reason: "r", folderIsReadOnly: true), .cannotOpen(path: "f", reason: "r", folderIsReadOnly: false),
        .ioFailure(path: "f", reason: "r"), .unexpected("x"),
    ]

    @Test(arguments: storageErrors)
    func aReadNeverSaysNothingWasChanged(error: TaskServiceError) {
        let read = ErrorPresenter.present(error, changes: false)
        #expect(!read.text.contains("nothing was changed") && !read.text.contains("left untouched"), "\(read.text)")
        let change = ErrorPresenter.present(error, changes: true)
        #expect(change.status == read.status)
        #expect(change.message.hasPrefix(read.message), "the same words, with the outcome added: \(change.message)")
    }

    @Test func theCommandsThatChangeNothingAreTheReadingOnes() {
        let reading = CommandRegistry.commands.filter { !$0.changesTasks }.map { $0.spec.name }
        #expect(reading == ["list", "next", "count", "active", "show", "lists", "tags", "summary", "stats", "burndown", "ghistory", "calendar", "timesheet", "history", "report", "context", "config", "hooks", "mcp", "date", "export", "completions", "help"])
        let changing = CommandRegistry.commands.filter { $0.changesTasks }.map { $0.spec.name }
        #expect(changing == ["add", "log", "toggle", "done", "reopen", "start", "stop", "edit", "modify", "append", "prepend", "annotate", "denotate", "duplicate", "delete", "undelete", "purge", "move", "ui", "undo", "redo", "sync", "import"])
        #expect(!VersionCommand.changesTasks)
    }
}
