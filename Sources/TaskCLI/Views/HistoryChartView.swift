import TaskModel
import TextFormats

/// `tasks ghistory` (`tasks history --graph`): Taskwarrior's graphical history — a row per
/// period with a bar of `+` added, `X` completed and `-` deleted (coloured blocks with their
/// numbers on a colour terminal) — or with `--numbers` its history table; the numbers with
/// `--format`.
final class HistoryChartView: CommandView {
    func write(_ rows: [TaskActivity.PeriodCounts], period: ReportPeriod, numbers: Bool) {
        let console = context.console
        let output = console.stdout
        let columns = ["start", "added", "completed", "deleted", "net"]
        func values(_ row: TaskActivity.PeriodCounts) -> [String] {
            [row.start.description, String(row.added), String(row.completed), String(row.deleted), String(row.net)]
        }
        switch console.settings.format {
        case .json:
            let members = rows.map { row in
                "{\"start\":\"\(row.start)\",\"added\":\(row.added),\"completed\":\(row.completed),\"deleted\":\(row.deleted),\"net\":\(row.net)}"
            }
            output.write("{\"period\":\"\(period.rawValue)\",\"rows\":[" + members.joined(separator: ",") + "]}\n")
        case .csv:
            output.write(CSV.line(columns))
            for row in rows { output.write(CSV.line(values(row))) }
        case .tsv, .ids:
            if console.settings.header { output.write(TSV.line(columns)) }
            for row in rows { output.write(TSV.line(values(row))) }
        case .table:
            guard !rows.isEmpty else { return output.write("No tasks.\n") }
            let width = console.terminal.stdoutIsTerminal ? console.terminal.width ?? 80 : 80
            writePicture(numbers ? table(rows, period: period, width: width) : graph(rows, period: period, width: width), title: "History (\(period.rawValue))")
        }
    }

    /// The label columns of each row: the year when it changes, the month (when it changes,
    /// for days and weeks), the day.
    private func labels(_ rows: [TaskActivity.PeriodCounts], period: ReportPeriod, compact: Bool = false) -> (headers: [String], cells: [[String]]) {
        if compact {
            // One column, the period's first day as a date: what fits 40 columns.
            let cells = rows.map { row -> [String] in
                let text = row.start.description
                return [period == .annual ? String(text.prefix(4)) : period == .monthly ? String(text.prefix(7)) : text]
            }
            return (["Period"], cells)
        }
        var previous: CalendarDay?
        let cells = rows.map { row -> [String] in
            defer { previous = row.start }
            let year = row.start.year != previous?.year ? String(row.start.year) : ""
            let newMonth = year != "" || row.start.month != previous?.month
            let month = CalendarDay.monthNames[row.start.month - 1]
            switch period {
            case .annual: return [year]
            case .monthly: return [year, month]
            case .weekly, .daily: return [year, newMonth ? month : "", String(row.start.day)]
            }
        }
        let headers = period == .annual ? ["Year"] : period == .monthly ? ["Year", "Month"] : ["Year", "Month", "Day"]
        return (headers, cells)
    }

    /// Columns of text, each as wide as its widest cell, numbers to the right.
    private func lines(_ headers: [String], _ rows: [[String]], rightAligned: Set<Int>) -> String {
        // Cells are ASCII and the style's marks, which take no column.
        func width(_ cell: String) -> Int { cell.unicodeScalars.reduce(0) { $0 + ((0xFDD0...0xFDEF).contains($1.value) ? 0 : 1) } }
        let widths = headers.indices.map { column in rows.reduce(headers[column].count) { max($0, width($1[column])) } }
        func line(_ cells: [String]) -> String {
            let text = cells.indices.map { column in
                let gap = String(repeating: " ", count: max(0, widths[column] - width(cells[column])))
                return rightAligned.contains(column) ? gap + cells[column] : cells[column] + gap
            }.joined(separator: " ")
            return String(text.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        return line(headers) + line(widths.map { String(repeating: "-", count: $0) }) + rows.map(line).joined()
    }

    /// Taskwarrior's `history` table: added, completed, deleted and net per period, and
    /// their averages (whole numbers, as Taskwarrior divides).
    private func table(_ rows: [TaskActivity.PeriodCounts], period: ReportPeriod, width: Int, compact: Bool = false) -> String {
        let labels = labels(rows, period: period, compact: compact)
        var cells = zip(labels.cells, rows).map { label, row in label + [String(row.added), String(row.completed), String(row.deleted), String(row.net)] }
        let count = rows.count
        let sums = rows.reduce((0, 0, 0, 0)) { ($0.0 + $1.added, $0.1 + $1.completed, $0.2 + $1.deleted, $0.3 + $1.net) }
        cells.append(Array(repeating: "", count: labels.headers.count + 4))
        cells.append(Array(repeating: "", count: labels.headers.count - 1) + ["Average", String(sums.0 / count), String(sums.1 / count), String(sums.2 / count), String(sums.3 / count)])
        let headers = labels.headers + ["Added", "Completed", "Deleted", "Net"]
        // A day's number to the right, as Taskwarrior aligns it; a blank line after, as it ends.
        let text = lines(headers, cells, rightAligned: Set(labels.headers.count..<headers.count).union(!compact && (period == .daily || period == .weekly) ? [2] : [])) + "\n"
        if !compact, text.split(separator: "\n").contains(where: { $0.count > width }) { return table(rows, period: period, width: width, compact: true) }
        return text
    }

    /// Taskwarrior's `ghistory`: the added part of every bar ends at the same column.
    private func graph(_ rows: [TaskActivity.PeriodCounts], period: ReportPeriod, width: Int) -> String {
        let labels = labels(rows, period: period)
        let labelWidth = labels.headers.indices.reduce(0) { sum, column in
            sum + labels.cells.reduce(labels.headers[column].count) { max($0, $1[column].count) } + 1
        }
        // Taskwarrior's room for the bars: the width less its labels' ('2017 September Day ').
        let barWidth = max(10, width - (period == .annual ? 5 : period == .monthly ? 15 : 19))
        let maxAdded = rows.map(\.added).max() ?? 0
        let maxRemoved = rows.map { $0.completed + $0.deleted }.max() ?? 0
        let maxLine = max(1, maxAdded + maxRemoved)
        let leftOffset = barWidth * maxAdded / maxLine
        let style = pictureStyle
        let bars = rows.map { row -> String in
            let lengths = (barWidth * row.added / maxLine, barWidth * row.completed / maxLine, barWidth * row.deleted / maxLine)
            if style.enabled {
                func block(_ count: Int, _ length: Int, _ background: TerminalText.Mark) -> (String, Int) {
                    guard count > 0 else { return ("", 0) }
                    let number = String(count)
                    let text = String(repeating: " ", count: max(0, length - number.count)) + number
                    return (style.on(background, text), text.count)
                }
                let added = block(row.added, lengths.0, .onRed)
                return String(repeating: " ", count: max(0, leftOffset - added.1)) + added.0
                    + block(row.completed, lengths.1, .onGreen).0 + block(row.deleted, lengths.2, .onYellow).0
            }
            return String(repeating: " ", count: max(0, leftOffset - lengths.0)) + String(repeating: "+", count: lengths.0)
                + String(repeating: "X", count: lengths.1) + String(repeating: "-", count: lengths.2)
        }
        let cells = zip(labels.cells, bars).map { $0 + [$1] }
        let legend = style.enabled
            ? "Legend: " + style.on(.onRed, "Added") + ", " + style.on(.onGreen, "Completed") + ", " + style.on(.onYellow, "Deleted") + "\n"
            : "Legend: + Added, X Completed, - Deleted\n"
        let header = labelWidth + 30 < width ? "Number Added/Completed/Deleted" : "Number"
        return lines(labels.headers + [header], cells, rightAligned: period == .daily || period == .weekly ? [2] : [])
            + "\n" + legend
    }
}
