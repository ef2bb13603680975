#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Issue 51's "the screen shows what you did", in a real terminal: each of these failed on
/// the code before it — marks drawn, the bulk question naming its tasks, the notes scrolling
/// with the caret, a bracketed paste keeping its lines, an emoji typed a code point at a time
/// edited whole, the help and the details pane scrolling in a small window, `@` offering the
/// contexts, a started task marked and said so, the status line naming the command line's
/// filter, `f` moving on at once, and `tasks ui` refusing a mistyped path.
@Suite("tasks ui in tmux: the screen shows what you did", .serialized,
       .enabled(if: tasksBinary != nil && access("/usr/bin/tmux", X_OK) == 0, "needs tmux and the binary"))
struct UIShowsWhatYouDidTmuxTests {
    private func seeded(columns: Int = 80, rows: Int = 16) throws -> (TemporaryFolder, Tmux) {
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            printf 'Buy milk\nPay rent\n한국어 할 일 😀\nCall the plumber about the leaking kitchen tap\n' | tasks add - > /dev/null
            """, in: folder)
        return (folder, try Tmux(folder, columns: columns, rows: rows))
    }

    /// A seeded screen whose task 1 has `lines` lines of notes (`prefix 1`, …), opened.
    private func openedWithNotes(_ prefix: String, lines: Int, columns: Int, rows: Int) throws -> (TemporaryFolder, Tmux) {
        let (folder, tmux) = try seeded(columns: columns, rows: rows)
        _ = try tasksShell("tasks edit 1 --notes \"$(seq -f '\(prefix) %g' 1 \(lines))\" -q", in: folder)
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        return (folder, tmux)
    }

    private func row(_ screen: String, containing text: String) -> String {
        screen.split(separator: "\n").map(String.init).first { $0.contains(text) } ?? ""
    }

    @Test func marksAreDrawnAndTheBulkQuestionNamesThem() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        tmux.send("v", "v")
        #expect(tmux.wait { $0.contains("2 marked") })
        let screen = tmux.screen
        #expect(row(screen, containing: "Buy milk").hasPrefix(">"), "a marked row carries the marker\n\(screen)")
        #expect(row(screen, containing: "Pay rent").hasPrefix(">"), "\(screen)")
        #expect(!row(screen, containing: "한국어").hasPrefix(">"), "an unmarked row does not\n\(screen)")
        tmux.send("d")
        #expect(tmux.wait { $0.contains("Delete 2 tasks (1 Buy milk, 2 Pay rent)? (y/n)") }, "\(tmux.screen)")
        tmux.send("n")
        tmux.send("q")
        _ = folder
    }

    @Test func aLongTitleNeverPushesTheKeysOffTheQuestion() throws {
        let (_, tmux) = try seeded(columns: 40, rows: 12)
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        tmux.send("G", "d")
        #expect(tmux.wait { $0.contains("Delete \"Call the plumber") && $0.contains("…\"? (y/n)") }, "\(tmux.screen)")
        tmux.send("n", "q")
    }

    @Test func theNotesScrollWithTheCaretAndAPasteKeepsItsLines() throws {
        let (folder, tmux) = try openedWithNotes("line", lines: 40, columns: 80, rows: 24)
        tmux.send("e")
        #expect(tmux.wait { $0.contains("Edit task 1") })
        tmux.send("Tab")  // the notes, the caret at their end (line 40)
        tmux.send("-l", "'TYPED'")
        #expect(tmux.wait { $0.contains("line 40TYPED") && $0.contains("↑") }, "the caret's line is in sight\n\(tmux.screen)")
        // A bracketed paste of three lines (tmux pastes with the brackets the program asked for).
        _ = runShell("tmux -L \(tmux.server) set-buffer \"$(printf 'one\\rtwo\\rthree')\" && tmux -L \(tmux.server) paste-buffer -p", in: folder)
        #expect(tmux.wait { $0.contains("line 40TYPEDone") && $0.contains("three") }, "\(tmux.screen)")
        tmux.send("C-s")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        tmux.send("q")
        let notes = try tasksShell("tasks show 1 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"notes\"].splitlines()[-3:])'", in: folder)
        #expect(notes.stdout == "['line 40TYPEDone', 'two', 'three']\n", "\(notes)")
    }

    @Test func anEmojiTypedACodePointAtATimeIsEditedWhole() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        tmux.send("a")
        #expect(tmux.wait { $0.contains("New task") })
        tmux.send("-l", "'a👩‍💻b🇰🇷c'")
        // Home, then past a and the emoji: X goes between the emoji and b.
        tmux.send("Home", "Right", "Right", "-l", "X")
        // End, then back over c and the flag: Y goes between b and the flag.
        tmux.send("End", "Left", "Left", "-l", "Y")
        // Backspace after the flag's end takes the whole flag.
        tmux.send("End", "Left", "BSpace")
        tmux.send("C-s")
        #expect(tmux.wait { $0.contains("Added 5") }, "\(tmux.screen)")
        tmux.send("q")
        let title = try tasksShell("tasks show 5 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"title\"])'", in: folder)
        #expect(title.stdout == "a👩‍💻XbYc\n", "\(title)")
    }

    @Test func theHelpAndTheDetailsPaneScrollInASmallWindow() throws {
        let (_, tmux) = try openedWithNotes("note", lines: 30, columns: 40, rows: 12)
        tmux.send("?")
        #expect(tmux.wait { $0.contains("Keys 1–") && $0.contains("j k") }, "\(tmux.screen)")
        tmux.send("Space", "Space", "Space", "Space", "Space", "Space", "Space", "Space")
        #expect(tmux.wait { $0.contains("Ctrl-Z") && $0.contains("Ctrl-L") }, "the help's end, the suspend and redraw keys in it\n\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        tmux.send("i")
        #expect(tmux.wait { $0.contains("more (Ctrl-D)") }, "\(tmux.screen)")
        tmux.send("C-d", "C-d", "C-d", "C-d", "C-d", "C-d", "C-d", "C-d", "C-d", "C-d")
        #expect(tmux.wait { $0.contains("added 4 tasks") && $0.contains("more (Ctrl-U)") && !$0.contains("(Ctrl-D)") }, "the pane's end\n\(tmux.screen)")
        tmux.send("C-u")
        #expect(tmux.wait { $0.contains("more (Ctrl-D)") }, "and back up\n\(tmux.screen)")
        tmux.send("q")
    }

    @Test func atOffersTheContextsAndTabCyclesThem() throws {
        let (folder, tmux) = try seeded()
        _ = try tasksShell("""
            export HOME="$PWD"; tasks context define home list:Home -q; tasks context define work list:Work -q
            """, in: folder)
        tmux.type("export HOME=\"$PWD\"; tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        tmux.send("@")
        #expect(tmux.wait { $0.contains("Context (home work none; Tab cycles):") }, "\(tmux.screen)")
        tmux.send("Tab")
        #expect(tmux.wait { $0.contains("Tab cycles): home") }, "\(tmux.screen)")
        tmux.send("Tab")
        #expect(tmux.wait { $0.contains("Tab cycles): work") }, "\(tmux.screen)")
        tmux.send("Enter")
        #expect(tmux.wait { $0.contains("@work") }, "\(tmux.screen)")
        tmux.send("q")
    }

    @Test func aStartedTaskIsMarkedAndTheStatusSaysStartedAndAnnotated() throws {
        let (_, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        tmux.send("b")
        #expect(tmux.wait { $0.contains("Started 1: Buy milk") }, "\(tmux.screen)")
        #expect(row(tmux.screen, containing: "Buy milk").hasPrefix(" *"), "\(tmux.screen)")
        tmux.send("b")
        #expect(tmux.wait { $0.contains("Stopped 1: Buy milk") }, "\(tmux.screen)")
        tmux.send("A")
        tmux.send("-l", "'called'")
        tmux.send("Enter")
        #expect(tmux.wait { $0.contains("Annotated 1: Buy milk") }, "\(tmux.screen)")
        tmux.send("q")
    }

    @Test func theStatusLineNamesTheCommandLinesFilterAndFMovesOnAtOnce() throws {
        let (folder, tmux) = try seeded(columns: 100, rows: 16)
        _ = try tasksShell("tasks edit 2 --wait 2099-01-01 -q; tasks edit 2 --tag bills -q", in: folder)
        tmux.type("tasks ui +bills --waiting")
        #expect(tmux.wait { $0.contains("Waiting · 1 task") && $0.contains("+bills --waiting") }, "\(tmux.screen)")
        tmux.send("q")
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Pending · 3 tasks") }, "\(tmux.screen)")
        tmux.send("f")
        #expect(tmux.wait { $0.contains("Next · ") }, "the first f shows the next report\n\(tmux.screen)")
        tmux.send("q")
    }

    /// Issue 53: a deleted task listed by `status:deleted` takes no change but `U`, which
    /// brings it back (one `u` deletes it again); any other change key says so and changes
    /// nothing (it said "no task with id 2").
    @Test func aDeletedTaskListedTakesNoChangeButUWhichBringsItBack() throws {
        let (folder, tmux) = try seeded(columns: 100, rows: 16)
        _ = try tasksShell("tasks delete 2 -q", in: folder)
        tmux.type("tasks ui status:deleted")
        #expect(tmux.wait { $0.contains("[-]  Pay rent") && !$0.contains("Buy milk") }, "marked deleted, as the table marks it\n\(tmux.screen)")
        for key in ["x", "p", "e"] {
            tmux.send(key)
            #expect(tmux.wait { $0.contains("task 2 is deleted: U brings it back first") }, "\(key)\n\(tmux.screen)")
            tmux.send("j")  // the message goes with the next key
            #expect(tmux.wait { !$0.contains("U brings it back first") }, "\(key)\n\(tmux.screen)")
        }
        tmux.send("U")
        #expect(tmux.wait { $0.contains("Restored 2: Pay rent") }, "\(tmux.screen)")
        tmux.send("q")
        let back = try tasksShell("tasks list --format tsv | cut -f1,4; tasks count status:deleted", in: folder)
        #expect(back.stdout == "1\tBuy milk\n2\tPay rent\n3\t한국어 할 일 😀\n4\tCall the plumber about the leaking kitchen tap\n0\n", "\(back)")
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") }, "\(tmux.screen)")
        tmux.send("U")
        #expect(tmux.wait { $0.contains("U brings back a deleted task; a filter with status:deleted lists them") }, "\(tmux.screen)")
        tmux.send("q")
    }

    @Test func aMistypedPathIsRefusedAndNothingIsMade() throws {
        let folder = TemporaryFolder()
        let tmux = try Tmux(folder)
        tmux.type("tasks ui --db typo.db; echo \"status $?\"; ls typo.db")
        #expect(tmux.wait { $0.contains("status 1") && $0.contains("no database at") && $0.contains("No such file") }, "\(tmux.screen)")
        tmux.type("tasks ui --db made.db --create")
        #expect(tmux.wait { $0.contains("No tasks.") }, "\(tmux.screen)")
        tmux.send("q")
        #expect(access(folder.file("made.db"), F_OK) == 0)
    }

    @Test func anUndoOfAChangeMadeElsewhereNamesItAndAsksFirst() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (4)") })
        _ = try tasksShell("tasks add 'From elsewhere' -q", in: folder)
        #expect(tmux.wait { $0.contains("Inbox (5)") })
        tmux.send("u")
        #expect(tmux.wait { $0.contains("Undo #2 added 5 \"From elsewhere\"") && $0.contains("made elsewhere by 'tasks add") && $0.contains("? (y/n)") },
                "\(tmux.screen)")
        tmux.send("n")
        #expect(tmux.wait { !$0.contains("(y/n)") && $0.contains("Inbox (5)") }, "no: nothing undone\n\(tmux.screen)")
        // This screen's own change is undone at once.
        tmux.send("Space")
        #expect(tmux.wait { $0.contains("Done 1: Buy milk") })
        tmux.send("u")
        #expect(tmux.wait { $0.contains("Undid #3") }, "\(tmux.screen)")
        // Then the other's, once asked and answered yes.
        tmux.send("u")
        #expect(tmux.wait { $0.contains("made elsewhere") })
        tmux.send("y")
        #expect(tmux.wait { $0.contains("Undid #2") && $0.contains("Inbox (4)") }, "\(tmux.screen)")
        tmux.send("q")
        #expect(try tasksShell("tasks count", in: folder).stdout == "4\n")
    }

    /// Another process's burst (more tasks than the change feed replays one by one) shows as
    /// one reread of the window and totals; typed search words show at once and the list
    /// follows the last of them.
    @Test func anOutsideBurstIsOneRereadAndTypedWordsAreEchoedThenRead() throws {
        let (folder, tmux) = try seeded()
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Pending · 4 tasks") })
        _ = try tasksShell("seq 1 3000 | sed 's/^/Burst /' | tasks add - > /dev/null", in: folder)
        #expect(tmux.wait(seconds: 10) { $0.contains("Inbox (3004)") && $0.contains("Pending · 3,004 tasks") }, "\(tmux.screen)")
        tmux.send("/")
        tmux.send("-l", "'Buy m'")
        #expect(tmux.wait { $0.contains("/Buy m") && $0.contains("Buy milk") && !$0.contains("Burst 1") }, "\(tmux.screen)")
        tmux.send("Enter")
        #expect(tmux.wait { $0.contains("Pending · 1 task · /Buy m") }, "\(tmux.screen)")
        tmux.send("q")
    }
}
