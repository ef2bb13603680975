#if canImport(Glibc)
import Glibc
#endif
import SQLiteDB
import TaskModel
import _TestSupport
import Testing

/// Issue 55: Taskwarrior's pictures — `burndown`, `ghistory` (`history --graph`) and the
/// history table — at a fixed clock on fixed tasks, beside Taskwarrior on the same tasks.
@Suite("tasks burndown and ghistory")
struct ChartTests {
    /// 36 tasks made every third day from 2026-08-03, as Taskwarrior exports them: a third
    /// completed some days later, some deleted, some started; Korean and emoji titles among them.
    static func fixture() -> String {
        let first = CalendarDay(year: 2026, month: 8, day: 3) ?? .unixEpoch
        func moment(_ day: CalendarDay) -> String { day.description.replacing("-", with: "") + "T090000Z" }
        let last = CalendarDay(year: 2026, month: 11, day: 28) ?? .unixEpoch
        let records = (0..<36).map { index -> String in
            let made = first.adding(days: index * 3) ?? first
            let title = index % 4 == 0 ? "할 일 \(index) 🎉" : "Task \(index)"
            let tags = index % 6 == 0 ? ",\"tags\":[\"bills\"]" : ""
            var record = "{\"uuid\":\"00000000-0000-4000-8000-0000000000\(index < 10 ? "0" : "")\(index)\",\"description\":\"\(title)\",\"entry\":\"\(moment(made))\"\(tags)"
            if index % 3 == 0 {
                record += ",\"status\":\"completed\",\"end\":\"\(moment(min(made.adding(days: (index % 5 + 1) * 4) ?? made, last)))\""
            } else if index % 7 == 1 {
                record += ",\"status\":\"deleted\",\"end\":\"\(moment(made.adding(days: 2) ?? made))\""
            } else {
                record += ",\"status\":\"pending\"" + (index % 5 == 2 ? ",\"start\":\"\(moment(made.adding(days: 1) ?? made))\"" : "")
            }
            return record + "}"
        }
        return "[" + records.joined(separator: ",\n") + "]\n"
    }

    static func loaded() -> CLI {
        let cli = CLI()
        let result = cli.run(["import", "--format", "taskwarrior", "-"], input: fixture())
        #expect(result.status == 0, "\(result)")
        return cli
    }

    /// Each picture as a person sees it at 80 and 40 columns, coloured once.
    @Test func picturesAtAFixedClock() {
        let cli = Self.loaded()
        let cases: [(name: String, arguments: [String], width: Int)] = [
            ("burndown-daily-80.txt", ["burndown", "daily"], 80),
            ("burndown-weekly-40.txt", ["burndown"], 40),
            ("burndown-monthly-80.txt", ["burndown.monthly"], 80),
            ("ghistory-monthly-80.txt", ["ghistory"], 80),
            ("ghistory-weekly-40.txt", ["history", "--graph", "weekly"], 40),
            ("ghistory-annual-40.txt", ["ghistory.annual"], 40),
            ("history-monthly-80.txt", ["history.monthly"], 80),
            ("history-daily-40.txt", ["ghistory", "daily", "--numbers"], 40),
        ]
        for (name, arguments, width) in cases {
            let result = cli.run(arguments, terminal: true, width: width)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result)")
            #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= width }, "\(arguments) fits \(width) columns:\n\(result.stdout)")
            assertGolden(result.stdout, named: "charts/" + name)
        }
        let colored = cli.run(["burndown", "--color", "always"], terminal: true, width: 40,
                              environment: ["TASKS_DB": cli.db, "HOME": cli.folder.path, "TERM": "xterm"])
        assertGolden(colored.stdout, named: "charts/burndown-weekly-40-color.txt")
        #expect(colored.stdout.contains("\u{1B}[41m  \u{1B}[49m") && colored.stdout.contains("\u{1B}[42m  \u{1B}[49m"), "\(colored)")
        let ghistory = cli.run(["ghistory", "--color", "always"], terminal: true, width: 80,
                               environment: ["TASKS_DB": cli.db, "HOME": cli.folder.path, "TERM": "xterm"])
        assertGolden(ghistory.stdout, named: "charts/ghistory-monthly-80-color.txt")
        // NO_COLOR wins over --color always, and a pipe gets the numbers.
        #expect(!cli.run(["burndown", "--color", "always"], terminal: true, width: 40).stdout.contains("\u{1B}"))
        #expect(cli.run("burndown").stdout.hasPrefix("2026-"), "a pipe: TSV")
    }

    /// The numbers add up to the tasks: every task added once, each completed and deleted
    /// one once; the last bar holds what is pending and done now.
    @Test func theNumbersAreTheTasks() {
        let cli = Self.loaded()
        let rows = cli.run("ghistory", "--format", "tsv").stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { $0[0] } == ["2026-08-01", "2026-09-01", "2026-10-01", "2026-11-01"])
        func sum(_ column: Int) -> Int { rows.reduce(0) { $0 + (Int($1[column]) ?? 0) } }
        #expect(sum(1) == 36 && sum(2) == 12 && sum(3) == 4, "\(rows)")
        let pending = Int(cli.run("count").stdout.trimmingWhitespace) ?? -1
        let last = cli.run("burndown", "daily", "--format", "tsv").stdout.split(separator: "\n").last.map { $0.split(separator: "\t").map(String.init) } ?? []
        #expect(last.first == "2026-11-29" && (Int(last[1]) ?? 0) + (Int(last[2]) ?? 0) == pending && last[3] == "12", "\(last) against \(pending) pending")
        let json = cli.run("burndown", "weekly", "--format", "json").stdout
        #expect(json.hasPrefix("{\"period\":\"weekly\",\"bars\":[{\"start\":\"2026-") && json.contains("\"pending_now\":\(pending),\"peak\":{\"day\":\""), "\(json)")
        #expect(cli.run("ghistory", "--format", "csv").stdout.hasPrefix("start,added,completed,deleted,net\r\n2026-08-01,"))
        // A filter chooses the tasks, in either word order; bills: every sixth.
        let bills = cli.run("ghistory", "annual", "+bills", "--format", "tsv").stdout
        #expect(bills == "2026-01-01\t6\t6\t0\t0\n", "\(bills)")
        #expect(cli.run("+bills", "ghistory.annual", "--format", "tsv").stdout == bills)
        #expect(cli.run("+bills", "history.annual", "--format", "tsv").stdout == bills)
        #expect(CLI().run(["ghistory"], terminal: true).stdout == "No tasks.\n")
    }

    /// Words that do not fit are status 2, with the file as it was.
    @Test func badWordsChangeNothing() {
        let cli = Self.loaded()
        let before = cli.snapshot()
        for arguments in [["burndown", "annual"], ["burndown", "daily", "weekly"], ["history", "--graph", "--limit", "3"],
                          ["history", "monthly"], ["history", "--numbers"], ["ghistory", "due.before:nonsense"]] {
            let result = cli.run(arguments)
            #expect(result.status == 2 && result.stdout.isEmpty && !result.stderr.isEmpty, "\(arguments): \(result)")
        }
        #expect(cli.run(["burndown"], terminal: true, width: 12).status == 2, "too narrow for a chart")
        #expect(cli.snapshot() == before)
    }

    /// Times another machine or a file wrote may be anything: no crash, no overflow.
    @Test func extremeTimesAreNoCrash() throws {
        let cli = CLI()
        cli.run("add", "first")
        cli.run("add", "second")
        cli.run("add", "third")
        cli.run("done", "2")
        cli.run("start", "3")
        let db = try Connection(path: cli.db)
        try db.run("UPDATE task SET created = ? WHERE id = 1", Int64.min)
        try db.run("UPDATE task SET created = ?, completed = ? WHERE id = 2", Int64.max, Int64.min)
        try db.run("UPDATE task SET start = ? WHERE id = 3", Int64.max)
        for arguments in [["burndown", "daily"], ["burndown", "monthly"], ["ghistory", "annual"], ["ghistory", "daily", "--numbers"]] {
            let table = cli.run(arguments, terminal: true, width: 80)
            #expect(table.status == 0, "\(arguments): \(table)")
            #expect(cli.run(arguments + ["--format", "json"]).status == 0)
        }
    }

    /// Taskwarrior 2.6 and tasks on the same tasks (made with Taskwarrior's import, brought
    /// over with its export): the history table and graph byte for byte, the burndown's peak,
    /// rate and estimated completion the same.
    @Test(.enabled(if: tasksBinary != nil && access("/usr/bin/task", X_OK) == 0, "needs the tasks binary and Taskwarrior"))
    func theSameChartsAsTaskwarrior() throws {
        let folder = TemporaryFolder()
        writeBytes(folder.file("gen.py"), Array("""
            import json, time, random
            random.seed(7)
            now = int(time.time())
            def moment(t): return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(t))
            out = []
            for i in range(80):
                entry = now - random.randint(2, 120) * 86400 - random.randint(0, 80000)
                t = {"uuid": "00000000-0000-4000-8000-%012d" % i, "description": "할 일 %d 🎉" % i if i % 7 == 0 else "Task %d" % i,
                     "entry": moment(entry), "status": "pending", "project": random.choice(["Home", "Work"])}
                r = random.random()
                if r < 0.45: t["status"] = "completed"; t["end"] = moment(min(now - 3600, entry + random.randint(1, 40) * 86400))
                elif r < 0.55: t["status"] = "deleted"; t["end"] = moment(min(now - 3600, entry + random.randint(1, 20) * 86400))
                elif r < 0.65: t["start"] = moment(min(now - 60, entry + 86400 * 3))
                out.append(t)
            print(json.dumps(out, ensure_ascii=False))
            """.utf8))
        let result = try tasksShell("""
            export HOME="$PWD" TASKRC="$PWD/taskrc" TASKS_DB="$PWD/tasks.db" TZ=UTC; mkdir tw
            printf 'data.location=%s/tw\\nconfirmation=off\\nverbose=nothing\\ncolor=off\\n' "$PWD" > taskrc
            python3 gen.py > data.json && task import data.json > /dev/null 2>&1 || exit 9
            task export > tw.json && tasks import --format taskwarrior tw.json > /dev/null || exit 8
            # Taskwarrior 2.6's weekly history starts its weeks on Sunday, whatever its weekstart.
            export TASKS_WEEK_START=sunday
            for report in history.monthly history.annual history.weekly history.daily ghistory.monthly ghistory.annual ghistory.weekly ghistory.daily; do
                task $report | sed 's/ *$//' > tw.txt; tasks $report --format table --color never | sed 's/ *$//' > us.txt
                cmp -s tw.txt us.txt && echo "same $report" || { echo "DIFFERENT $report"; diff tw.txt us.txt | head -20; }
            done
            task burndown.daily | grep -E 'Net Fix Rate|Estimated completion' | sed 's/^ *//' > tw.txt
            tasks burndown.daily --format table | grep -E 'Net Fix Rate|Estimated completion' | sed 's/^ *//' > us.txt
            cmp -s tw.txt us.txt && echo "same rate: $(cat us.txt | tr '\\n' ' ')" || { echo "DIFFERENT rate"; cat tw.txt us.txt; }
            peak=$(task rc.debug=on burndown.daily 2>&1 | sed -n 's/.*Maximum of \\([0-9]*\\) pending tasks on \\([0-9]\\{4\\}\\)\\([0-9][0-9]\\)\\([0-9][0-9]\\)T.*currently \\([0-9]*\\) pending.*/\\1 \\2-\\3-\\4 \\5/p')
            ours=$(tasks burndown.daily --format json | sed 's/.*"pending_now":\\([0-9]*\\),"peak":{"day":"\\([^"]*\\)","count":\\([0-9]*\\)}.*/\\3 \\2 \\1/')
            [ "$peak" = "$ours" ] && echo "same peak $ours" || echo "DIFFERENT peak: $peak against $ours"
            """, in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("DIFFERENT"), "\(result)")
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("same ") }.count == 10, "\(result)")
        #expect(result.stdout.contains("same rate: Net Fix Rate:"), "\(result)")
    }

    /// The calendar at a fixed clock (today 2026-11-29): due, overdue, today and holidays
    /// marked, in months side by side at 80 columns and one at 40, coloured once.
    @Test func calendarAtAFixedClock() {
        let cli = CLI()
        cli.run("add", "Pay rent", "--due", "2026-11-20")
        cli.run("add", "할 일 🎉 선물 사기", "--due", "2026-12-10")
        cli.run("add", "Call", "mom", "--due", "2026-11-29")
        cli.run("add", "Later", "--due", "2027-03-05")
        mkdir(cli.folder.path + "/.config", 0o700)
        mkdir(cli.folder.path + "/.config/tasks", 0o700)
        writeBytes(cli.folder.path + "/.config/tasks/config", Array("""
            holiday.xmas.name = Christmas
            holiday.xmas.date = 20261225
            holiday.newyear.name = "새해 🎉"
            holiday.newyear.start = 2026-12-31
            holiday.newyear.end = 2027-01-01

            """.utf8))
        for (name, arguments, width) in [("calendar-80.txt", ["calendar"], 80), ("calendar-40-details.txt", ["calendar", "dec", "--details"], 40),
                                         ("calendar-2027-80.txt", ["calendar", "2027"], 80)] {
            let result = cli.run(arguments, terminal: true, width: width)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result)")
            assertGolden(result.stdout, named: "charts/" + name)
        }
        let colored = cli.run(["calendar", "--color", "always"], terminal: true, width: 80,
                              environment: ["TASKS_DB": cli.db, "HOME": cli.folder.path, "TERM": "xterm"])
        assertGolden(colored.stdout, named: "charts/calendar-80-color.txt")
        #expect(colored.stdout.contains("\u{1B}[101m20\u{1B}[49m") && colored.stdout.contains("\u{1B}[41m29\u{1B}[49m"), "overdue, due today: \(colored)")
        let json = cli.run("calendar", "--format", "json").stdout
        #expect(json == """
            {"first":"2026-11-01","last":"2027-01-31","today":"2026-11-29","days":[{"day":"2026-11-20","state":"overdue","due":1,"holidays":[]},\
            {"day":"2026-11-29","state":"due-today","due":1,"holidays":[]},{"day":"2026-12-10","state":"due","due":1,"holidays":[]},\
            {"day":"2026-12-25","state":"holiday","due":0,"holidays":["Christmas"]},{"day":"2026-12-31","state":"holiday","due":0,"holidays":["새해 🎉"]},\
            {"day":"2027-01-01","state":"holiday","due":0,"holidays":["새해 🎉"]}]}

            """, "\(json)")
        #expect(cli.run("calendar", "2027-03", "--months", "1", "--format", "tsv").stdout == "2027-03-05\tdue\t1\t\n")
        // Bad words and a bad holiday: status 2, the file as it was.
        let before = cli.snapshot()
        for arguments in [["calendar", "foo"], ["calendar", "--months", "0"], ["calendar", "2026-13"], ["calendar", "dec", "20x6"], ["calendar", "--months", "121"]] {
            let result = cli.run(arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result)")
        }
        writeBytes(cli.folder.path + "/.config/tasks/config", Array("holiday.x.date = 2026-02-30\n".utf8))
        let bad = cli.run("calendar")
        #expect(bad.status == 2 && bad.stderr.contains("config:1: holiday.x.date is '2026-02-30'"), "\(bad)")
        #expect(cli.snapshot() == before)
    }

    /// Taskwarrior 2.6's calendar and ours on the same tasks: the same grids, weeks from
    /// Monday and from Sunday (its marks are colours only; ours, signs, are taken out).
    @Test(.enabled(if: tasksBinary != nil && access("/usr/bin/task", X_OK) == 0, "needs the tasks binary and Taskwarrior"))
    func theSameCalendarAsTaskwarrior() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export HOME="$PWD" TASKRC="$PWD/taskrc" TASKS_DB="$PWD/tasks.db" TZ=UTC; mkdir tw
            printf 'data.location=%s/tw\\nconfirmation=off\\nverbose=nothing\\ncolor=off\\n' "$PWD" > taskrc
            task add Soon due:eom > /dev/null; task export > tw.json && tasks import --format taskwarrior tw.json > /dev/null || exit 9
            for start in monday sunday; do
                for when in "" "2027" "feb 2028"; do
                    task rc.weekstart=$start calendar $when | sed 's/ *$//' > tw.txt
                    TASKS_WEEK_START=$start tasks calendar $when --format table | sed '/^Legend/d; s/[<*!+]/ /g; s/ *$//' > us.txt
                    cmp -s tw.txt us.txt && echo "same $start $when" || { echo "DIFFERENT $start $when"; diff tw.txt us.txt | head; }
                done
            done
            """, in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("DIFFERENT") && result.stdout.split(separator: "\n").count == 6, "\(result)")
    }
}
