import TaskModel
import TaskReactors
import TerminalKit

/// The list screen's prompts that choose what it shows: `/` (the filter grammar) and `@` (a
/// context), and `f`'s reading of a report.
extension ListScreen {
    /// Reads `report` in `context` (with what was typed at `/` over it), or says why not.
    func show(report: String, context: String?, reactor: TaskListReactor) {
        guard let queries else { return }
        switch queries.make(report, context) {
        case .success(let query):
            self.report = report
            self.context = context
            filterBase = query
            var shown = query
            if !filterText.isEmpty, let settings = filterSettings?(), let typed = try? FilterBar.query(filterText, over: query, settings: settings) { shown = typed }
            reactor.action.onNext(.refresh(shown))
        case .failure(let refusal):
            message = StatusMessage(text: refusal.message, isError: true)
        }
    }

    /// A key typed at `/`: each change read as filter words over `filterBase`.
    func handleFilter(_ key: Key, _ typed: TextField, error: String?, reactor: TaskListReactor) {
        var field = typed
        guard let base = filterBase, let settings = filterSettings?() else { return }
        switch key {
        case .escape, .control("c"):
            self.prompt = nil
            if !filterText.isEmpty {
                filterText = ""
                reactor.action.onNext(.refresh(base))
            }
        case .enter:
            // An error keeps the bar open with what was typed: Enter cannot lose it.
            if error == nil { self.prompt = nil }
        default:
            let before = field.text
            _ = field.handle(key)
            guard field.text != before else { return }
            do throws(FilterError) {
                let query = try FilterBar.query(field.text, over: base, settings: settings)
                self.prompt = .filter(field, error: nil)
                filterText = field.text.trimmingWhitespace.isEmpty ? "" : field.text
                reactor.action.onNext(.refresh(query))
            } catch {
                self.prompt = .filter(field, error: FilterBar.message(error))
            }
        }
    }

    /// A key typed at `@`: Tab completes a context, Enter reads the report in it.
    func handleContext(_ key: Key, _ typed: TextField, reactor: TaskListReactor) {
        var field = typed
        switch key {
        case .escape, .control("c"):
            self.prompt = nil
        case .enter:
            self.prompt = nil
            let name = field.text.trimmingWhitespace
            let chosen = name.isEmpty || name == "none" ? nil : name
            if let chosen, queries?.contexts.contains(chosen) != true {
                let names = queries?.contexts ?? []
                message = StatusMessage(text: "no context '\(chosen)'" + (names.isEmpty ? "; none is defined" : "; defined: " + names.joined(separator: ", ")), isError: true)
                return
            }
            show(report: report ?? queries?.reports.first ?? "list", context: chosen, reactor: reactor)
        case .tab:
            if let completion = ListScreen.complete(field.text, among: (queries?.contexts ?? []) + ["none"]) { field = TextField(completion) }
            self.prompt = .context(field)
        default:
            _ = field.handle(key)
            self.prompt = .context(field)
        }
    }
}
