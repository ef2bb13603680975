import _TestSupport
import Testing

/// The edges of the files `tasks` writes and reads (issue 50): a configuration that is a
/// symbolic link, a `--db` that links to someone else's empty file, a filter nested beyond
/// reason, an import whose tasks wait on each other in a ring.
@Suite("tasks at the edges of its files", .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct FileEdgesTests {
    @Test func configSetWritesThroughASymbolicLinkAsGitDoes() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export HOME="$PWD"; mkdir -p dotfiles .config/tasks
            printf '# mine\\nweek.start = monday\\n' > dotfiles/tasks-config
            ln -s ../../dotfiles/tasks-config .config/tasks/config
            tasks config set week.start sunday > /dev/null; echo "set $?"
            [ -L .config/tasks/config ] && echo "still a link"
            cat dotfiles/tasks-config
            """, in: folder)
        #expect(result.stdout == "set 0\nstill a link\n# mine\nweek.start = \"sunday\"\n", "\(result)")
    }

    @Test func aDatabaseLinkToSomeoneElsesEmptyFileIsRefusedAndTheFileUntouched() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            : > notes.txt; chmod 644 notes.txt; ln -s notes.txt link.db
            tasks --db link.db add x -q 2> err; echo "add $?"; cat err
            tasks --db link.db list 2> err; echo "list $?"
            wc -c < notes.txt
            """, in: folder)
        #expect(result.stdout.hasPrefix("add 1\ntasks: 'link.db' is not a tasks database (it links to an empty file that tasks did not make"), "\(result)")
        #expect(result.stdout.hasSuffix("list 1\n0\n"), "\(result)")
    }

    @Test func aFilterNestedBeyondReasonIsAMessageNotACrash() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            tasks add x -q
            deep=$(printf '%.0s(' $(seq 20000))x$(printf '%.0s)' $(seq 20000))
            tasks list "$deep" 2> err; echo "parens $?"; cut -c1-120 err | head -1
            nots=$(printf 'not %.0s' $(seq 20000))x
            tasks list $nots 2> err; echo "nots $?"
            xors=x$(printf ' xor y%.0s' $(seq 20000))
            tasks list $xors 2> err; echo "xors $?"
            tasks list '((((x))))' --format tsv | wc -l
            """, in: folder)
        #expect(result.stdout.hasPrefix("parens 2\n"), "\(result)")
        #expect(result.stdout.contains("nests more than 256 deep"), "\(result)")
        #expect(result.stdout.contains("nots 2\nxors 2\n1\n"), "\(result)")
    }

    @Test func anImportWhoseTasksWaitOnEachOtherInARingIsRefusedWhole() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            tasks add first -q
            A=01a24935-0000-7000-8000-00000000000a; B=01a24935-0000-7000-8000-00000000000b; C=01a24935-0000-7000-8000-00000000000c
            printf '[{"uuid":"%s","title":"a","depends":["%s"]},{"uuid":"%s","title":"b","depends":["%s"]},{"uuid":"%s","title":"c","depends":["%s"]}]' \\
                $A $B $B $C $C $A > ring.json
            sqlite3 tasks.db .dump > before.sql
            tasks import ring.json 2> err; echo "ring $?"; cat err
            sqlite3 tasks.db .dump | cmp -s - before.sql && echo unchanged
            printf '[{"uuid":"%s","title":"a","depends":["%s"]},{"uuid":"%s","title":"b"}]' $A $B $B > chain.json
            tasks import chain.json > /dev/null; echo "chain $?"
            """, in: folder)
        #expect(result.stdout.hasPrefix("ring 2\ntasks: that would make tasks wait on each other in a circle"), "\(result)")
        #expect(result.stdout.contains("unchanged\nchain 0\n"), "\(result)")
    }

    /// A Taskwarrior or todo.txt file is read whole: past 512 MB it is refused, not read on
    /// into memory without end (issue 50: import held every record of any input).
    @Test func aWholeFileFormatPastItsBoundIsRefusedAndNothingImported() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            tasks add first -q
            yes 'x (A) a task +tag' | head -c 540000000 | tasks import --format todotxt - 2> err; echo "status $?"; head -c 160 err; echo
            tasks list --format tsv | wc -l
            """, in: folder)
        #expect(result.stdout.hasPrefix("status 2\ntasks: cannot import stdin: a todotxt file is read whole"), "\(result)")
        #expect(result.stdout.hasSuffix("\n1\n"), "\(result)")
    }
}
