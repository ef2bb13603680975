import CommandLineKit
import QueryLanguage
import TextFormats
import TaskInterchange
import TaskModel
import TaskReactors

/// How results are written: `--format`, and what the terminal allows.
public enum OutputFormat: String, OptionChoice {
    case table, tsv, csv, json, ids
    public static var noun: String { "a format" }
}

/// The ways a task becomes text, shared by every view.
enum TaskText {
    /// The columns of `tsv` and `csv`, in order (documented in `tasks help list`).
    static let columns = ["id", "done", "list", "title", "due", "priority", "tags"]
    /// The fields those columns print, after the id.
    static let fields: [TaskField] = [.done, .list, .title, .due, .priority, .tags]
}

/// Writes tasks in one of the formats, streaming: `begin` with what the query selects summed
/// up (a table lays its columns out from it), `write` each batch of rows as it is read, `end`.
/// Nothing is held but the batch in hand.
final class TaskWriter {
    let output: Output
    let format: OutputFormat
    /// `--header` for tsv.
    let header: Bool
    /// Standard output is a terminal: cut long titles to `width`, escape controls in every format.
    let terminalWidth: Int?
    let escapesControls: Bool
    var style: Style
    let today: CalendarDay?
    /// The local clock's reading (`TaskDate.reading`), for a due moment's overdue mark.
    let now: String?
    /// Where a moment is read for a table.
    let zone: LocalTime
    /// The JSON array's framing and commas (the same bytes `export` writes).
    private var json = ExportWriter(format: .json, localTime: .system)
    private var table: TableLayout?
    /// The section being written, for a table's headers.
    private var section: Int?
    /// A table's section headers (`tasks next` is one list without them).
    var sectionHeaders = true
    /// `tasks next --explain`: each task's score, part by part, as of this day.
    var explainsRankOn: CalendarDay?
    private var query = TaskQuery()
    /// The points of `next`'s score (`--explain`, a `score` column).
    var rankWeights = TaskRank.Weights.standard
    /// A report's columns (`--columns`), or nil for the listing's own.
    var columns: [ReportColumn]?
    /// The short uuids of a batch's tasks (the store's `shortUUIDs`), asked only when the
    /// columns show them.
    var shortUUIDs: (([String]) -> [String: String])?
    private var report: ReportTable?
    /// The ids of the rows written last that each next one is a subtask of, outermost first.
    private var ancestry: [Int64] = []
    /// The ids of the tasks a batch's subtasks are subtasks of (the store's `ids(ofUUIDs:)`:
    /// a listing reads no uuid), asked only for a batch that has subtasks.
    var findIDs: (([String]) -> [String: Int64])?
    private var parentIDs: [String: Int64] = [:]
    /// The colour rules' styles of the batch in hand, by id.
    private var rowStyles: [Int64: TerminalStyle] = [:]
    /// The active context, named above a table (`Context work: list:Work or +work`).
    var contextLine: String?

    init(output: Output, format: OutputFormat, header: Bool, terminalWidth: Int?, escapesControls: Bool, style: Style,
         today: CalendarDay?, now: String? = nil, zone: LocalTime = .system) {
        self.now = now
        self.zone = zone
        self.output = output
        self.format = format
        self.header = header
        self.terminalWidth = terminalWidth
        self.escapesControls = escapesControls
        self.style = style
        self.today = today
    }

    /// The fields a listing reads for this writer: every field for JSON and chosen columns,
    /// the record's for `tsv`, `csv` and `ids` (a score explained needs what ranks a task),
    /// what a table shows otherwise.
    var fieldsRead: TaskFieldSet {
        if format == .json || columns != nil || (format == .table && !style.rows.rules.isEmpty) { return .all }
        guard explainsRankOn == nil else { return .listed }
        switch format {
        case .tsv, .csv: return .only(TaskText.fields)
        case .ids: return .only([])
        case .table, .json: return .listed
        }
    }

    /// What `begin` needs summed up before the first row: a table's column widths, or nothing.
    var totalsNeeded: TaskListReactor.TotalsNeeded { format == .table ? .cells : .none }

    /// The header line or framing; for a table, the column layout from `totals`.
    func begin(_ totals: TaskQueryTotals, query: TaskQuery) {
        self.query = query
        if format == .table, let contextLine { output.write(style.dim(contextLine) + "\n") }
        let names = columns.map { $0.map(\.name) } ?? TaskText.columns
        switch format {
        case .table:
            if let columns {
                let day = query.today ?? today ?? .unixEpoch
                report = ReportTable(columns: columns, totals: totals, terminalWidth: terminalWidth, style: style, zone: zone, today: day,
                                     now: now ?? day.description, sectionHeaders: sectionHeaders, weights: rankWeights)
            } else {
                table = TableLayout(totals, terminalWidth: terminalWidth)
            }
        case .tsv: if header { output.write(TSV.line(names + (explainsRankOn == nil || columns != nil ? [] : ["score", "explain"]))) }
        case .csv: output.write(CSV.line(names))
        case .json: output.append { json.begin(to: &$0) }
        case .ids: break
        }
    }

    /// Rows in the query's order, after those written before.
    func write(_ rows: [Task]) {
        if let columns, format == .table || format == .tsv || format == .csv {
            return writeColumns(rows, columns)
        }
        switch format {
        case .table:
            let parents = Set(rows.lazy.compactMap(\.parent))
            if !parents.isEmpty, let findIDs { parentIDs = findIDs(Array(parents)) }
            if style.enabled, let today { rowStyles = style.rows.styles(rows, today: today, now: now ?? today.description) }
            for task in rows {
                writeTableRow(task)
                if let today = explainsRankOn { output.write(String(repeating: " ", count: 4 + (table?.idWidth ?? 2)) + TaskWriter.explain(task, today, rankWeights) + "\n") }
            }
        case .tsv:
            for index in rows.indices {
                if let today = explainsRankOn {
                    writeRecord(rows, index, field: TSV.append, separator: 0x09, end: [0x09])
                    let rank = TaskRank(rows[index], today: today, weights: rankWeights)
                    output.write("\(rank.score)\t" + TSV.escape(TaskWriter.parts(rank)) + "\n")
                } else {
                    writeRecord(rows, index, field: TSV.append, separator: 0x09, end: [0x0A])
                }
            }
        case .csv:
            for index in rows.indices { writeRecord(rows, index, field: CSV.append, separator: 0x2C, end: [0x0D, 0x0A]) }
        case .json:
            // JSON escapes every control itself (`JSONValue.appendString`): the same bytes on a terminal.
            for task in rows { output.append { json.append(task, to: &$0) } }
        case .ids:
            TaskWriter.writeIDs(rows, to: output)
        }
    }

    private func writeColumns(_ rows: [Task], _ columns: [ReportColumn]) {
        let day = query.today ?? today ?? .unixEpoch
        let short = columns.contains { $0.name == "short" } ? shortUUIDs?(rows.map(\.uuid)) ?? [:] : [:]
        switch format {
        case .table:
            report?.short = short
            report?.write(rows, query: query, to: output, styles: style.enabled ? style.rows.styles(rows, today: day, now: now ?? day.description) : [:])
        case .tsv:
            for task in rows {
                output.append { ReportTable.record(task, columns, zone: zone, today: day, weights: rankWeights, escapesControls: escapesControls, short: short,
                                                   field: TSV.append, separator: 0x09, end: [0x0A], to: &$0) }
            }
        default:
            for task in rows {
                output.append { ReportTable.record(task, columns, zone: zone, today: day, weights: rankWeights, escapesControls: escapesControls, short: short,
                                                   field: CSV.append, separator: 0x2C, end: [0x0D, 0x0A], to: &$0) }
            }
        }
    }

    /// The closing framing.
    func end() {
        if format == .json { output.append { json.end(to: &$0) } }
    }

    /// Tasks held whole (what a command changed), measured here rather than by the store.
    /// With `query`, the rows fall in its sections (a limited report by list), counted here.
    func writeAll(_ tasks: [Task], query given: TaskQuery? = nil) {
        let query = given ?? TaskQuery(grouping: .none)
        var totals = TaskQueryTotals(count: tasks.count, sections: tasks.isEmpty ? [] : [.init(header: "", count: tasks.count)])
        if given != nil {
            var sections: [TaskQueryTotals.SectionCount] = []
            for task in tasks {
                let header = query.header(for: task)
                if let last = sections.indices.last, sections[last].header == header { sections[last].count += 1 } else { sections.append(.init(header: header, count: 1)) }
            }
            totals.sections = sections
        }
        for task in tasks {
            totals.titleCells = max(totals.titleCells, TerminalText.displayWidth(TerminalText.escapingControls(task.title)))
            totals.tagsCells = max(totals.tagsCells, TerminalText.displayWidth(TaskWriter.tagsText(task)))
            totals.anyDue = totals.anyDue || task.due != nil
            totals.anyDueTime = totals.anyDueTime || task.due?.isDay == false
            totals.anyPriority = totals.anyPriority || task.priority != nil
            totals.largestID = max(totals.largestID, task.id)
        }
        begin(totals, query: query)
        write(tasks)
        end()
    }

    /// The ids alone, one per line (`--format ids`, and `add`'s output in a pipe).
    static func writeIDs(_ tasks: [Task], to output: Output) {
        for task in tasks {
            output.append { bytes in
                DecimalText.append(task.id, to: &bytes)
                bytes.append(0x0A)
            }
        }
    }

    /// The fields of task `rows[index]`, escaped by `field`, straight into the output buffer.
    /// Each field is read from the array alone: a task taken out of it whole was copied (a
    /// retain and a release of its twenty-odd fields) for each row, a tenth of a listing's
    /// instructions (callgrind).
    private func writeRecord(_ rows: [Task], _ index: Int, field: (String, inout [UInt8]) -> Void, separator: UInt8, end: [UInt8]) {
        let (id, isDone, isDeleted, list, title) = (rows[index].id, rows[index].isDone, rows[index].isDeleted, rows[index].list, rows[index].title)
        let (due, priority, tags) = (rows[index].due, rows[index].priority, rows[index].tags)
        output.append { bytes in
            DecimalText.append(id, to: &bytes)
            bytes.append(separator)
            bytes.append(contentsOf: isDeleted ? TaskWriter.deletedBytes : isDone ? TaskWriter.trueBytes : TaskWriter.falseBytes)
            bytes.append(separator)
            field(shown(list), &bytes)
            bytes.append(separator)
            field(shown(title), &bytes)
            bytes.append(separator)
            if let due { field(due.description, &bytes) }
            bytes.append(separator)
            if let priority { field(priority.rawValue, &bytes) }
            bytes.append(separator)
            for (index, tag) in tags.enumerated() {
                if index > 0 { bytes.append(0x20) }
                field(shown(tag), &bytes)
            }
            bytes.append(contentsOf: end)
        }
    }

    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8), deletedBytes = Array("deleted".utf8)

    /// Text as it may reach standard output: controls escaped when that is a terminal.
    private func shown(_ text: String) -> String {
        escapesControls ? TerminalText.escapingControls(text) : text
    }

    /// `score 146: due +118 (overdue 9 days), priority +25 (M), age +3 (3 weeks old)`.
    static func explain(_ task: Task, _ today: CalendarDay, _ weights: TaskRank.Weights) -> String {
        let rank = TaskRank(task, today: today, weights: weights)
        return "score \(rank.score)" + (rank.parts.isEmpty ? " (nothing to rank it by)" : ": " + parts(rank))
    }

    static func parts(_ rank: TaskRank) -> String {
        rank.parts.map { "\($0.name) +\($0.points) (\($0.reason))" }.joined(separator: ", ")
    }

    // MARK: - Table

    static func tagsText(_ task: Task) -> String {
        TerminalText.escapingControls(task.tags.map { "+" + $0 }.joined(separator: " "))
    }

    /// The columns of a table, laid out before its first row from the totals: the id's width
    /// from the largest id, the title's and the tags' from the widest (cut on a terminal to fit
    /// its width: the tags first, then dropped, then the titles).
    private struct TableLayout {
        let totals: TaskQueryTotals
        let idWidth: Int
        let hasDue: Bool, hasPriority: Bool
        /// 10 for days, 16 when a due date is a moment (`2026-12-24 14:00`).
        let dueWidth: Int
        let maxTitle: Int, maxTags: Int
        let showsTags: Bool

        init(_ totals: TaskQueryTotals, terminalWidth: Int?) {
            self.totals = totals
            idWidth = max(2, String(totals.largestID).utf8.count)
            hasDue = totals.anyDue
            dueWidth = totals.anyDueTime ? 16 : 10
            hasPriority = totals.anyPriority
            let titleWidth = totals.titleCells, tagsWidth = totals.tagsCells
            var maxTitle = titleWidth, maxTags = tagsWidth, showsTags = tagsWidth > 0
            if let width = terminalWidth {
                let fixed = 2 + idWidth + 2 + 3 + 2 + (hasDue ? 2 + dueWidth : 0) + (hasPriority ? 3 : 0)
                let room = width - fixed
                // The title has its room first: the tags are cut to what it leaves, then
                // dropped below 6 cells, and only then is the title cut (docs/cli.md).
                if showsTags && titleWidth + 2 + tagsWidth > room {
                    maxTags = min(tagsWidth, max(0, room - 2 - titleWidth))
                    if maxTags < 6 { showsTags = false }
                }
                let titleRoom = room - (showsTags ? 2 + maxTags : 0)
                if titleWidth > titleRoom { maxTitle = max(8, titleRoom) }
            }
            (self.maxTitle, self.maxTags, self.showsTags) = (maxTitle, maxTags, showsTags)
        }
    }

    private func writeTableRow(_ task: Task) {
        guard let layout = table else { return }
        let header = query.header(for: task)
        if sectionHeaders, section.map({ layout.totals.sections[$0].header != header }) ?? true {
            let index = layout.totals.sections.firstIndex { $0.header == header }
            section = index
            let count = index.map { layout.totals.sections[$0].count } ?? 0
            let name = TerminalText.escapingControls(header.isEmpty ? "Tasks" : header)
            output.write(style.bold("\(name) (\(count))") + "\n")
        }
        var digits = 1
        var rest = task.id / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        // A subtask listed under its parent (the manual order keeps it there) is indented a
        // step further: the parents above it are the only rows remembered.
        let parentID = task.parent.flatMap { parentIDs[$0] }
        while let last = ancestry.last, last != parentID { ancestry.removeLast() }
        let depth = parentID == nil ? 0 : ancestry.count
        ancestry.append(task.id)
        // Most titles are printable ASCII: one scan says so, and then a byte is a cell.
        let plain = TerminalText.isPlainASCII(task.title)
        let title = String(repeating: "  ", count: min(depth, 8)) + (plain ? task.title : TerminalText.escapingControls(task.title))
        let titleWidth = plain ? title.utf8.count : TerminalText.displayWidth(title)
        let tags = layout.showsTags ? TaskWriter.tagsText(task) : ""
        let rowStyle = rowStyles[task.id]
        let isOverdue = rowStyle == nil && today.map { task.isOverdue(on: $0, at: now ?? $0.description) } ?? false
        let dims = task.isDone && style.enabled && rowStyle == nil
        output.append { bytes in
            // Spaces are owed, and paid only when text follows: a row's trailing blanks are
            // never written (nor trimmed after).
            var owed = 0
            func payOwed() {
                if owed > 0 {
                    bytes.append(contentsOf: repeatElement(0x20, count: owed))
                    owed = 0
                }
            }
            func text(_ value: String) {
                payOwed()
                var value = value
                value.withUTF8 { bytes.append(contentsOf: $0) }
            }
            func spaces(_ count: Int) { owed += max(0, count) }
            if let rowStyle { text(rowStyle.marks) } else if dims { text(Style.dimOn) }
            spaces(2 + layout.idWidth - digits)
            payOwed()
            DecimalText.append(task.id, to: &bytes)
            text(task.isDeleted ? "  [-]" : task.isDone ? "  [x]" : task.repeat != nil ? "  [↻]" : "  [ ]")
            spaces(2)
            if layout.maxTitle < titleWidth {
                let cut = TerminalText.truncated(title, toWidth: layout.maxTitle)
                text(cut)
                spaces(layout.maxTitle - TerminalText.displayWidth(cut))
            } else {
                text(title)
                spaces(layout.maxTitle - titleWidth)
            }
            if layout.hasDue {
                spaces(2)
                if let due = task.due {
                    let shown = due.isDay ? due.description : due.shown(in: zone)
                    text(isOverdue ? style.red(shown) : shown)
                    spaces(layout.dueWidth - shown.utf8.count)
                } else {
                    spaces(layout.dueWidth)
                }
            }
            if layout.hasPriority {
                spaces(2)
                if let priority = task.priority { text(priority.rawValue) } else { spaces(1) }
            }
            if layout.showsTags && !tags.isEmpty {
                spaces(2)
                text(layout.maxTags < TerminalText.displayWidth(tags) ? TerminalText.truncated(tags, toWidth: layout.maxTags) : tags)
            }
            if dims || rowStyle != nil { bytes.append(contentsOf: Style.reset.utf8) }
            bytes.append(0x0A)
        }
    }
}

/// Terminal styles, or none.
struct Style {
    let enabled: Bool
    /// The configuration's colour rules, drawn over whole rows of a table.
    var rows = RowColors(rules: .none)
    /// Marks, made sequences by the stream (`Output.Guard`): nothing a field holds can be one.
    static let dimOn = TerminalText.Mark.dim.text, reset = TerminalText.Mark.reset.text
    func bold(_ text: String) -> String { enabled ? TerminalText.Mark.bold.text + text + Style.reset : text }
    func red(_ text: String) -> String { enabled ? TerminalText.Mark.red.text + text + TerminalText.Mark.defaultColor.text : text }
    func dim(_ text: String) -> String { enabled ? Style.dimOn + text + Style.reset : text }
    /// `text` on a background (a chart's block).
    func on(_ background: TerminalText.Mark, _ text: String) -> String {
        enabled ? background.text + text + TerminalText.Mark.defaultBackground.text : text
    }
}
