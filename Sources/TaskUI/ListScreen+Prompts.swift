import QueryLanguage
import TaskModel
import TaskReactors
import TerminalKit
import TextFormats

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
                showSoon(query, reactor: reactor)
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
            field = TextField(ListScreen.cycle(field.text, among: (queries?.contexts ?? []) + ["none"]))
            self.prompt = .context(field)
        default:
            _ = field.handle(key)
            self.prompt = .context(field)
        }
    }

    /// Tab at a prompt of names: a name begun is completed (to the longest start its matches
    /// share); a whole name, or nothing, goes on to the next one that begins as typed, round.
    static func cycle(_ typed: String, among names: [String]) -> String {
        guard !names.isEmpty else { return typed }
        if let index = names.firstIndex(of: typed) { return names[(index + 1) % names.count] }
        if !typed.isEmpty, let completion = complete(typed, among: names), completion.count > typed.count { return completion }
        return names.first { $0.lowercased().hasPrefix(typed.lowercased()) } ?? typed
    }

    /// The `@` prompt's words: the contexts there are, so that a person need not remember them.
    func contextPrompt(columns: Int) -> String {
        let names = (queries?.contexts ?? []) + ["none"]
        let list = TerminalText.truncated(names.joined(separator: " "), toWidth: max(8, columns / 2))
        return "Context (\(list); Tab cycles): "
    }

    /// `query` read once the keys already typed are handled: what is typed is drawn at once,
    /// and of several keys typed before the query could run only the last query runs. It
    /// reads the first screenful (a scan that stops once it has them: fast for the first
    /// letters), and counts on a later turn unless typing has made another query meanwhile.
    /// Without `afterKeys` (a test), at once and whole.
    func showSoon(_ query: TaskQuery, reactor: TaskListReactor) {
        guard let afterKeys else { return reactor.action.onNext(.refresh(query)) }
        let alreadyQueued = pendingQuery != nil
        pendingQuery = query
        if alreadyQueued { return }
        afterKeys { [weak self, weak reactor] in
            guard let self, let reactor, let query = pendingQuery else { return }
            pendingQuery = nil
            reactor.action.onNext(.open(query))
            afterKeys { [weak self, weak reactor] in
                guard let self, let reactor, pendingQuery == nil, reactor.currentState.query == query else { return }
                reactor.action.onNext(.count)
            }
        }
    }
}
