#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// What another client, a peer or a file wrote never reaches a terminal as a control sequence
/// (issue 51): `show` (annotations, custom fields, every row), `context` and `config` write it
/// with its controls, bidirectional overrides and invisible characters shown visibly. Run
/// under a pseudo-terminal (`script`), with the program's own colours off, so that any escape
/// byte in what the terminal received came from the data. A pipe keeps the bytes as they are.
@Suite("tasks: no field reaches a terminal as a sequence",
       .enabled(if: tasksBinary != nil && access("/usr/bin/script", X_OK) == 0, "needs the binary and script(1)"))
struct TerminalInjectionTests {
    /// Writes the file `evil`: every kind of byte a terminal obeys or hides, and the program's
    /// own style marks.
    static let payload = #"""
        python3 -c 'import sys; sys.stdout.write("\x1b[2J\x1b]0;evil\x07\x7f\u009b31m\u202eR\u2066L\u200bZ\ufeffB\u200dJ\ufdd1\ufdd0M")' > evil
        """#

    /// Reads `terminal.out` (what a pseudo-terminal received) and prints, for each kind of
    /// byte, how many lines hold it raw (`ESC: 0 `), then how often the payload was shown.
    static let check = #"""
        python3 - <<'CHECK'
        from re import search, findall
        # The program's own erase of its progress line is the one sequence it sends.
        data = open("terminal.out", "rb").read().decode("utf-8", "replace").replace("\r\x1b[K", "")
        kinds = {"ESC": "\x1b", "BEL": "\x07", "DEL": "\x7f", "C1": "\u009b", "RLO": "\u202e", "LRI": "\u2066",
                 "ZWSP": "\u200b", "BOM": "\ufeff", "MARK": "\ufdd0|\ufdd1", "STRAY ZWJ": "B\u200dJ"}
        for name, pattern in kinds.items():
            found = [line for line in data.splitlines() if search(pattern, line)]
            print(f"{name}: {len(found)}", found[:2] if found else "")
        print("shown:", len(findall(r"\\e\[2J\\e\]0;evil\\x07", data)))
        CHECK
        """#

    @Test func showContextAndConfigShowWhatOthersWroteVisibly() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export HOME="$PWD"; mkdir -p .config/tasks; printf 'uda.size.type = string\\n' > .config/tasks/config
            # Clear the screen, home, retitle, red, ask for the cursor's place, a right-to-left
            # override, a zero-width space, a stray joiner.
            printf '\\033[2J\\033[H\\033]0;evil-title\\007\\033[31m\\033[6n\\342\\200\\256hidden\\342\\200\\213x\\342\\200\\215y' > evil
            cat > run.sh <<'SCRIPT'
            EVIL=$(cat evil)
            tasks add 'Plain title' -q
            tasks annotate 1 "$EVIL" -q
            tasks edit 1 --set "size=$EVIL" -q
            tasks add "Also $EVIL" --blocks 1 -q
            tasks show 1
            tasks show 1 --format tsv
            tasks config set context.evil.filter "$EVIL"
            tasks config get context.evil.filter
            tasks config
            tasks context
            tasks context define evil2 "$EVIL"
            SCRIPT
            script -qec 'sh run.sh' /dev/null > terminal.out 2>&1; echo "status $?"
            echo "escape bytes: $(tr -cd '\\033\\007' < terminal.out | wc -c)"
            echo "override bytes: $(grep -c "$(printf '\\342\\200\\256')" terminal.out)"
            grep -c 'annotations.*\\\\e\\[2J\\\\e\\[H\\\\e\\]0;evil-title\\\\x07\\\\e\\[31m\\\\e\\[6n' terminal.out
            grep -c '^size  ' terminal.out
            grep -c 'x202ehidden\\\\x200bx\\\\x200dy' terminal.out
            sh run.sh 2>&1 | grep -c "$(printf '\\033')\\[2J" || true
            """, in: folder)
        #expect(result.stdout.hasPrefix("status 0\nescape bytes: 0\noverride bytes: 0\n"), "nothing of the data's sequences reached the terminal\n\(result)")
        let counts = result.stdout.split(separator: "\n").dropFirst(3).compactMap { Int($0) }
        #expect(counts.count == 4 && counts[0] >= 1 && counts[1] >= 1 && counts[2] >= 1, "shown visibly instead\n\(result)")
        #expect(counts.last ?? 0 >= 1, "a pipe keeps the bytes as they are\n\(result)")
    }

    @Test func anEmojiJoinedSequenceKeepsItsJoinerAndAStrayOneIsShown() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            tasks add 'a👩‍💻b' -q; tasks add "$(printf 'x\\342\\200\\215y')" -q
            script -qec 'tasks show 1; tasks show 2' /dev/null > terminal.out 2>&1
            grep -c 'a👩‍💻b' terminal.out; grep -c 'x\\\\x200dy' terminal.out
            """, in: folder)
        #expect(result.stdout == "1\n1\n", "\(result)")
    }

    /// The sweep: every command that writes what a field holds, with a payload of every kind
    /// of byte a terminal obeys or hides — escape sequences, BEL, DEL, a C1 CSI, overrides and
    /// isolates, zero-width and invisible characters, a stray joiner and the program's own
    /// style marks (which must not be forgeable) — in every field, on a pseudo-terminal. Nothing
    /// of it may arrive raw, by whichever path (the list, the table, messages, errors, reports,
    /// history, context, config, import): `Output`'s terminal guard is the last step of all.
    @Test func noCommandLetsAnyFieldReachTheTerminalRaw() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell(#"""
            export HOME="$PWD"; mkdir -p .config/tasks; printf 'uda.size.type = string\n' > .config/tasks/config
            \#(Self.payload)
            cat > run.sh <<'SCRIPT'
            E=$(cat evil)
            tasks add "T $E" --list "L$E" --notes "N $E" --tag "g$E" --set "size=$E" -q
            tasks add "Second $E" --blocked-by 1 -q
            tasks annotate 1 "A $E" -q; tasks append 1 "P $E" -q; tasks prepend 2 "Q $E"
            tasks list; tasks ls --format tsv; tasks ls --format csv; tasks ls --format json; tasks next; tasks count "$E"
            tasks show 1; tasks show 2; tasks lists; tasks tags; tasks summary; tasks history
            tasks start 1; tasks active; tasks stop 1; tasks done 2; tasks list --all; tasks undo; tasks redo
            tasks denotate 1 "A $E"; tasks undo
            tasks context define c "$E"; tasks context; tasks context show c; tasks context use c; tasks list; tasks context use none
            tasks report define r --filter "$E"; tasks report r; tasks r
            tasks config set "k.$E" "$E"; tasks config get "k.$E"; tasks config
            tasks sync "$E"; tasks show "$E"; tasks edit 1 --due "$E"; tasks add "x" --list "$E."; tasks "$E"
            tasks export > out.json; tasks import out.json
            python3 -c 'import json,sys; e=open("evil").read(); print(json.dumps({"description": "W " + e, "status": "pending", "uuid": "8ad2e7b6-3f0c-4a3e-9a5b-0c7d1f2e3a4b", "project": "P" + e, "annotations": [{"entry": "20260101T000000Z", "description": "X " + e}]}, ensure_ascii=False))' > tw.json
            tasks import --format taskwarrior tw.json; tasks list; tasks show 4
            printf '(A) todo %s +p%s\n' "$E" "$E" > todo.txt; tasks import --format todotxt todo.txt; tasks list --format table
            SCRIPT
            script -qec 'sh run.sh' /dev/null > terminal.out 2>&1; echo "status $?"
            \#(Self.check)
            """#, in: folder)
        #expect(result.stdout.hasPrefix("status 0\n"), "\(result)")
        for kind in ["ESC", "BEL", "DEL", "C1", "RLO", "LRI", "ZWSP", "BOM", "MARK", "STRAY ZWJ"] {
            #expect(result.stdout.contains("\n\(kind): 0 \n"), "\(kind) reached the terminal raw\n\(result)")
        }
        let shown = result.stdout.split(separator: "\n").last.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        #expect(shown >= 20, "the payload was shown visibly, many times over\n\(result)")
    }
}
