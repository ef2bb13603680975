import TaskModel
import TextFormats

/// `tasks stats`: Taskwarrior's `task stats` rows — a `Category  Data` table on a terminal,
/// `name<TAB>value` lines in a pipe (plain numbers: seconds, bytes), one JSON object with
/// `--format json`.
final class StatsView: CommandView {
    /// Each row: its name in the table, its key in TSV and JSON, its value as shown and as a
    /// number (nil: the row has no value here, and the table leaves it out as Taskwarrior does).
    func rows(_ stats: TaskStats) -> [(name: String, key: String, shown: String, value: String)] {
        func day(_ time: Timestamp?) -> String? { time.map { TaskDate($0, in: context.zone).day.description } }
        var rows: [(String, String, String?, String?)] = [
            ("Pending", "pending", String(stats.pending), String(stats.pending)),
            ("Waiting", "waiting", String(stats.waiting), String(stats.waiting)),
            ("Repeating", "repeating", String(stats.repeating), String(stats.repeating)),
            ("Completed", "completed", String(stats.done), String(stats.done)),
            ("Deleted", "deleted", String(stats.deleted), String(stats.deleted)),
            ("Total", "total", String(stats.total), String(stats.total)),
            ("Annotations", "annotations", String(stats.annotations), String(stats.annotations)),
            ("Unique tags", "tags", String(stats.tags), String(stats.tags)),
            ("Lists", "lists", String(stats.lists), String(stats.lists)),
            ("Blocked tasks", "blocked", String(stats.blocked), String(stats.blocked)),
            ("Blocking tasks", "blocking", String(stats.blocking), String(stats.blocking)),
            ("Data size", "bytes", Self.bytes(stats.fileBytes), String(stats.fileBytes)),
            ("Undo transactions", "history", String(stats.historyEntries), String(stats.historyEntries)),
        ]
        rows.append(("Tasks tagged", "tagged_percent", stats.taggedPercent.map { Self.decimal($0) + "%" }, stats.taggedPercent.map(Self.decimal)))
        rows.append(("Oldest task", "oldest", day(stats.oldest), day(stats.oldest)))
        rows.append(("Newest task", "newest", day(stats.newest), day(stats.newest)))
        for (name, key, seconds) in [("Task used for", "used_for", stats.usedForSeconds), ("Task added every", "added_every", stats.addedEverySeconds),
                                     ("Task completed every", "completed_every", stats.doneEverySeconds),
                                     ("Task deleted every", "deleted_every", stats.deletedEverySeconds),
                                     ("Average time pending", "average_pending", stats.averagePendingSeconds)] {
            rows.append((name, key, seconds.map(Self.duration), seconds.map { String($0) }))
        }
        rows.append(("Average title length", "average_title", stats.averageTitleCharacters.map { "\($0) characters" },
                     stats.averageTitleCharacters.map { String($0) }))
        return rows.compactMap { row in row.2.flatMap { shown in row.3.map { (row.0, row.1, shown, $0) } } }
    }

    func write(_ stats: TaskStats) {
        let output = context.console.stdout
        let rows = rows(stats)
        switch context.console.settings.format {
        case .table:
            let width = max(8, rows.map { $0.name.count }.max() ?? 0)
            var text = TerminalText.padded("Category", toWidth: width) + "  Data\n" + String(repeating: "-", count: width) + "  " + String(repeating: "-", count: 13) + "\n"
            for row in rows { text += TerminalText.padded(row.name, toWidth: width) + "  " + row.shown + "\n" }
            writePicture(text, title: "Statistics")
        case .json:
            let members = rows.map { row in
                "\"\(row.key)\":" + (row.key == "oldest" || row.key == "newest" ? "\"\(row.value)\"" : row.value)
            }
            output.write("{" + members.joined(separator: ",") + "}\n")
        case .csv:
            output.write(CSV.line(["category", "value"]))
            for row in rows { output.write(CSV.line([row.key, row.value])) }
        case .tsv, .ids:
            if context.console.settings.header { output.write(TSV.line(["category", "value"])) }
            for row in rows { output.write(TSV.line([row.key, row.value])) }
        }
    }

    /// `1.2 KiB`, `3.4 MiB`: as Taskwarrior says a size.
    static func bytes(_ count: Int64) -> String {
        if count < 1024 { return "\(count) B" }
        var value = Double(count) / 1024
        for unit in ["KiB", "MiB", "GiB"] {
            if value < 1024 || unit == "GiB" { return decimal(value) + " " + unit }
            value /= 1024
        }
        return "\(count) B"
    }

    /// One decimal, without a trailing `.0`.
    static func decimal(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(tenths / 10) + "." + String(tenths % 10)
    }

    /// `3d 4h`, `1h 05m`, `12m`, `45s`.
    static func duration(_ seconds: Int64) -> String {
        guard seconds >= 86_400 else { return TaskDetails.duration(seconds) }
        let hours = seconds % 86_400 / 3600
        return "\(seconds / 86_400)d" + (hours > 0 ? " \(hours)h" : "")
    }
}
