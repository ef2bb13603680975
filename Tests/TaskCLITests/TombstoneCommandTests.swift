import _TestSupport
import Testing

/// Issue 53: deleted tasks are kept as Taskwarrior keeps them — found with `status:deleted`,
/// brought back with `undelete`, gone for good with `purge` — each one undo.
@Suite("tasks undelete, tasks purge, status:deleted")
struct TombstoneCommandTests {
    static func seeded() -> CLI {
        let cli = CLI()
        _ = cli.run(["add", "-"], input: "Buy milk\nPay rent\nCall mom\nOld idea\n")
        cli.run("delete", "2", "4")
        return cli
    }

    @Test func deletedTasksAreListedCountedAndExportedWhenNamed() {
        let cli = Self.seeded()
        #expect(cli.run("list", "--all", "--format", "ids").stdout == "1\n3\n", "no listing shows them unasked")
        #expect(cli.run("list", "status:deleted", "--format", "tsv").stdout == "2\tdeleted\tInbox\tPay rent\t\t\t\n4\tdeleted\tInbox\tOld idea\t\t\t\n")
        #expect(cli.run("list", "+DELETED", "--format", "ids").stdout == "2\n4\n")
        #expect(cli.run("count", "status:deleted").stdout == "2\n")
        #expect(cli.run("count", "status:deleted", "or", "status:pending").stdout == "4\n")
        #expect(cli.run("list", "status:deleted", "title.contains:rent", "--columns", "id,status,modified", "--format", "tsv").stdout
                == "2\tdeleted\t2026-11-30T10:00:00.000Z\n", "modified: when it was deleted")
        let table = cli.run(["list", "status:deleted"], terminal: true).stdout
        #expect(table.contains("2  [-]  Pay rent"), "\(table)")
        #expect(!cli.run("export").stdout.contains("Pay rent"), "our export: the tasks")
        #expect(cli.run("export", "status:deleted").stdout.contains(#""title":"Pay rent","#)
                && cli.run("export", "status:deleted").stdout.contains(#""annotations":[],"deleted":true}"#))
        let taskwarrior = cli.run("export", "--format", "taskwarrior").stdout
        #expect(taskwarrior.contains(#""description":"Pay rent","status":"deleted","#) && taskwarrior.contains(#""end":"20261130T100000Z""#),
                "Taskwarrior's export carries them, as Taskwarrior's does: \(taskwarrior)")
        #expect(cli.run("list", "status:deleted", "--explain").stdout.contains("status:deleted"))
    }

    @Test func undeleteIsOneChangeThatUndoReverts() {
        let cli = Self.seeded()
        #expect(cli.run(["undelete", "2"], terminal: true) == CLI.Result(status: 0, stdout: "Undeleted 2: Pay rent\n", stderr: ""))
        #expect(cli.run("list", "--format", "ids").stdout == "1\n2\n3\n")
        #expect(cli.run("undo").status == 0)
        #expect(cli.run("list", "status:deleted", "--format", "ids").stdout == "2\n4\n", "deleted again, as it was")
        // By a filter over the deleted tasks alone: `Old` is no pending task's.
        #expect(cli.run("undelete", "title.contains:old").status == 0)
        #expect(cli.run("list", "--format", "ids").stdout == "1\n3\n4\n")
        #expect(cli.run("history", "--limit", "1", "--format", "tsv").stdout.contains("undeleted 4 \"Old idea\""))
        let before = cli.snapshot()
        #expect(cli.run("undelete", "1") == CLI.Result(status: 1, stdout: "", stderr: """
            tasks: task 1 is not a deleted task; nothing was changed
            tasks: 'tasks list status:deleted' lists the deleted tasks

            """))
        #expect(cli.run("undelete", "+nothing").status == 1)
        #expect(cli.snapshot() == before)
    }

    @Test func purgeAsksOnATerminalAndUndoBringsTheTombstonesBack() {
        let cli = Self.seeded()
        let before = cli.snapshot()
        #expect(cli.run(["purge", "2"], stdin: Array("n\n".utf8), terminal: true) == CLI.Result(status: 1, stdout: """
            1 task matches:
              2  Pay rent
            Purge this task? (y/n) 
            """, stderr: "tasks: nothing was changed\n"))
        #expect(cli.snapshot() == before, "no: nothing written")
        #expect(cli.run(["purge", "status:deleted"], stdin: Array("y\n".utf8), terminal: true).stdout.hasSuffix("Purged 2: Pay rent\nPurged 4: Old idea\n"))
        #expect(cli.run("count", "status:deleted").stdout == "0\n")
        #expect(cli.run("undo").status == 0)
        #expect(cli.run("list", "status:deleted", "--format", "ids").stdout == "2\n4\n")
        #expect(cli.run("purge", "4", "--yes").status == 0)
        #expect(cli.run("list", "status:deleted", "--format", "ids").stdout == "2\n")
        #expect(cli.run("purge", "1").status == 1, "a task that is not deleted is never purged")
        #expect(cli.run("list", "--format", "ids").stdout == "1\n3\n")
    }

    @Test func everyOtherChangeRefusesDeletedTasks() {
        let cli = Self.seeded()
        let before = cli.snapshot()
        for words in [["done", "status:deleted"], ["modify", "+DELETED", "priority:H"], ["delete", "status:deleted"],
                      ["status:deleted", "start"], ["toggle", "status:deleted"]] {
            let result = cli.run(words)
            #expect(result.status == 2 && result.stderr.contains("deleted tasks are listed, counted and exported, not changed"), "\(words): \(result)")
        }
        #expect(cli.run("done", "2").status == 1, "a deleted task's id is no task's")
        #expect(cli.snapshot() == before)
    }

    @Test func ourJSONCarriesATombstoneToAnotherFile() {
        let cli = Self.seeded()
        let file = cli.folder.file("deleted.json")
        writeBytes(file, Array(cli.run("export", "status:deleted").stdout.utf8))
        let other = CLI()
        #expect(other.run("--db", other.folder.file("other.db"), "import", file).stderr.hasSuffix("0 new, 0 updated, 0 unchanged, 2 deleted (tasks list status:deleted).\n"))
        #expect(other.run("--db", other.folder.file("other.db"), "list", "status:deleted", "--format", "ids").stdout == "2\n4\n")
        #expect(other.run("--db", other.folder.file("other.db"), "list", "--all", "--format", "ids").stdout == "")
    }
}
