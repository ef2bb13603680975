import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// `tasks lists`: each list with its pending and done counts.
final class ListsView: CommandView, View {
    var reactor: TaskListReactor? { didSet { reactorDidChange() } }

    func bind(reactor: TaskListReactor) {
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] state in write(state.lists ?? []) }
    }

    private func write(_ lists: [TaskListSummary]) {
        let output = context.console.stdout
        let escapes = context.console.terminal.stdoutIsTerminal
        func shown(_ text: String) -> String { escapes ? TerminalText.escapingControls(text) : text }
        switch context.console.settings.format {
        case .table:
            if lists.isEmpty {
                output.write("No lists.\n")
                return
            }
            let names = lists.map { TerminalText.escapingControls($0.name) }
            let width = max(4, names.map(TerminalText.displayWidth).max() ?? 0)
            let style = Style(enabled: context.console.settings.color)
            output.write(style.bold(TerminalText.padded("LIST", toWidth: width) + "  PENDING   DONE") + "\n")
            for (name, list) in zip(names, lists) {
                output.write(TerminalText.padded(name, toWidth: width) + "  " + TerminalText.leftPadded(String(list.pending), toWidth: 7)
                             + "  " + TerminalText.leftPadded(String(list.done), toWidth: 5) + "\n")
            }
        case .tsv, .ids:
            if context.console.settings.header { output.write(TSV.line(["list", "pending", "done"])) }
            for list in lists { output.write(TSV.line([shown(list.name), String(list.pending), String(list.done)])) }
        case .csv:
            output.write(CSV.line(["list", "pending", "done"]))
            for list in lists { output.write(CSV.line([shown(list.name), String(list.pending), String(list.done)])) }
        case .json:
            let value = JSONValue.array(lists.map {
                .object([("list", .string($0.name)), ("pending", .number(Int64($0.pending))), ("done", .number(Int64($0.done)))])
            })
            output.write(value.serialized() + "\n")  // escapes every control itself
        }
    }
}
