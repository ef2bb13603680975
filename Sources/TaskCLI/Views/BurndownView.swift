import TaskModel
import TextFormats

/// `tasks burndown`: Taskwarrior's chart — bars of pending (` X`), started (` +`) and done
/// (` .`) tasks, coloured blocks on a colour terminal, the y axis rounded as Taskwarrior rounds
/// it, and the net fix rate and estimated completion under it; the numbers with `--format`.
final class BurndownView: CommandView {
    /// The chart's lines (Taskwarrior's 24-line terminal, less the prompt's line and one
    /// reserved) and the plot's rows.
    static let height = 22
    static let plotHeight = height - 7

    func write(_ activity: TaskActivity, period: ReportPeriod, weekStart: Int) {
        let today = context.today(), now = context.now(), zone = context.zone
        let console = context.console
        let width = min(1000, console.terminal.stdoutIsTerminal ? console.terminal.width ?? 80 : 80)
        // As many bars as fit beside the widest label, the last the current period's.
        var bars = activity.burndown(period, weekStart: weekStart, today: today, count: max(1, (width - 15) / 3))
        let high = Self.axisTop(bars.map(\.total).max() ?? 0)
        let labelWidth = String(high).count
        bars = Array(bars.suffix(max(0, (width - labelWidth - 14) / 3)))
        let projection = activity.projection(now: now, today: today, peakStart: zone.midnight)
        let output = console.stdout
        switch console.settings.format {
        case .json:
            let members = bars.map { "{\"start\":\"\($0.start)\",\"pending\":\($0.pending),\"started\":\($0.started),\"done\":\($0.done)}" }
            var json = "{\"period\":\"\(period.rawValue)\",\"bars\":[" + members.joined(separator: ",") + "],\"pending_now\":\(activity.pendingNow)"
            if let peak = activity.peak(today: today) { json += ",\"peak\":{\"day\":\"\(peak.day)\",\"count\":\(peak.count)}" }
            if case .converging(let rate, let completion) = projection {
                json += ",\"net_fix_rate\":\(Self.tenths(rate)),\"completion\":\"\(zone.day(completion))\""
            }
            output.write(json + "}\n")
        case .csv:
            output.write(CSV.line(["start", "pending", "started", "done"]))
            for bar in bars { output.write(CSV.line([bar.start.description, String(bar.pending), String(bar.started), String(bar.done)])) }
        case .tsv, .ids:
            if console.settings.header { output.write(TSV.line(["start", "pending", "started", "done"])) }
            for bar in bars { output.write(TSV.line([bar.start.description, String(bar.pending), String(bar.started), String(bar.done)])) }
        case .table:
            guard !bars.isEmpty, width >= 20 else {
                return context.status.fail(CLIError.usage("the terminal is \(width) columns wide: too narrow for a chart", hint: "--format tsv gives the numbers"))
            }
            var chart = Chart(width: width, height: Self.height - 2)
            draw(bars, high: high, labelWidth: labelWidth, period: period, on: &chart)
            // Under the chart, as long as they need: the rate and the completion.
            let indent = String(repeating: " ", count: labelWidth + 1)
            var footer = indent + "Net Fix Rate:         -\n"
            switch projection {
            case .nothingPending: break
            case .noConvergence: footer += indent + "Estimated completion: No convergence\n"
            case .converging(let rate, let completion):
                let ahead = (completion.millisecondsSince1970 - now.millisecondsSince1970) / 1000
                footer = indent + "Net Fix Rate:         \(Self.tenths(rate))/d\n" + indent + "Estimated completion: \(zone.day(completion)) (\(Self.vague(ahead)))\n"
            }
            // Indented under the plot where it fits, else from the edge.
            if footer.split(separator: "\n").contains(where: { $0.count > width }) { footer = footer.replacing("\n" + indent, with: "\n").dropFirst(indent.count) + "" }
            writePicture(chart.text(pictureStyle) + footer, title: period.rawValue.prefix(1).uppercased() + period.rawValue.dropFirst() + " Burndown")
        }
    }

    /// The axes, their labels, the legend and the bars, as Taskwarrior places them.
    private func draw(_ bars: [TaskActivity.Bar], high: Int, labelWidth: Int, period: ReportPeriod, on chart: inout Chart) {
        let plot = Self.plotHeight, width = chart.width
        let title = period.rawValue.prefix(1).uppercased() + period.rawValue.dropFirst() + " Burndown"
        chart.write(title, row: 0, column: max(0, (width - title.count) / 2))
        for (offset, (block, name)) in [(Chart.Block.done, "Done"), (.started, "Started"), (.pending, "Pending")].enumerated() {
            chart.block(block, row: plot / 2 - 1 + offset, column: width - 10)
            chart.write(" " + name, row: plot / 2 - 1 + offset, column: width - 8)
        }
        for row in 1...plot { chart.write("|", row: row, column: labelWidth + 1) }
        chart.write(TerminalText.leftPadded(String(high), toWidth: labelWidth), row: 1, column: 0)
        chart.write(TerminalText.leftPadded(String(high / 2), toWidth: labelWidth), row: 1 + plot / 2, column: 0)
        chart.write("0 +" + String(repeating: "-", count: max(0, width - labelWidth - 14)), row: plot + 1, column: labelWidth - 1)
        var major = ""
        for (index, bar) in bars.enumerated() {
            let column = labelWidth + 3 + index * 3
            let labels = Self.labels(bar.start, period: period)
            chart.write(labels.minor, row: plot + 2, column: column)
            if labels.major != major { chart.write(" " + labels.major, row: plot + 3, column: column - 1) }
            major = labels.major
            let pending = bar.pending * plot / high, started = (bar.pending + bar.started) * plot / high, done = bar.total * plot / high
            for level in 0..<done {
                chart.block(level < pending ? .pending : level < started ? .started : .done, row: plot - level, column: column)
            }
        }
    }

    /// A bar's labels: the day and month (daily), the week and year, the month and year.
    static func labels(_ start: CalendarDay, period: ReportPeriod) -> (minor: String, major: String) {
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
        switch period {
        case .daily: return (two(start.day), String(CalendarDay.monthNames[start.month - 1].prefix(3)))
        case .weekly: return (two(start.isoWeek), String(start.year))
        case .monthly, .annual: return (two(start.month), String(start.year))
        }
    }

    /// The axis' top, rounded up as Taskwarrior's burndown rounds it: to the next 2 under 20,
    /// 10 under 50, 20 under 100, then a tenth of the next half or whole power of ten.
    static func axisTop(_ count: Int) -> Int {
        func up(_ number: Int, to step: Int) -> Int { number + step - number % step }
        if count < 20 { return up(count, to: 2) }
        if count < 50 { return up(count, to: 10) }
        if count < 100 { return up(count, to: 20) }
        var half = 500, whole = 1000
        while half <= Int.max / 10 {
            if count < half { return up(count, to: half / 10) }
            if count < whole { return up(count, to: whole / 10) }
            half *= 10
            whole *= 10
        }
        return count
    }

    /// One decimal, as `%.1f` writes it.
    static func tenths(_ value: Double) -> String {
        guard let tenths = Int64(exactly: (value * 10).rounded()) else { return "-" }
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// A span as Taskwarrior says it roughly: `1.2y`, `5mo`, `3w`, `4d`, `6h`, `12min`, `30s`.
    static func vague(_ seconds: Int64) -> String {
        let day: Int64 = 86_400
        if seconds >= 365 * day { return tenths(Double(seconds) / Double(day) / 365) + "y" }
        if seconds >= 90 * day { return "\(seconds / day / 30)mo" }
        if seconds >= 14 * day { return "\(seconds / day / 7)w" }
        if seconds >= day { return "\(seconds / day)d" }
        if seconds >= 3600 { return "\(seconds / 3600)h" }
        if seconds >= 60 { return "\(seconds / 60)min" }
        return "\(max(0, seconds))s"
    }
}

/// A grid of characters with the chart's blocks, written out line by line without trailing
/// blanks: blocks as Taskwarrior draws them (` X`, ` +`, ` .`), or coloured.
struct Chart {
    enum Block { case pending, started, done }

    let width: Int
    private var cells: [[Character]]
    private var blocks: [[Block?]]

    init(width: Int, height: Int) {
        self.width = width
        cells = Array(repeating: Array(repeating: " ", count: width), count: height)
        blocks = Array(repeating: Array(repeating: nil, count: width), count: height)
    }

    mutating func write(_ text: String, row: Int, column: Int) {
        guard cells.indices.contains(row) else { return }
        for (offset, character) in text.enumerated() where (0..<width).contains(column + offset) { cells[row][column + offset] = character }
    }

    /// A block two cells wide.
    mutating func block(_ block: Block, row: Int, column: Int) {
        guard blocks.indices.contains(row) else { return }
        for cell in column..<(column + 2) where (0..<width).contains(cell) { blocks[row][cell] = block }
    }

    func text(_ style: Style) -> String {
        var text = ""
        for row in cells.indices {
            let last = cells[row].indices.last { cells[row][$0] != " " || blocks[row][$0] != nil } ?? -1
            var column = 0
            while column <= last {
                guard let block = blocks[row][column] else {
                    text.append(cells[row][column])
                    column += 1
                    continue
                }
                let symbol: String, background: TerminalText.Mark
                switch block {
                case .pending: (symbol, background) = (" X", .onRed)
                case .started: (symbol, background) = (" +", .onYellow)
                case .done: (symbol, background) = (" .", .onGreen)
                }
                text += style.enabled ? style.on(background, "  ") : symbol
                column += 2
            }
            text += "\n"
        }
        return text
    }
}
