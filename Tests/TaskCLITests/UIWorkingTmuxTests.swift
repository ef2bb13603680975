#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Issue 28's working keys in a real terminal: marks and a quick change as one command (one
/// `u`), the details pane beside the list and below it, `:42`, the due prompt's preview, the
/// help, with Korean and VS16 emoji titles, in wide and narrow windows.
@Suite("tasks ui in tmux: marks, quick keys, details", .serialized,
       .enabled(if: tasksBinary != nil && access("/usr/bin/tmux", X_OK) == 0, "needs tmux and the binary"))
struct UIWorkingTmuxTests {
    private func seeded(columns: Int, rows: Int) throws -> (TemporaryFolder, Tmux) {
        let folder = TemporaryFolder()
        _ = try tasksShell("""
            printf 'Buy milk\n한국어 할 일\nEmoji 🍽️ party 🗑️\n' | tasks add - > /dev/null
            tasks add "Pay rent" -l Home --notes 'Ask for the receipt' > /dev/null
            tasks annotate 4 'called the landlord' > /dev/null
            """, in: folder)
        return (folder, try Tmux(folder, columns: columns, rows: rows))
    }

    @Test func marksThenPriorityIsOneCommandAndOneUndo() throws {
        let (folder, tmux) = try seeded(columns: 80, rows: 16)
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") && $0.contains("Home (1)") })
        // Home's task first; mark it and the next two (Buy milk, 한국어 할 일).
        tmux.send("v", "v", "v")
        #expect(tmux.wait { $0.contains("3 marked") }, "\(tmux.screen)")
        tmux.send("p")
        #expect(tmux.wait { $0.contains("Priority of 3 tasks") })
        tmux.send("H")
        #expect(tmux.wait { !$0.contains("marked") && !$0.contains("Priority of") }, "\(tmux.screen)")
        let changed = try tasksShell("tasks list --format ids priority:H", in: folder)
        #expect(changed.stdout.split(separator: "\n").sorted() == ["1", "2", "4"], "\(changed)")
        tmux.send("u")
        #expect(tmux.wait { $0.contains("Undid #") })
        let after = try tasksShell("tasks count priority:H", in: folder)
        #expect(after.stdout == "0\n", "one u took back all three: \(after)")
        tmux.send("q")
    }

    @Test func theDetailsPaneIsBesideTheListWhenWideAndBelowWhenNarrow() throws {
        let (_, tmux) = try seeded(columns: 140, rows: 14)
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Home (1)") })
        tmux.send("Enter")
        #expect(tmux.wait { $0.contains("Ask for the receipt") && $0.contains("called the landlord") }, "\(tmux.screen)")
        let wide = tmux.screen.split(separator: "\n").map(String.init)
        let notesLine = try #require(wide.first { $0.contains("Ask for the receipt") })
        #expect(notesLine.contains("│"), "beside the list, past the rule: \(notesLine)")
        #expect(wide.contains { $0.contains("history") }, "its history")
        tmux.resize(columns: 60, rows: 20)
        #expect(tmux.wait { $0.contains("────") && $0.contains("Ask for the receipt") }, "below the list when narrow: \(tmux.screen)")
        // Down to the emoji title: the pane follows the cursor, and no stray cells are left.
        tmux.send("j", "j", "j")
        // tmux 3.3 gives 🍽️ one cell where we count two: the renderer blanks both and puts the
        // cursor after them, so a blank cell follows it here and the rest stays in its place.
        #expect(tmux.wait { $0.split(separator: "\n").contains { $0.hasPrefix("title") && $0.contains("Emoji 🍽️") && $0.contains("party 🗑️") } },
                "\(tmux.screen)")
        tmux.send("i")
        #expect(tmux.wait { !$0.contains("────") && $0.contains("Inbox (3)") })
        tmux.send("q")
    }

    @Test func colonJumpsDuePreviewsAndTheHelpListsTheKeys() throws {
        let (folder, tmux) = try seeded(columns: 80, rows: 24)
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        tmux.send(":", "3", "Enter", "D")
        tmux.send("-l 2026-12-24")
        #expect(tmux.wait { $0.contains("→ Thu 2026-12-24") }, "\(tmux.screen)")
        tmux.send("Enter")
        #expect(tmux.wait { $0.contains("Changed 3") })
        #expect(try tasksShell("tasks show 3 --format tsv", in: folder).stdout.contains("due\t2026-12-24\n"))
        tmux.send("?")
        #expect(tmux.wait { $0.contains("mark all / none") && $0.contains("start / stop") && $0.contains("the next sort") })
        tmux.send("x")
        tmux.send("Z")
        #expect(tmux.wait { $0.contains("no key 'Z' here") })
        tmux.send("q")
    }

    /// The rest of the quick keys in a narrow window: `t` tags, `A` annotates, `b` starts and
    /// stops, `m` moves (Tab completing the list), `s` sorts, `V` and `*` mark — each checked
    /// against what the command line reads back.
    @Test func tagsAnnotateStartMoveSortAndRangesInANarrowWindow() throws {
        let (folder, tmux) = try seeded(columns: 50, rows: 14)
        tmux.type("tasks ui")
        #expect(tmux.wait { $0.contains("Inbox (3)") })
        // Home's "Pay rent" is first: tags, then an annotation, then a start.
        tmux.send("t")
        tmux.send("-l", "'+bills +home'")
        tmux.send("Enter")
        #expect(tmux.wait { $0.contains("+bills") }, "\(tmux.screen)")
        tmux.send("A")
        tmux.send("-l", "'called the landlord'")
        tmux.send("Enter")
        tmux.send("b")
        #expect(tmux.wait { _ in (try? tasksShell("tasks active --format ids", in: folder).stdout) == "4\n" }, "started: \(tmux.screen)")
        let shown = try tasksShell("tasks show 4 --format tsv", in: folder).stdout
        #expect(shown.contains("tags\tbills home") && shown.contains("called the landlord"), "\(shown)")
        tmux.send("b")
        #expect(tmux.wait { _ in (try? tasksShell("tasks active --format ids", in: folder).stdout) == "" }, "stopped")
        // m on Inbox's first task, with Tab: "Ho" completes to Home.
        tmux.send("j", "m")
        tmux.send("-l", "Ho")
        tmux.send("Tab", "Enter")
        #expect(tmux.wait { $0.contains("Home (2)") && $0.contains("Inbox (2)") }, "\(tmux.screen)")
        // s: by due, named on the status line.
        tmux.send("s")
        #expect(tmux.wait { $0.contains("by due") || $0.contains("by …") || $0.contains("by du") }, "\(tmux.screen)")
        // V: the first row marked with v, then down two and V: three marked; * all, * none.
        tmux.send("g", "v", "j", "V")
        #expect(tmux.wait { $0.contains("marked") }, "\(tmux.screen)")
        tmux.send("'*'")  // quoted: the shell tmux is called through would expand it
        #expect(tmux.wait { $0.contains("4 marked") }, "all four: \(tmux.screen)")
        tmux.send("'*'")
        #expect(tmux.wait { !$0.contains("marked") }, "none: \(tmux.screen)")
        tmux.send("q")
    }
}
