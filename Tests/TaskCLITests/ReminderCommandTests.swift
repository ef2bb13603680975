#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Issue 54: a task's reminders — moments, or lengths of time from its due date or its start —
/// set by `--remind` and `remind:`, shown, exported, recorded, undone, and carried to
/// Taskwarrior and back.
@Suite("Reminders on the command line")
struct ReminderCommandTests {
    @Test func setShownExportedAndUndone() {
        let cli = CLI()
        #expect(cli.run("add", "Dentist", "due:2026-12-10T14:00", "--remind", "due-15min, due-1d").status == 0)
        #expect(cli.run("add", "Call the bank", "--remind", "tomorrow 9:00").stdout == "2\n")
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("reminders\tdue-15min due-1d\n"))
        // Tomorrow 9:00 in New York (the harness's zone, UTC-5): 14:00 UTC.
        #expect(cli.run("export").stdout.contains(#""annotations":[],"reminders":["20261130T140000Z"]}"#))
        #expect(cli.run("list", "--columns", "id,reminders", "--format", "tsv").stdout == "1\tdue-15min due-1d\n2\t20261130T140000Z\n")
        #expect(cli.run("modify", "1", "remind:start-1h").status == 0)
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("reminders\tstart-1h\n"))
        #expect(cli.run("history", "--limit", "1", "--format", "json").stdout.contains(#""reminders":{"before":["due-15min","due-1d"],"after":["start-1h"]}"#))
        #expect(cli.run("undo").status == 0)
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("reminders\tdue-15min due-1d\n"))
        #expect(cli.run("edit", "1", "--remind", "").status == 0)
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("reminders\t\n"))
    }

    @Test func aReminderFromADateTheTaskLacksIsSaidToNeverRing() {
        let cli = CLI()
        #expect(cli.run("add", "Call", "--remind", "start-1h,due-15min") == CLI.Result(status: 0, stdout: "1\n", stderr: """
            tasks: warning: task 1's reminder due-15min will not ring: the task has no due date
            tasks: warning: task 1's reminder start-1h will not ring: the task has no start (a wait: --wait)

            """))
        #expect(cli.run("edit", "1", "--due", "2026-12-10T14:00", "--wait", "2026-12-09").stderr == "", "both ring now")
        #expect(cli.run("add", "Dentist", "--remind", "2026-12-09T09:00").stderr == "", "a moment rings whatever the dates")
    }

    @Test func whatIsNoReminderIsRefusedAndNothingIsWritten() {
        let cli = CLI()
        cli.run("add", "Dentist")
        let before = cli.snapshot()
        for (words, word) in [(["add", "x", "--remind", "tomorrow"], "tomorrow"), (["add", "x", "--remind", "due-15min,soonish"], "soonish"),
                              (["modify", "1", "remind:due-400d"], "due-400d"), (["edit", "1", "--remind", "due-"], "due-")] {
            let result = cli.run(words)
            #expect(result.status == 2 && result.stderr.hasPrefix("tasks: '\(word)' is not a reminder; use due-15min, start-1h, due,"), "\(words): \(result)")
        }
        #expect(cli.snapshot() == before)
        let file = cli.folder.file("bad.json")
        writeBytes(file, Array(#"[{"title":"x","reminders":["in a while"]}]"#.utf8))
        let refused = cli.run("import", file)
        #expect(refused.status != 0 && refused.stderr.contains("record 1: \"reminders\" holds 'in a while', not a reminder; use due-15min, start-1h or 20261207T140000Z; nothing was imported"))
        #expect(cli.snapshot() == before)
    }
}

extension TaskwarriorLosslessTests {
    /// Reminders go to Taskwarrior as the attribute `tasksreminders` (a UDA there), and a
    /// subtask's parent as `tasksparent` (Taskwarrior's own `parent` is a series' template),
    /// which Taskwarrior keeps; both come back from it as they were.
    @Test func remindersGoToTaskwarriorAndBack() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export TZ=America/New_York TASKRC="$PWD/taskrc" TASKDATA="$PWD/task"
            mkdir task && printf 'data.location=%s\\nconfirmation=off\\nverbose=nothing\\nuda.tasksreminders.type=string\\n' "$TASKDATA" > taskrc
            tasks add Dentist due:2026-12-10T14:00 --remind due-15min,2026-12-09T09:00 > /dev/null
            tasks add 'Bring the card' --parent 1 > /dev/null
            tasks export --format taskwarrior | task import - > /dev/null 2>&1 || echo "task import failed"
            task rc.json.array=on export | grep -o '"tasksreminders":"[^"]*"'
            [ "$(task rc.json.array=on export | grep -o '"tasksparent":"[^"]*"' | cut -d'"' -f4)" = "$(tasks show 1 --format tsv | grep ^uuid | cut -f2)" ] && echo "parent kept"
            task rc.json.array=on export > from-task.json
            tasks --db back.db import --format taskwarrior from-task.json 2> /dev/null
            tasks --db back.db show 1 --format tsv | grep '^reminders'
            tasks --db back.db list parent:1 --format tsv | cut -f4
            """, in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\"tasksreminders\":\"20261209T140000Z,due-15min\"\nparent kept\nreminders\t20261209T140000Z due-15min\nBring the card\n", "\(result)")
    }
}
