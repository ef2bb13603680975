#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Taskwarrior 2.6's virtual tags select what they select there: the same tasks made in
/// Taskwarrior, imported into `tasks`, counted by each tag in both on the same clock and zone.
@Suite("Virtual tags: the same counts as Taskwarrior on the same data",
       .enabled(if: tasksBinary != nil && access("/usr/bin/task", X_OK) == 0, "needs the tasks binary and Taskwarrior"))
struct TaskwarriorVirtualTagsTests {
    static let tags = ["ACTIVE", "ANNOTATED", "BLOCKED", "UNBLOCKED", "BLOCKING", "READY", "DUE", "DUETODAY", "TODAY", "YESTERDAY",
                       "TOMORROW", "OVERDUE", "WEEK", "MONTH", "QUARTER", "YEAR", "SCHEDULED", "UNTIL", "TAGGED", "PROJECT",
                       "PRIORITY", "UDA", "ORPHAN", "CHILD", "INSTANCE", "PARENT", "TEMPLATE", "LATEST", "WAITING", "PENDING"]

    @Test func everyVirtualTagCountsWhatTaskwarriorCounts() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export TZ=America/New_York TASKRC="$PWD/taskrc" TASKDATA="$PWD/task" TASKS_WEEK_START=monday
            mkdir -p task .config/tasks && export HOME="$PWD"
            printf 'data.location=%s\\nconfirmation=off\\nverbose=nothing\\nweekstart=monday\\nuda.points.type=numeric\\nrecurrence.limit=1\\n' "$TASKDATA" > taskrc
            printf 'uda.points.type = number\\n' > .config/tasks/config
            d() { date -d "$1" +%Y-%m-%d; }
            task add past due:$(d '-1 day') project:Home priority:H
            task add today due:$(d today) +bills
            task add tomorrow due:$(d '+1 day') scheduled:$(d '-1 day')
            task add in three due:$(d '+3 days') until:$(d '+60 days')
            task add in six due:$(d '+6 days') points:3
            task add in seven due:$(d '+7 days')
            task add in forty due:$(d '+40 days') priority:L
            task add next year due:$(d '+400 days')
            task add scheduled later scheduled:$(d '+5 days')
            task add waiting wait:$(d '+10 days')
            task add started && task 11 start
            task add annotated && task 12 annotate a note
            task add blocked depends:1
            task add weekly recur:weekly due:$(d '+2 days')
            printf '[{"description":"orphan","status":"pending","entry":"20261101T000000Z","colour":"red"}]' | task import - > /dev/null 2>&1
            task list > /dev/null 2>&1 || true
            task rc.json.array=on export > tw.json
            tasks import --format taskwarrior tw.json 2> /dev/null
            for tag in \(Self.tags.joined(separator: " ")); do
                echo "$tag $(task status:pending +$tag count) $(tasks count status:pending +$tag)"
            done
            task description:waiting delete > /dev/null 2>&1; tasks delete title.is:waiting +WAITING > /dev/null
            echo "deleted $(task +DELETED count) $(tasks count +DELETED) $(task +DELETED -WAITING count) $(tasks count +DELETED -WAITING)"
            """, in: folder)
        #expect(result.status == 0, "\(result)")
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count == 3 }
        #expect(rows.map { $0[0] } == Self.tags, "\(result)")
        #expect(result.stdout.hasSuffix("deleted 1 1 1 1\n"), "a task deleted in both: +DELETED, and only it: \(result)")
        // The tags docs/cli.md says select otherwise, on purpose ("Differences from Taskwarrior").
        let docs = String(decoding: readBytes(fixturesFolder() + "/../docs/cli.md"), as: UTF8.self)
        let lines = docs.split(separator: "\n", omittingEmptySubsequences: false)
        let start = lines.firstIndex { $0.hasPrefix("### Differences from Taskwarrior") } ?? lines.endIndex
        let table = lines[start...].dropFirst().prefix { !$0.hasPrefix("### ") }
        var different = Set<String>()
        for line in table where line.hasPrefix("| `+") {
            let cell = line.split(separator: "|").first ?? ""
            for word in cell.split(separator: "`") where word.hasPrefix("+") { different.insert(String(word.dropFirst())) }
        }
        #expect(different.contains("OVERDUE"))
        for row in rows {
            if different.contains(row[0]) { continue }
            #expect(row[1] == row[2], "+\(row[0]): Taskwarrior counts \(row[1]), tasks \(row[2])")
        }
        // A deliberate difference is one: it shows on this data.
        #expect(rows.first { $0[0] == "OVERDUE" }.map { $0[1] != $0[2] } == true)
        // The data reaches every tag somewhere: a comparison of zeros would prove nothing.
        #expect(rows.filter { $0[1] != "0" }.count >= 20, "\(rows)")
    }
}
