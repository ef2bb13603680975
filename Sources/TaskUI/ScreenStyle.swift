import TerminalKit

/// The styles the screens draw with: as `tasks list` colours its table (bold headers, dim
/// done rows, red overdue dates), none of it with `NO_COLOR` or `--color never` — except the
/// cursor row's reverse video, which is how the cursor is seen at all.
public struct ScreenStyle: Equatable, Sendable {
    public let color: Bool

    public init(color: Bool) { self.color = color }

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
