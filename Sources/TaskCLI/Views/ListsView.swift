import ReactorCore
import TaskModel
import TaskReactors
import TextFormats

/// `tasks lists`, `tasks summary` and `tasks tags`: names with their pending and done counts.
final class ListsView: CommandView, View {
    enum Kind { case lists, summary, tags }

    var reactor: TaskListReactor? { didSet { reactorDidChange() } }
    private let kind: Kind

    init(context: ViewContext, kind: Kind) {
        self.kind = kind
        super.init(context: context)
    }

    /// The counts of `kind`, loaded by a list reactor and printed.
    static func show(_ kind: Kind, in context: CommandContext) {
        let reactor = TaskListReactor(service: context.service)
        let view = ListsView(context: context.view, kind: kind)
        view.reactor = reactor
        reactor.action.onNext(kind == .tags ? .loadTags : .loadLists)
    }

    func bind(reactor: TaskListReactor) {
        reactor.whenLoaded(reporting: context.status, disposedBy: disposeBag) { [unowned self] state in
            write(kind == .tags ? state.tags ?? [] : state.lists ?? [])
        }
    }

    /// A list of the hierarchy: its own counts, the counts with the lists under it, and its
    /// depth (a list named only as the parent of others has no tasks of its own).
    struct Node {
        var name: String
        var own: TaskListSummary
        var total: TaskListSummary
        var depth: Int
        var exists: Bool
    }

    /// Every list and every parent a dotted name implies, in hierarchy order, rolled up.
    static func tree(_ lists: [TaskListSummary]) -> [Node] {
        var nodes: [String: Node] = [:]
        for list in lists {
            let parts = list.name.split(separator: ".", omittingEmptySubsequences: false)
            for depth in parts.indices {
                let name = parts[...depth].joined(separator: ".")
                var node = nodes[name] ?? Node(name: name, own: TaskListSummary(name: name, pending: 0, done: 0),
                                               total: TaskListSummary(name: name, pending: 0, done: 0), depth: depth, exists: false)
                node.total.pending += list.pending
                node.total.done += list.done
                if name == list.name {
                    node.own = list
                    node.exists = true
                }
                nodes[name] = node
            }
        }
        return nodes.values.sorted { a, b in
            a.name.split(separator: ".", omittingEmptySubsequences: false).lexicographicallyPrecedes(b.name.split(separator: ".", omittingEmptySubsequences: false))
        }
    }

    private func write(_ rows: [TaskListSummary]) {
        let output = context.console.stdout
        let escapes = context.console.terminal.stdoutIsTerminal
        func shown(_ text: String) -> String { escapes ? TerminalText.escapingControls(text) : text }
        let nodes = kind == .tags ? rows.map { Node(name: $0.name, own: $0, total: $0, depth: 0, exists: true) } : Self.tree(rows)
        let noun = kind == .tags ? "tag" : "list"
        func percent(_ summary: TaskListSummary) -> String {
            let all = summary.pending + summary.done
            return all == 0 ? "0" : String(summary.done * 100 / all)
        }
        switch context.console.settings.format {
        case .table:
            if nodes.isEmpty {
                output.write(kind == .tags ? "No tags.\n" : "No lists.\n")
                return
            }
            let names = nodes.map { String(repeating: "  ", count: $0.depth) + TerminalText.escapingControls(String($0.name.split(separator: ".").last ?? "")) }
            let width = max(5, names.map(TerminalText.displayWidth).max() ?? 0)
            let style = Style(enabled: context.console.settings.color)
            let summary = kind == .summary
            output.write(style.bold(TerminalText.padded(noun.uppercased(), toWidth: width) + "  PENDING   DONE" + (summary ? "  COMPLETE" : "")) + "\n")
            for (name, node) in zip(names, nodes) {
                output.write(TerminalText.padded(kind == .tags ? TerminalText.escapingControls(node.name) : name, toWidth: width) + "  "
                             + TerminalText.leftPadded(String(node.total.pending), toWidth: 7) + "  " + TerminalText.leftPadded(String(node.total.done), toWidth: 5)
                             + (summary ? "  " + TerminalText.leftPadded(percent(node.total) + "%", toWidth: 8) : "") + "\n")
            }
            if summary {
                let all = TaskListSummary(name: "", pending: rows.reduce(0) { $0 + $1.pending }, done: rows.reduce(0) { $0 + $1.done })
                output.write(style.bold(TerminalText.padded("All", toWidth: width) + "  " + TerminalText.leftPadded(String(all.pending), toWidth: 7) + "  "
                                        + TerminalText.leftPadded(String(all.done), toWidth: 5) + "  " + TerminalText.leftPadded(percent(all) + "%", toWidth: 8)) + "\n")
            }
        case .tsv, .ids, .csv:
            var lines: [[String]] = []
            let header: [String]
            switch kind {
            case .tags:
                header = ["tag", "pending", "done"]
                lines = nodes.map { [shown($0.name), String($0.own.pending), String($0.own.done)] }
            case .lists:
                header = ["list", "pending", "done", "pending_within", "done_within"]
                lines = nodes.filter(\.exists).map { [shown($0.name), String($0.own.pending), String($0.own.done), String($0.total.pending), String($0.total.done)] }
            case .summary:
                header = ["list", "pending", "done", "percent"]
                lines = nodes.map { [shown($0.name), String($0.total.pending), String($0.total.done), percent($0.total)] }
            }
            if context.console.settings.format == .csv {
                output.write(CSV.line(header) + lines.map { CSV.line($0) }.joined())
            } else {
                if context.console.settings.header { output.write(TSV.line(header)) }
                output.write(lines.map { TSV.line($0) }.joined())
            }
        case .json:
            let value = JSONValue.array(nodes.filter { kind != .lists || $0.exists }.map { node in
                var fields: [(String, JSONValue)] = [(noun, .string(node.name))]
                let counts = kind == .summary ? node.total : node.own
                fields += [("pending", .number(Int64(counts.pending))), ("done", .number(Int64(counts.done)))]
                if kind == .lists { fields += [("pendingWithin", .number(Int64(node.total.pending))), ("doneWithin", .number(Int64(node.total.done)))] }
                if kind == .summary { fields.append(("percent", .number(Int64(percent(node.total)) ?? 0))) }
                return .object(fields)
            })
            output.write(value.serialized() + "\n")  // escapes every control itself
        }
    }
}
