import QueryLanguage
import TextFormats
import TaskModel
import TaskReactors

/// A report's columns (`--columns id,due,title`) in every format but JSON and ids: a table with
/// a header row of the columns' names, or TSV and CSV records of those columns.
///
/// A table is laid out from the totals (the id's, title's and tags' widths are exact) and from
/// the first batch of rows for the other columns: a later row's longer cell in a text column
/// is cut to that width (…), a later date shows whole. Nothing is held but the batch in hand.
struct ReportTable {
    let columns: [ReportColumn]
    let totals: TaskQueryTotals
    let terminalWidth: Int?
    let style: Style
    let zone: LocalTime
    let today: CalendarDay
    let now: String
    let sectionHeaders: Bool
    let weights: TaskRank.Weights
    /// The batch's short uuids, for the `short` column.
    var short: [String: String] = [:]
    private var widths: [Int] = []
    private var section: String?
    private var counts: [String: Int] = [:]

    init(columns: [ReportColumn], totals: TaskQueryTotals, terminalWidth: Int?, style: Style, zone: LocalTime, today: CalendarDay, now: String,
         sectionHeaders: Bool, weights: TaskRank.Weights) {
        self.weights = weights
        self.columns = columns
        self.totals = totals
        self.terminalWidth = terminalWidth
        self.style = style
        self.zone = zone
        self.today = today
        self.now = now
        self.sectionHeaders = sectionHeaders
        for section in totals.sections { counts[section.header] = section.count }
    }

    /// The cell of `column` for `task`, as a terminal shows it (controls escaped).
    private func cell(_ column: ReportColumn, _ task: Task) -> String {
        TerminalText.escapingControls(column.text(task, zone: zone, today: today, weights: weights, forTable: true, short: short))
    }

    /// Lays the columns out from the first batch, then writes the header row.
    private mutating func layOut(_ rows: [Task], to output: Output) {
        widths = columns.map { column in
            let measured = rows.reduce(0) { max($0, TerminalText.displayWidth(cell(column, $1))) }
            switch column {
            case .id: return max(2, String(totals.largestID).utf8.count)
            case .title: return max(5, totals.titleCells)
            case .tags: return max(4, totals.tagsCells)
            case .done: return 4
            default: return max(column.name.count, measured)
            }
        }
        if let width = terminalWidth, let title = columns.firstIndex(of: .title) {
            let others = widths.indices.filter { $0 != title }.reduce(0) { $0 + widths[$1] } + 2 * columns.count
            widths[title] = min(widths[title], max(8, width - others))
        }
        var header = ""
        for (index, column) in columns.enumerated() {
            let name = column.name.prefix(widths[index])
            header += "  " + pad(String(name), to: widths[index], right: column == .id)
        }
        output.write(style.bold(trailingTrimmed(header)) + "\n")
    }

    /// The rows, each in its colour rules' style (`styles`, by id) where it has one.
    mutating func write(_ rows: [Task], query: TaskQuery, to output: Output, styles: [Int64: TerminalStyle] = [:]) {
        if widths.isEmpty { layOut(rows, to: output) }
        for task in rows {
            let header = query.header(for: task)
            if sectionHeaders, query.grouping != .none, section != header {
                section = header
                output.write(style.bold("\(TerminalText.escapingControls(header)) (\(counts[header] ?? 0))") + "\n")
            }
            var line = ""
            for (index, column) in columns.enumerated() {
                var text = cell(column, task)
                let width = widths[index]
                let cells = TerminalText.displayWidth(text)
                if cells > width && !column.field.isDate { text = TerminalText.truncated(text, toWidth: width) }
                if column == .due, styles[task.id] == nil, task.isOverdue(on: today, at: now) {
                    line += "  " + style.red(text) + String(repeating: " ", count: max(0, width - TerminalText.displayWidth(text)))
                } else {
                    line += "  " + pad(text, to: width, right: column == .id || column == .score)
                }
            }
            let row = trailingTrimmed(line)
            if let rowStyle = styles[task.id] {
                output.write(rowStyle.marks + row + Style.reset + "\n")
            } else {
                output.write((task.isDone ? style.dim(row) : row) + "\n")
            }
        }
    }

    private func pad(_ text: String, to width: Int, right: Bool) -> String {
        let room = String(repeating: " ", count: max(0, width - TerminalText.displayWidth(text)))
        return right ? room + text : text + room
    }

    private func trailingTrimmed(_ text: String) -> String {
        var text = Substring(text)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    /// One record of the columns, TSV or CSV.
    static func record(_ task: Task, _ columns: [ReportColumn], zone: LocalTime, today: CalendarDay, weights: TaskRank.Weights, escapesControls: Bool,
                       short: [String: String] = [:], field: (String, inout [UInt8]) -> Void, separator: UInt8, end: [UInt8], to bytes: inout [UInt8]) {
        for (index, column) in columns.enumerated() {
            if index > 0 { bytes.append(separator) }
            let text = column.text(task, zone: zone, today: today, weights: weights, forTable: false, short: short)
            field(escapesControls ? TerminalText.escapingControls(text) : text, &bytes)
        }
        bytes.append(contentsOf: end)
    }
}
