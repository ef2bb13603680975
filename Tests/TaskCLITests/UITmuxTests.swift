#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// `tasks ui` driven as a person drives it: in tmux, keys sent with `send-keys`, the screen
/// read with `capture-pane`. Each test has its own tmux server.
final class Tmux {
    let folder: TemporaryFolder
    let server: String
    nonisolated(unsafe) private static var count = 0

    /// An interactive shell in a `columns` × `rows` window, in `folder`, with `tasks` on the
    /// PATH and TASKS_DB set to the folder's tasks.db.
    init(_ folder: TemporaryFolder, columns: Int = 80, rows: Int = 16) throws {
        self.folder = folder
        Tmux.count += 1
        server = "tasks-ui-\(getpid())-\(Tmux.count)"
        let binary = try #require(tasksBinary)
        let bin = String(binary.dropLast("/tasks".count))
        let rc = folder.file(".bashrc")
        writeBytes(rc, Array("PS1='$ '\nexport PATH='\(bin)':\"$PATH\" TASKS_DB='\(folder.file("tasks.db"))' LANG=C.UTF-8 TERM=xterm-256color\ncd '\(folder.path)'\n".utf8))
        let start = runShell("tmux -L \(server) -f /dev/null new-session -d -x \(columns) -y \(rows) 'bash --noprofile --rcfile \(rc) -i'", in: folder)
        try #require(start.status == 0, "\(start)")
        try #require(wait { $0.contains("$") }, "the shell's prompt")
    }

    deinit { _ = runShell("tmux -L \(server) kill-server", in: folder) }

    /// Types `keys` (tmux key names: `Enter`, `Escape`, `C-c`, `Space`, or literal text with `-l`).
    func send(_ keys: String...) {
        for key in keys { _ = runShell("tmux -L \(server) send-keys \(key)", in: folder) }
    }

    /// Types a line into the shell.
    func type(_ line: String) {
        _ = runShell("tmux -L \(server) send-keys -l '\(line.replacingOccurrences(of: "'", with: "'\\''"))'", in: folder)
        send("Enter")
    }

    var screen: String { runShell("tmux -L \(server) capture-pane -p", in: folder).stdout }
    /// Whether the pane shows the alternate screen now.
    var alternateOn: Bool { runShell("tmux -L \(server) display -p '#{alternate_on}'", in: folder).stdout.hasPrefix("1") }

    /// Waits up to `seconds` for the screen to satisfy `test`.
    @discardableResult
    func wait(seconds: Double = 3, _ test: (String) -> Bool) -> Bool {
        for _ in 0..<Int(seconds / 0.03) {
            if test(screen) { return true }
            usleep(30_000)
        }
        return test(screen)
    }

    func resize(columns: Int, rows: Int) {
        _ = runShell("tmux -L \(server) resize-window -x \(columns) -y \(rows)", in: folder)
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

@Suite("tasks ui in tmux", .serialized, .enabled(if: tasksBinary != nil && access("/usr/bin/tmux", X_OK) == 0, "needs tmux and the binary"))
struct UITmuxTests {
    private func seeded() throws -> (TemporaryFolder, Tmux) {
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            printf 'Buy milk\nPay rent\n한국어 할 일 😀\n' | tasks add - > /dev/null
            tasks add "Write report" -l Work --due 2026-11-20 -p H > /dev/null
            """, in: folder)
        return (folder, try Tmux(folder))
    }

    private func lines(_ screen: String) -> [String] { screen.split(separator: "\n").map(String.init) }

    @Test func openToggleUndoAndQuit() throws {
        let (folder, tmux) = try seeded()
        tmux.type("stty -g > before; tasks ui; echo \"status $?\"; stty -g > after")
        #expect(tmux.wait { $0.contains("Inbox (3)") && $0.contains("한국어 할 일 😀") && $0.contains("Pending · 4 tasks") })
        #expect(tmux.alternateOn)
        tmux.send("Space")
        #expect(tmux.wait { $0.contains("Done 1: Buy milk") && !$0.contains("   1  [ ]") && $0.contains("Inbox (2)") })
        tmux.send("u")
        #expect(tmux.wait { $0.contains("Undid #") && $0.contains("Buy milk") && $0.contains("Inbox (3)") })
        tmux.send("q")
        #expect(tmux.wait { $0.contains("status 0") })
        #expect(!tmux.alternateOn, "the main screen is back")
        #expect(readBytes(folder.file("before")) == readBytes(folder.file("after")), "the terminal's settings are as they were")
        let list = try tasksShell("tasks list --format ids", in: folder)
        #expect(list.stdout == "1\n2\n3\n4\n", "the toggle was undone in the database")
    }

    @Test func addThroughTheEditorAndCancelWithAndWithoutChanges() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        tmux.send("a")
        #expect(tmux.wait { $0.contains("New task") && $0.contains("a task needs a title") })
        tmux.send("Escape")
        #expect(tmux.wait { $0.contains("Inbox (3)") && !$0.contains("New task") }, "nothing typed: closed at once")
        tmux.send("a")
        #expect(tmux.wait { $0.contains("New task") })
        tmux.send("-l 'Call mom'")
        tmux.send("Escape")
        #expect(tmux.wait { $0.contains("Discard changes? (y/n)") })
        tmux.send("n")
        #expect(tmux.wait { $0.contains("New task") && $0.contains("Call mom") && !$0.contains("Discard") }, "back to editing")
        tmux.send("Tab", "Tab", "Tab")
        tmux.send("-l 2026-12-24")
        tmux.send("C-s")
        #expect(tmux.wait { $0.contains("Call mom") && $0.contains("2026-12-24") && $0.contains("Inbox (4)") })
        tmux.send("a")
        tmux.send("-l 'Not kept'")
        tmux.send("Escape")
        #expect(tmux.wait { $0.contains("Discard changes? (y/n)") })
        tmux.send("y")
        #expect(tmux.wait { $0.contains("Inbox (4)") && !$0.contains("New task") })
        tmux.send("q")
        let list = try tasksShell("tasks list --format tsv", in: folder)
        #expect(list.stdout.contains("Call mom\t2026-12-24"))
        #expect(!list.stdout.contains("Not kept"))
    }

    @Test func deleteAsksFirst() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        tmux.send("j", "d")
        #expect(tmux.wait { $0.contains("Delete \"Pay rent\"? (y/n)") })
        tmux.send("n")
        #expect(tmux.wait { $0.contains("Pay rent") && !$0.contains("(y/n)") })
        tmux.send("d", "y")
        #expect(tmux.wait { !$0.contains("   2  [ ]  Pay rent") && $0.contains("Deleted 2: Pay rent") })
        tmux.send("q")
        #expect(try tasksShell("tasks list --format ids", in: folder).stdout == "1\n3\n4\n")
    }

    @Test func moveWithinAndAcrossLists() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        tmux.send("J")
        #expect(tmux.wait { lines($0).firstIndex { $0.contains("Pay rent") } ?? 99 < lines($0).firstIndex { $0.contains("Buy milk") } ?? 0 })
        tmux.send("m")
        #expect(tmux.wait { $0.contains("Move 1 to list (Tab completes):") })
        tmux.send("-l W", "Tab", "Enter")
        #expect(tmux.wait { $0.contains("Work (2)") && $0.contains("Inbox (2)") })
        tmux.send("q")
        #expect(try tasksShell("tasks list --list Work --format ids", in: folder).stdout == "4\n1\n")
    }

    @Test func searchAsYouType() throws {
        let (_, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        tmux.send("/", "-l re")
        #expect(tmux.wait { $0.contains("Pay rent") && $0.contains("Write report") && !$0.contains("Buy milk") && $0.contains("/re") })
        tmux.send("-l n")
        #expect(tmux.wait { $0.contains("Pay rent") && !$0.contains("Write report") })
        tmux.send("Escape")
        #expect(tmux.wait { $0.contains("Buy milk") && $0.contains("Write report") && $0.contains("4 tasks") })
        tmux.send("q")
    }

    @Test func aTaskAddedByAnotherProcessAppearsWithinASecond() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        _ = try tasksShell("tasks add 'From a script'", in: folder)
        #expect(tmux.wait(seconds: 1) { $0.contains("From a script") && $0.contains("Inbox (4)") })
        _ = try tasksShell("tasks done 2", in: folder)
        #expect(tmux.wait(seconds: 1) { !$0.contains("   2  [ ]  Pay rent") && $0.contains("Inbox (3)") })
        tmux.send("q")
    }

    @Test func aResizeRedrawsAtTheNewWidthAndANarrowWindowWorks() throws {
        let (_, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("2026-11-20") })
        tmux.resize(columns: 20, rows: 10)
        #expect(tmux.wait { screen in
            let rows = lines(screen)
            return rows.contains { $0.hasPrefix("   4  [ ]  Write") } && rows.allSatisfy { $0.count <= 20 } && !screen.contains("2026-11-20")
        })
        tmux.resize(columns: 80, rows: 16)
        #expect(tmux.wait { $0.contains("2026-11-20") })
        tmux.send("q")
    }

    @Test(arguments: ["C-c", "TERM", "HUP"])
    func theTerminalIsGivenBackWhateverEndsIt(ending: String) throws {
        let (folder, tmux) = try seeded()
        tmux.type("stty -g > before; tasks ui; echo \"status $?\"; stty -g > after")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        if ending == "C-c" {
            tmux.send("C-c")
        } else {
            _ = runShell("pkill -\(ending) -f 'tasks ui'", in: folder)
        }
        let expected = ending == "C-c" ? "status 130" : ending == "TERM" ? "status 143" : "status 129"
        #expect(tmux.wait { $0.contains(expected) }, "\(tmux.screen)")
        #expect(!tmux.alternateOn)
        #expect(readBytes(folder.file("before")) == readBytes(folder.file("after")))
    }

    @Test func ctrlZThenFgComesBackToTheSameScreen() throws {
        let (folder, tmux) = try seeded()
        tmux.type("stty -g > before; tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        tmux.send("C-z")
        #expect(tmux.wait { $0.contains("Stopped") })
        #expect(!tmux.alternateOn)
        tmux.type("stty -g > stopped; fg")
        #expect(tmux.wait { $0.contains("Inbox (3)") && $0.contains("Pending · 4 tasks") })
        #expect(tmux.alternateOn)
        tmux.send("j", "Space")
        #expect(tmux.wait { $0.contains("Done 2: Pay rent") }, "keys work again")
        tmux.send("q")
        #expect(readBytes(folder.file("before")) == readBytes(folder.file("stopped")), "cooked while stopped")
    }

    @Test func aLockedOrDeletedFileIsAMessageAndTheScreenStaysUsable() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        // Another program holds the write lock for four seconds.
        _ = runShell("(echo 'BEGIN IMMEDIATE;'; sleep 4; echo 'COMMIT;') | sqlite3 tasks.db > /dev/null 2>&1 &", in: folder)
        usleep(300_000)
        tmux.send("Space")
        #expect(tmux.wait(seconds: 4) { $0.contains("is locked by") }, "\(tmux.screen)")
        tmux.send("j")
        #expect(tmux.wait { $0.contains("   1  [ ]  Buy milk") && $0.contains("Pending · 4 tasks") }, "nothing changed, keys still work")
        usleep(3_000_000)
        tmux.send("Space")
        #expect(tmux.wait { $0.contains("Done 2: Pay rent") }, "once the lock is gone, the same key works")
        if getuid() != 0 {
            // (root writes whatever the permissions say: this part runs for other users only)
            _ = runShell("chmod 444 tasks.db tasks.db-wal tasks.db-shm", in: folder)
            tmux.send("Space")
            #expect(tmux.wait { $0.contains("read-only") || $0.contains("cannot") }, "\(tmux.screen)")
            _ = runShell("chmod 644 tasks.db tasks.db-wal tasks.db-shm", in: folder)
        }
        _ = runShell("rm tasks.db", in: folder)
        #expect(tmux.wait { $0.contains("was deleted or moved") })
        tmux.send("k")
        #expect(tmux.wait { $0.contains("   1  [ ]  Buy milk") }, "still usable")
        tmux.send("q")
    }

    /// Editing a task another process deleted meanwhile: the save says so and offers to keep
    /// what was typed as a new task, instead of losing it (issue 50).
    @Test func editingATaskDeletedMeanwhileOffersToSaveItAsANewTask() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        tmux.send("e")
        #expect(tmux.wait { $0.contains("Edit task 1") || $0.contains("Buy milk") && $0.contains("Ctrl-S save") }, "\(tmux.screen)")
        tmux.send("End")
        tmux.send("-l ' and bread'")
        #expect(tmux.wait { $0.contains("Buy milk and bread") }, "\(tmux.screen)")
        _ = try tasksShell("tasks delete 1 > /dev/null", in: folder)
        tmux.send("C-s")
        #expect(tmux.wait { $0.contains("Task 1 was deleted meanwhile. Save what you typed as a new task? (y/n)") }, "\(tmux.screen)")
        tmux.send("y")
        #expect(tmux.wait { !$0.contains("Ctrl-S save") && $0.contains("Buy milk and bread") }, "\(tmux.screen)")
        tmux.send("q")
        let list = try tasksShell("tasks list --format tsv | cut -f1,4", in: folder)
        #expect(list.stdout.contains("5\tBuy milk and bread\n") && !list.stdout.contains("1\tBuy milk"), "\(list)")
    }
}
