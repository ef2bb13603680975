import QueryLanguage
import TaskModel
import TerminalKit
import TextFormats

/// The styles the screens draw with: as `tasks list` colours its table (bold headers, dim
/// done rows, red overdue dates), none of it with `NO_COLOR` or `--color never` — except the
/// cursor row's reverse video, which is how the cursor is seen at all.
public struct ScreenStyle: Equatable, Sendable {
    public let color: Bool
    /// The configuration's colour rules, drawn over a task's row as `tasks list` draws them.
    public let rules: ColorRules

    public init(color: Bool, rules: ColorRules = .none) {
        self.color = color
        self.rules = rules
    }

    /// `task`'s row as its colour rules draw it on `clock`, nil when none does. A rule that
    /// asks about other tasks (`+BLOCKED`) is read as the row alone can say: a task with a
    /// dependency counts as blocked, none as blocking.
    func ruled(_ task: Task, clock: FilterClock) -> CellStyle? {
        guard color, let style = rules.style(for: task, clock: clock, othersSay: { rules.rules[$0].filter.matches(task, clock: clock) }) else { return nil }
        func cell(_ color: TerminalStyle.Color?) -> CellStyle.Color? { color.map { CellStyle.Color(index: $0.index) } }
        return CellStyle(bold: style.bold, underline: style.underline, reverse: style.inverse, foreground: cell(style.foreground),
                         background: cell(style.background))
    }

    var header: CellStyle { color ? CellStyle(bold: true) : .plain }
    var done: CellStyle { color ? CellStyle(dim: true) : .plain }
    var overdue: CellStyle { color ? CellStyle(foreground: .red) : .plain }
    var error: CellStyle { color ? CellStyle(foreground: .red) : .plain }
    var label: CellStyle { color ? CellStyle(bold: true) : .plain }
    var status: CellStyle { CellStyle(reverse: true) }
    /// A marked row's marker, `>` (the row itself is yellow and bold, or underlined).
    var marked: CellStyle { color ? CellStyle(bold: true, foreground: .yellow) : CellStyle(bold: true) }
    /// A started task's `*`.
    var started: CellStyle { color ? CellStyle(bold: true, foreground: .green) : .plain }
}

/// A line the status bar shows until the next: what a key did, or why it could not.
struct StatusMessage: Equatable {
    var text: String
    var isError: Bool
}
