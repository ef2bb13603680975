import TaskModel
import TaskReactors
import TerminalKit
import TextFormats

/// The details pane (`i`, `Enter`): the task under the cursor in full, drawn from
/// `TaskDetailsReactor`'s State — its fields as `tasks show` names them (those that are set),
/// long values wrapped at the pane's edge, then its newest history entries. Pure: State in,
/// cells out.
struct DetailsPane {
    let state: TaskDetailsReactor.State
    let style: ScreenStyle
    let zone: LocalTime
    let now: Timestamp

    /// The fields always shown, set or not; the others only when they hold something.
    private static let always: Set<String> = ["id", "title", "done", "list"]

    /// The pane's lines for `width` cells: a label (bold) and a value per line.
    func lines(width: Int) -> [(label: String, text: String)] {
        guard let details = state.details else {
            return [("", state.id == nil ? "No task here." : "Reading…")]
        }
        let labelWidth = 12
        let room = max(4, width - labelWidth - 1)
        var lines: [(String, String)] = []
        for row in details.rows(zone: zone, now: now) where !row.lines.isEmpty || Self.always.contains(row.name) {
            if row.name == "uuid" || row.name == "extras" { continue }
            var label = row.name
            for line in row.lines.isEmpty ? [""] : row.lines {
                for piece in Self.wrap(TerminalText.escapingControls(line), width: room) {
                    lines.append((label, piece))
                    label = ""
                }
            }
        }
        lines.append(("", ""))
        if state.history.isEmpty { lines.append(("history", "none kept")) }
        for (index, entry) in state.history.enumerated() {
            lines.append((index == 0 ? "history" : "", "#\(entry.id) " + TaskDate(entry.time, in: zone).shown(in: zone)))
            for piece in Self.wrap(TerminalText.escapingControls(entry.summary), width: max(4, room - 2)) { lines.append(("", "  " + piece)) }
        }
        return lines
    }

    /// The pane into `screen` (a buffer of the pane's own size), from line `top` (scrolled by
    /// `Ctrl-D`/`Ctrl-U`; kept within the lines). When lines are left out, the first row says
    /// how many are above and the last how many below. Returns the top used.
    @discardableResult
    func draw(into screen: inout ScreenBuffer, top: Int = 0) -> Int {
        let all = lines(width: screen.columns)
        let rows = screen.rows
        guard all.count > rows, rows >= 3 else {
            for (number, line) in all.prefix(rows).enumerated() { drawLine(line, row: number, into: &screen) }
            return 0
        }
        // Scrolled, the first row is the note of what is above; the last, of what is below
        // unless the end is in sight.
        let top = max(0, min(top, all.count - (rows - 1)))
        var row = 0
        if top > 0 {
            screen.write("↑ \(top) more (Ctrl-U)", row: 0, column: 13, style: style.done)
            row = 1
        }
        let room = rows - row
        let shown = all.count - top <= room ? all.count - top : room - 1
        for (offset, line) in all[top..<(top + shown)].enumerated() { drawLine(line, row: row + offset, into: &screen) }
        let below = all.count - top - shown
        if below > 0 { screen.write("↓ \(below) more (Ctrl-D)", row: rows - 1, column: 13, style: style.done) }
        return top
    }

    private func drawLine(_ line: (label: String, text: String), row: Int, into screen: inout ScreenBuffer) {
        if !line.label.isEmpty { screen.write(line.label, row: row, column: 0, width: 12, style: style.label) }
        screen.write(line.text, row: row, column: 13)
    }

    /// `text` in lines of at most `width` cells, broken at spaces where it can be.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0, TerminalText.displayWidth(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        var cells = 0
        var lastSpace: String.Index?
        for character in text {
            let wide = TerminalText.width(of: character)
            if cells + wide > width {
                if let space = lastSpace, space > line.startIndex {
                    let rest = String(line[line.index(after: space)...])
                    lines.append(String(line[..<space]))
                    line = rest
                    cells = TerminalText.displayWidth(rest)
                } else {
                    lines.append(line)
                    line = ""
                    cells = 0
                }
                lastSpace = nil
            }
            if character == " " { lastSpace = line.endIndex }
            line.append(character)
            cells += wide
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
