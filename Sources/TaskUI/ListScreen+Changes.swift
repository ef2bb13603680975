import TaskModel
import TaskReactors
import TerminalKit

/// The change keys without the editor — `p` priority, `D` due, `w` wait, `t` tags, `A`
/// annotate, `b` start/stop, `m` move, and `x`, `d` — on the marked tasks when there are marks
/// (one command for all: one history entry, one `u`), else on the task under the cursor; and
/// the marks themselves (`v`, `V`, `*`, `Esc`) and `:42`. A deleted task (a filter naming
/// `status:deleted` lists them) takes no change but `U`, which brings it back.
extension ListScreen {
    /// The keys that change the tasks they act on (`e` opens the editor on one).
    static let changeKeys: Set<Character> = [" ", "x", "d", "p", "D", "w", "t", "A", "b", "m", "e", "J", "K"]

    /// A change key: its prompt opened, or its change sent. Returns false when `key` is not one.
    func handleChangeKey(_ key: Key, _ state: TaskListReactor.State, reactor: TaskListReactor) -> Bool {
        let targets = state.targets
        let deleted = state.window.rows.filter { $0.isDeleted && targets.contains($0.id) }.map(\.id)
        if case .character(let letter) = key, !deleted.isEmpty, Self.changeKeys.contains(letter) {
            let which = deleted.count == 1 ? "task \(deleted[0]) is deleted" : "\(deleted.count) of them are deleted"
            message = StatusMessage(text: "\(which): U brings \(deleted.count == 1 ? "it" : "them") back first", isError: true)
            return true
        }
        switch key {
        case .character("U"):
            guard !deleted.isEmpty else {
                message = StatusMessage(text: "U brings back a deleted task; a filter with status:deleted lists them", isError: true)
                return true
            }
            changeVerb = "Restored"
            send(.undeleteTasks(deleted), marked: state, reactor: reactor)
        case .character("v"):
            guard let task = state.cursorTask else { return true }
            reactor.action.onNext(.mark(.toggle(task.id)))
            reactor.action.onNext(.moveCursor(to: state.cursor + 1))
        case .character("V"):
            reactor.action.onNext(.mark(.range(to: state.cursor)))
        case .character("*"):
            reactor.action.onNext(.mark(.all))
        case .escape where !state.marks.isEmpty:
            reactor.action.onNext(.mark(.clear))
        case .character(":"):
            prompt = .jump(TextField())
        case .character(" "), .character("x"):
            guard !targets.isEmpty else { return true }
            send(.toggleTasksDone(targets), marked: state, reactor: reactor)
        case .character("d"):
            if state.marks.isEmpty {
                if let task = state.cursorTask { reactor.action.onNext(.askToDelete(task.id)) }
            } else {
                prompt = .confirmDelete(targets)
            }
        case .character("p"):
            if !targets.isEmpty { prompt = .priority(targets) }
        case .character("D"):
            if !targets.isEmpty { prompt = .date(.due, targets, TextField(), preview: nil) }
        case .character("w"):
            if !targets.isEmpty { prompt = .date(.wait, targets, TextField(), preview: nil) }
        case .character("t"):
            if !targets.isEmpty { prompt = .tags(targets, TextField()) }
        case .character("A"):
            if !targets.isEmpty { prompt = .annotate(targets, TextField()) }
        case .character("b"):
            guard !targets.isEmpty else { return true }
            // Stop when every one of them the screen holds is running; else start them all.
            let held = state.window.rows.filter { targets.contains($0.id) }
            let running = !held.isEmpty && held.allSatisfy(\.isActive)
            changeVerb = running ? "Stopped" : "Started"
            send(.setActive(targets, !running, alone: false), marked: state, reactor: reactor)
        case .character("m"):
            guard !targets.isEmpty else { return true }
            reactor.action.onNext(.loadLists)
            prompt = .moveTo(targets, TextField())
        default:
            return false
        }
        return true
    }

    /// `action` on the targets; the marks, used, are cleared.
    func send(_ action: TaskListReactor.Action, marked state: TaskListReactor.State, reactor: TaskListReactor) {
        reactor.action.onNext(action)
        if !state.marks.isEmpty { reactor.action.onNext(.mark(.clear)) }
    }

    /// A key typed at one of the change prompts.
    func handleChangePrompt(_ key: Key, _ prompt: Prompt, reactor: TaskListReactor) {
        let state = reactor.currentState
        if key == .escape || key == .control("c") {
            self.prompt = nil
            return
        }
        switch prompt {
        case .priority(let ids):
            let priority: Priority?
            switch key {
            case .character(let letter) where "hmlHML".contains(letter): priority = Priority(rawValue: letter.uppercased())
            case .character(" "), .backspace, .delete: priority = nil
            default:
                message = StatusMessage(text: "priority: H, M, L, or space for none (Esc: leave it)", isError: true)
                return
            }
            self.prompt = nil
            var changes = TaskChanges()
            changes.values[.priority] = priority.map(FieldValue.priority) ?? FieldValue.none
            send(.updateTasks(ids, changes), marked: state, reactor: reactor)
        case .date(let field, let ids, var text, _):
            if key == .enter {
                do throws(TaskFieldError) {
                    let value = try judge(field, text.text)
                    self.prompt = nil
                    var changes = TaskChanges()
                    changes.values[field] = value
                    send(.updateTasks(ids, changes), marked: state, reactor: reactor)
                } catch {
                    self.prompt = .date(field, ids, text, preview: .failure(PromptError(error.description)))
                }
                return
            }
            _ = text.handle(key)
            self.prompt = .date(field, ids, text, preview: preview(field, text.text))
        case .tags(let ids, var text):
            guard key == .enter else {
                _ = text.handle(key)
                self.prompt = .tags(ids, text)
                return
            }
            do throws(TaskFieldError) {
                var changes = TaskChanges()
                for word in text.text.split(separator: " ").map(String.init) {
                    if word.hasPrefix("-") {
                        changes.removeTags.append(FieldRules.tagWord(String(word.dropFirst())))
                    } else {
                        let tag = FieldRules.tagWord(word)
                        try FieldRules.checkTag(tag, typed: true)
                        changes.addTags.append(tag)
                    }
                }
                self.prompt = nil
                if !changes.addTags.isEmpty || !changes.removeTags.isEmpty { send(.updateTasks(ids, changes), marked: state, reactor: reactor) }
            } catch {
                message = StatusMessage(text: error.description, isError: true)
            }
        case .annotate(let ids, var text):
            guard key == .enter else {
                _ = text.handle(key)
                self.prompt = .annotate(ids, text)
                return
            }
            self.prompt = nil
            let line = text.text.trimmingWhitespace
            guard !line.isEmpty else { return }
            var changes = TaskChanges()
            changes.annotate = [line]
            changeVerb = "Annotated"
            send(.updateTasks(ids, changes), marked: state, reactor: reactor)
        case .moveTo(let ids, var text):
            switch key {
            case .enter:
                self.prompt = nil
                guard !text.text.trimmingWhitespace.isEmpty else { return }
                let list: String
                do {
                    list = try FieldRules.list(text.text, typed: true)
                } catch {
                    message = StatusMessage(text: error.description, isError: true)
                    return
                }
                if ids.count == 1 && state.marks.isEmpty {
                    reactor.action.onNext(.moveTask(ids[0], to: .list(list)))
                } else {
                    var changes = TaskChanges()
                    changes.list = list
                    send(.updateTasks(ids, changes), marked: state, reactor: reactor)
                }
            case .tab:
                let names = (state.lists ?? []).map(\.name)
                if let completion = ListScreen.complete(text.text, among: names) { text = TextField(completion) }
                self.prompt = .moveTo(ids, text)
            default:
                _ = text.handle(key)
                self.prompt = .moveTo(ids, text)
            }
        case .jump(var text):
            guard key == .enter else {
                if case .character(let digit) = key, !digit.isASCII || !digit.isNumber { return }
                _ = text.handle(key)
                self.prompt = .jump(text)
                return
            }
            self.prompt = nil
            if let id = Int64(text.text.trimmingWhitespace), id > 0 { reactor.action.onNext(.jump(toID: id)) }
        case .confirmDelete(let ids):
            self.prompt = nil
            if key == .character("y") || key == .character("Y") { send(.deleteTasks(ids), marked: state, reactor: reactor) }
        case .search, .filter, .context:
            break
        }
    }

    /// The value `text` gives `field`, counted from now (a date relative to another of the
    /// task's own dates is refused: each marked task has its own).
    func judge(_ field: TaskField, _ text: String) throws(TaskFieldError) -> FieldValue {
        let dates = dateContext?() ?? DateContext.on(today())
        return try TaskFields.spec(field).judge(text, in: dates)
    }

    /// What the date typed so far resolves to (`→ Fri 2026-12-04`), or why it cannot yet.
    func preview(_ field: TaskField, _ text: String) -> Result<String, PromptError>? {
        guard !text.trimmingWhitespace.isEmpty else { return nil }
        do throws(TaskFieldError) {
            switch try judge(field, text) {
            case .date(let date):
                let day = date.day
                let weekday = CalendarDay.weekdayNames[day.weekday]
                let name = weekday.prefix(1).uppercased() + weekday.dropFirst().prefix(2)
                return .success(name + " " + (date.isDay ? date.description : date.shown(in: zone)))
            case .none: return .success("none")
            default: return nil
            }
        } catch {
            return .failure(PromptError(error.description))
        }
    }
}

/// Why a prompt's text cannot be read yet, shown beside it.
struct PromptError: Error, Equatable {
    let text: String
    init(_ text: String) { self.text = text }
}
