import TaskModel
import TextFormats

extension Task {
    /// The task as a terminal may show it: controls in its text fields escaped (`\e`, `\x07`),
    /// line breaks in the notes kept. Every writer that prints to a terminal goes by this.
    func escapingControls() -> Task {
        var task = self
        task.title = TerminalText.escapingControls(title)
        task.notes = notes.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.escapingControls(String($0)) }.joined(separator: "\n")
        task.list = TerminalText.escapingControls(list)
        task.tags = tags.map(TerminalText.escapingControls)
        return task
    }
}
