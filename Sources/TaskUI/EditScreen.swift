import ReactorCore
import TaskModel
import TaskReactors
import TerminalKit
import TextFormats

/// The editor screen of the seeds, as a View of `TaskEditReactor`: each field's text is
/// sent to the reactor as it is typed; Done (`Ctrl-S`, or `Enter` in a one-line field) is
/// the reactor's `canSubmit`, Cancel (`Esc`) asks first when `shouldConfirmCancel` says so.
/// What a text field keeps for itself — the text as typed, the caret, which field has the
/// focus — stays here.
public final class EditScreen: View {
    public var disposeBag = DisposeBag()
    @Reacting public var reactor: TaskEditReactor?

    /// A line of the form: the fields in `TaskFields.form`'s order.
    typealias Field = TaskField

    private let keys: Observable<Key>
    private let style: ScreenStyle
    public var size: (rows: Int, columns: Int)
    private(set) var fields: [Field: TextField] = [:]
    private(set) var focus = Field.title
    /// The first line of the notes in sight: the notes scroll with their caret.
    private(set) var notesTop = 0
    /// A validation error, beside its field.
    /// The lists there are, for `Tab` in the list field.
    public var listNames: [String] = []
    /// Why each field in error is refused, shown beside it: all of them at once.
    private(set) var fieldErrors: [Field: String] = [:]
    private(set) var message: StatusMessage?
    /// `Discard changes? (y/n)` is on the status line.
    private(set) var confirmingCancel = false
    /// The task being edited was deleted meanwhile (by another process, a sync): the question
    /// whether to save what was typed as a new task.
    private(set) var offeringNew: Int64?
    /// The words for a failure (the command line's, so that both say the same).
    public var describe: (TaskServiceError) -> String = { String(describing: $0) }
    public var onChange: () -> Void = {}
    /// Called once the editor is done with (saved or cancelled): the app closes it.
    public var onDismiss: (Task?) -> Void = { _ in }

    public init(keys: Observable<Key>, size: (rows: Int, columns: Int), style: ScreenStyle) {
        self.keys = keys
        self.size = size
        self.style = style
    }

    public func bind(reactor: TaskEditReactor) {
        let typed = reactor.currentState.fields
        fields = [
            .title: TextField(typed.title), .notes: TextField(typed.notes, multiline: true), .list: TextField(typed.list),
            .tags: TextField(typed.tags.joined(separator: " ")), .repeat: TextField(typed.repeat),
        ]
        for field in TaskFields.edited { fields[field.field] = TextField(typed[field.field]) }
        keys.bind { [unowned self] key in handle(key) }.disposed(by: disposeBag)
        reactor.state.bind { [unowned self] _ in onChange() }.disposed(by: disposeBag)
        reactor.pulse(\.$validationError).compactMap { $0 }
            .bind { [unowned self] error in
                if let field = Self.field(of: error) {
                    // The save reported the first; the others are found too, so that a
                    // person mends them all before saving again.
                    fieldErrors = [field: error.description]
                    for (other, refusal) in reactor.fieldErrors(reactor.currentState.fields) where fieldErrors[other] == nil {
                        fieldErrors[other] = refusal.description
                    }
                    focus = field
                } else {
                    message = StatusMessage(text: error.description, isError: true)
                }
            }
            .disposed(by: disposeBag)
        reactor.pulse(\.$failure).compactMap { $0 }
            .bind { [unowned self] (failure: TaskServiceError) in
                if case .notFound(let ids) = failure, case .edit(let task) = reactor.currentState.mode, ids.contains(task.id) {
                    offeringNew = task.id  // nothing typed is lost: the question is asked
                } else {
                    message = StatusMessage(text: describe(failure), isError: true)
                }
            }
            .disposed(by: disposeBag)
        reactor.state.filter(\.isDismissed).take(1)
            .bind { [unowned self] state in onDismiss(state.saved) }
            .disposed(by: disposeBag)
    }

    // MARK: - Keys in, Actions out

    func handle(_ key: Key) {
        guard let reactor else { return }
        defer { onChange() }
        if confirmingCancel {
            switch key {
            case .character("y"), .character("Y"): reactor.action.onNext(.cancel)
            case .character("n"), .character("N"), .escape: confirmingCancel = false
            default: break
            }
            return
        }
        if offeringNew != nil {
            switch key {
            case .character("y"), .character("Y"):
                offeringNew = nil
                reactor.action.onNext(.submitAsNew)
            case .character("n"), .character("N"), .escape: offeringNew = nil
            default: break
            }
            return
        }
        message = nil
        switch key {
        case .tab:
            // In the list or a date field, a name begun completes first; Tab again moves on.
            if let field = fields[focus], let completed = completion(of: field.text, in: focus), completed != field.text {
                fields[focus] = TextField(completed)
                fieldErrors[focus] = nil
                send(completed, for: focus, to: reactor)
                return
            }
            focus = Self.form[((Self.form.firstIndex(of: focus) ?? 0) + 1) % Self.form.count]
        case .backTab:
            focus = Self.form[((Self.form.firstIndex(of: focus) ?? 0) + Self.form.count - 1) % Self.form.count]
        case .control("s"):
            save(reactor)
        case .enter where focus != .notes:
            save(reactor)
        case .escape, .control("c"):
            if reactor.currentState.shouldConfirmCancel {
                confirmingCancel = true
            } else {
                reactor.action.onNext(.cancel)
            }
        default:
            guard var field = fields[focus], field.handle(key) else { return }
            fields[focus] = field
            fieldErrors[focus] = nil
            send(field.text, for: focus, to: reactor)
        }
    }

    private func save(_ reactor: TaskEditReactor) {
        guard reactor.currentState.canSubmit else {
            fieldErrors[.title] = TaskFieldError.emptyTitle.description
            focus = .title
            return
        }
        reactor.action.onNext(.submit)
    }

    private func send(_ text: String, for field: Field, to reactor: TaskEditReactor) {
        switch field {
        case .title: reactor.action.onNext(.updateTitle(text))
        case .notes: reactor.action.onNext(.updateNotes(text))
        case .list: reactor.action.onNext(.updateList(text))
        case .tags: reactor.action.onNext(.setTags(text.split(separator: " ").map(String.init)))
        case .repeat: reactor.action.onNext(.updateRepeat(text))
        default: reactor.action.onNext(.update(field, text))
        }
    }

    /// The form's lines, in order.
    static let form = TaskFields.form

    /// A field's label: its name, capitalized (`Due`).
    static func label(_ field: Field) -> String { field.rawValue.prefix(1).uppercased() + field.rawValue.dropFirst() }

    /// The field a validation error is about.
    static func field(of error: TaskFieldError) -> Field? {
        switch error {
        case .emptyTitle, .multilineTitle, .titleTooLong: .title
        case .emptyList, .emptyListPart: .list
        case .badValue(let field, _): field
        case .badTag: .tags
        case .badRepeat: .repeat
        case .inItem(_, let inner), .inRecord(_, _, let inner): field(of: inner)
        default: nil
        }
    }

    // MARK: - Completion

    /// The words a date field completes to: the named days of the date grammar.
    static let dateWords = DateGrammar.namedDays + CalendarDay.weekdayNames

    /// `typed` completed in `field`: to the list name it begins (or the longest start those
    /// names share), or to the date word the last word begins; nil when nothing does.
    func completion(of typed: String, in field: Field) -> String? {
        guard !typed.isEmpty else { return nil }
        if field == .list { return ListScreen.complete(typed, among: listNames) }
        guard TaskFields.spec(field).kind == .date else { return nil }
        // `fri 17:30`: the word being typed is the last one.
        let head = typed.lastIndex(of: " ").map { String(typed[...$0]) } ?? ""
        let word = String(typed.dropFirst(head.count))
        guard !word.isEmpty, let done = ListScreen.complete(word, among: Self.dateWords) else { return nil }
        return head + done
    }

    // MARK: - State out

    /// How many cells a one-line field is scrolled so that a caret at cell `caret` shows in
    /// `width` cells (the caret may sit one past the last character).
    static func shift(caret: Int, width: Int) -> Int {
        caret < width ? 0 : caret - width + 1
    }

    /// `text` without its first `cells` cells (a wide character cut in half goes whole, and a
    /// space stands for its right half).
    static func dropping(cells: Int, of text: String) -> String {
        var dropped = 0
        var index = text.startIndex
        while index < text.endIndex && dropped < cells {
            dropped += TerminalText.width(of: text[index])
            index = text.index(after: index)
        }
        return (dropped > cells ? " " : "") + text[index...]
    }

    /// The notes' lines in a window of `lines` rows: scrolled, while the notes have the
    /// focus, just enough to keep the caret's line in sight; a row says how many lines are
    /// above or below when some are.
    private func notesInSight(_ field: TextField, lines count: Int, focused: Bool) -> [String] {
        let all = field.lines
        if focused {
            let line = field.caretPosition.line
            if line < notesTop { notesTop = line }
            if line >= notesTop + count { notesTop = line - count + 1 }
        }
        notesTop = max(0, min(notesTop, all.count - count))
        return Array(all[notesTop..<min(all.count, notesTop + count)])
    }

    /// The frame: a title line, the fields with their labels (an error beside its field),
    /// the keys on the status line; the terminal's cursor at the caret.
    public func draw(into screen: inout ScreenBuffer) -> (row: Int, column: Int)? {
        guard let reactor else { return nil }
        let state = reactor.currentState
        let heading: String
        switch state.mode {
        case .new: heading = "New task"
        case .edit(let task): heading = "Edit task \(task.id)"
        }
        screen.write(heading, row: 0, column: 1, style: style.header)
        let labelWidth = 10
        var caret: (row: Int, column: Int)?
        let fieldWidth = max(1, screen.columns - labelWidth - 2)
        let notesLines = max(1, size.rows - 10)
        // The form scrolls: when the focused field is below the window, the fields above it
        // move up under the heading until it shows (a short window, a long form).
        var top = 2
        for field in Self.form {
            if field == focus { break }
            top += field == .notes ? min(notesLines, fields[field]?.lines.count ?? 1) + 1 : 1
        }
        var row = 2 - max(0, top - (size.rows - 2))
        for field in Self.form {
            guard row < size.rows - 1, let text = fields[field] else { break }
            let lines = field == .notes ? notesInSight(text, lines: notesLines, focused: field == focus) : [text.text]
            guard row >= 2 else {
                row += max(1, lines.count) + (field == .notes ? 1 : 0)
                continue
            }
            let focused = field == focus
            screen.write(Self.label(field), row: row, column: 1, style: focused ? CellStyle(bold: true, underline: !style.color) : .plain)
            // A one-line field longer than its room scrolls with the caret: the caret's cell
            // stays in sight, `…` says there is more before it.
            let shift = focused && field != .notes ? Self.shift(caret: text.caretPosition.cells, width: fieldWidth) : 0
            for (number, line) in lines.enumerated() where row + number < size.rows - 1 {
                if shift > 0 {
                    screen.write("…" + Self.dropping(cells: shift + 1, of: TerminalText.escapingControls(line)), row: row + number,
                                 column: labelWidth + 1, width: fieldWidth)
                } else {
                    screen.write(line, row: row + number, column: labelWidth + 1, width: fieldWidth)
                }
            }
            if field == .notes && lines.count >= 2 {
                // How many lines the window leaves out, above and below, under the label.
                let below = text.lines.count - notesTop - lines.count
                if notesTop > 0 && row + 1 < size.rows - 1 { screen.write("↑ \(notesTop)", row: row + 1, column: 1, style: style.done) }
                if below > 0 && row + lines.count - 1 < size.rows - 1 {
                    screen.write("↓ \(below)", row: row + lines.count - 1, column: 1, style: style.done)
                }
            }
            if focused {
                let position = text.caretPosition
                let line = field == .notes ? position.line - notesTop : position.line
                caret = (min(row + line, size.rows - 2), min(labelWidth + 1 + position.cells - shift, screen.columns - 1))
            }
            if let error = fieldErrors[field] {
                let used = TerminalText.displayWidth(TerminalText.escapingControls(lines.last ?? ""))
                let column = labelWidth + 1 + min(used + 2, fieldWidth)
                screen.write(error, row: row + lines.count - 1, column: column, style: style.error)
            }
            row += max(1, lines.count) + (field == .notes ? 1 : 0)
        }
        let status = size.rows - 1
        screen.fill(row: status, style: style.status)
        if confirmingCancel {
            screen.write("Discard changes? (y/n)", row: status, column: 0, style: style.status)
            return nil
        }
        if let id = offeringNew {
            screen.write("Task \(id) was deleted meanwhile. Save what you typed as a new task? (y/n)", row: status, column: 0, style: style.status)
            return nil
        }
        var text = state.canSubmit ? "Ctrl-S save · Esc cancel · Tab next field" : "a task needs a title · Esc cancel"
        if let message { text = message.text }
        var statusStyle = style.status
        if message?.isError == true && style.color { statusStyle.foreground = .red }
        screen.write(text, row: status, column: 0, style: statusStyle)
        return caret
    }
}
