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
}
