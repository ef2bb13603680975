#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Issue 55: Taskwarrior's hooks, run through the binary as a user runs them — small hooks
/// written here in shell and Python, Taskwarrior 2.6 handed the same hook for comparison, and
/// Timewarrior's own unchanged `on-modify.timewarrior`.
@Suite("Hooks: Taskwarrior's protocol, Timewarrior's hook", .serialized, .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct HookTests {
    static let timewarriorHook = "/usr/share/doc/timewarrior/ext/on-modify.timewarrior"

    /// `script` with `$HOOKS` the hooks folder (`$XDG_CONFIG_HOME/tasks/hooks`), and `hook
    /// NAME` writing stdin to an executable hook there.
    func withHooks(_ script: String) throws -> (ShellResult, TemporaryFolder) {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export XDG_CONFIG_HOME="$PWD/config" HOME="$PWD"; HOOKS="$XDG_CONFIG_HOME/tasks/hooks"; mkdir -p "$HOOKS"
            hook() { cat > "$HOOKS/$1"; chmod +x "$HOOKS/$1"; }
            \(script)
            """, in: folder)
        return (result, folder)
    }

    /// An on-add hook's change is the task's, in the same history entry; a refusal leaves the
    /// file byte for byte as it was, status 1 with the hook's first line; feedback goes to
    /// stderr; `--no-hooks` and `hooks = off` run none; `tasks hooks` lists them.
    @Test func onAddChangesOrRefusesAndFeedbackGoesToStderr() throws {
        let (result, _) = try withHooks("""
            hook on-add.tag <<'PY'
            #!/usr/bin/env python3
            import json, sys
            task = json.loads(sys.stdin.readline())
            task.setdefault("tags", []).append("hooked")
            if "Sunday" in task["description"]:
                print("No tasks on Sundays")
                print("(a second line of feedback)")
                sys.exit(1)
            print(json.dumps(task))
            print("tagged " + task["description"])
            PY
            tasks add Buy milk > out 2> err; echo "add: $? $(cat out | wc -l) $(cat err)"
            tasks list --format tsv; tasks history --format tsv | cut -f3- | head -3
            cp tasks.db before.db
            tasks add Plan Sunday 2> err; echo "refused: $?"; cat err
            cmp tasks.db before.db && echo "file unchanged"
            tasks --no-hooks add Sunday lunch > /dev/null; echo "no-hooks: $(tasks list --format tsv | tail -1)"
            tasks -c hooks=off add Sunday brunch > /dev/null; echo "off: $(tasks list --format tsv | tail -1)"
            touch "$HOOKS/on-exit.notyet"; tasks hooks
            tasks undo > /dev/null; tasks undo > /dev/null; tasks undo > /dev/null; echo "undone: $(tasks count)"
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("add: 0 1 tagged Buy milk\n"), "\(result)")
        #expect(result.stdout.contains("1\tfalse\tInbox\tBuy milk\t\t\thooked\n"), "\(result)")
        #expect(result.stdout.contains("refused: 1\n(a second line of feedback)\ntasks: the hook on-add.tag refused it: No tasks on Sundays; nothing was changed\n"), "\(result)")
        #expect(result.stdout.contains("file unchanged\n"), "\(result)")
        #expect(result.stdout.contains("no-hooks: 2\tfalse\tInbox\tSunday lunch\t\t\t\n"), "\(result)")
        #expect(result.stdout.contains("off: 3\tfalse\tInbox\tSunday brunch\t\t\t\n"), "\(result)")
        #expect(result.stdout.contains("  on-add   on-add.tag\n  on-exit  on-exit.notyet  (not executable: it does not run)\n"), "\(result)")
        // One entry per add: undoing three leaves nothing, the hook's tag went with its add.
        #expect(result.stdout.contains("undone: 0\n"), "\(result)")
    }

    /// on-modify sees the task before and after, and its change is written with the command's;
    /// a hook that hangs is stopped after hooks.timeout and refuses; on-launch can refuse any
    /// command; on-exit is given what changed.
    @Test func onModifyLaunchExitAndAHangingHook() throws {
        let (result, _) = try withHooks("""
            tasks add Write report +work > /dev/null
            hook on-modify.prio <<'PY'
            #!/usr/bin/env python3
            import json, sys
            old, new = json.loads(sys.stdin.readline()), json.loads(sys.stdin.readline())
            if "start" in new and "start" not in old:
                new["priority"] = "H"
            print(json.dumps(new))
            PY
            hook on-exit.log <<'SH'
            #!/bin/sh
            cat >> "$HOME/exit.log"
            SH
            tasks start 1 > /dev/null; echo "start: $? $(tasks list --format tsv)"
            head -c 60 exit.log; echo
            hook on-modify.zz-hang <<'SH'
            #!/bin/sh
            sleep 30
            SH
            start=$(date +%s); tasks -c hooks.timeout=1 stop 1 2> err; echo "hang: $? in $(( $(date +%s) - start )) s"; cat err
            rm "$HOOKS/on-modify.zz-hang"
            hook on-launch.gate <<'SH'
            #!/bin/sh
            echo "closed for maintenance"; exit 3
            SH
            tasks list 2> err; echo "launch: $?"; cat err
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("start: 0 1\tfalse\tInbox\tWrite report\t\tH\twork\n"), "\(result)")
        #expect(result.stdout.contains("{\"uuid\":"), "on-exit was given the task\n\(result)")
        #expect(result.stdout.contains("tasks: the hook on-modify.zz-hang refused it: it did not finish within 1 s (hooks.timeout), and was stopped; nothing was changed\n"), "\(result)")
        let seconds = result.stdout.split(separator: "\n").first { $0.hasPrefix("hang: 1 in ") }.flatMap { Int($0.dropFirst("hang: 1 in ".count).prefix { $0.isNumber }) }
        #expect(seconds.map { $0 <= 5 } == true, "\(result)")
        #expect(result.stdout.contains("launch: 1\ntasks: the hook on-launch.gate refused it: closed for maintenance\n"), "\(result)")
    }

    /// The same hook under Taskwarrior 2.6 and under tasks, on the same words: the same
    /// arguments (but the program's name and version, the files' places) and JSON of the same
    /// shape — the same members, the dates in Taskwarrior's form.
    @Test(.enabled(if: access("/usr/bin/task", X_OK) == 0, "needs Taskwarrior (task)"))
    func aHookSeesWhatTaskwarriorHandsIt() throws {
        let (result, _) = try withHooks("""
            hook on-add.dump <<'SH'
            #!/bin/sh
            for a in "$@"; do echo "$a" | sed -e 's/:.*//' -e 's/^/arg /' >> "$HOME/$WHO.log"; done
            for a in "$@"; do case "$a" in command:*|api:*) echo "$a" >> "$HOME/$WHO.log";; esac; done
            read line; echo "$line" > "$HOME/$WHO.json"; echo "$line"
            SH
            printf 'data.location=%s/tw\\nhooks.location=%s\\nconfirmation=off\\nverbose=nothing\\n' "$PWD" "$HOOKS" > taskrc; mkdir tw
            WHO=tw TASKRC="$PWD/taskrc" task add Buy milk project:Home +errand due:2026-12-10 priority:H > /dev/null
            WHO=us tasks add Buy milk project:Home +errand due:2026-12-10 priority:H > /dev/null
            diff tw.log us.log && echo "same arguments"
            for who in tw us; do python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print(sys.argv[2], sorted(t), t["due"][8:], t["entry"][8], t["tags"], t["project"])' $who.json $who; done
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("same arguments\n"), "\(result)")
        let lines = result.stdout.split(separator: "\n")
        let tw = lines.first { $0.hasPrefix("tw ") }.map { $0.dropFirst(3) }
        let us = lines.first { $0.hasPrefix("us ") }.map { $0.dropFirst(3) }
        #expect(tw != nil && tw == us, "\(result)")
    }

    /// Timewarrior's own hook, copied unchanged from Debian's package, under Taskwarrior 2.6
    /// and under tasks, the same commands in the same order: start, stop, a start and stop of
    /// two tasks at once, start and done. `timew export` holds the same intervals with the same
    /// tags (the task's title, list and tags) both ways. Of the two started at once, the second
    /// is recorded only when its hook ran in another second than the first's (Timewarrior
    /// refuses a second start in the same second), under either tool: left out. Then, here
    /// only, an emoji title (Taskwarrior 2.6 hands the hook its four bytes mangled, so that
    /// `timew stop` finds no such tag and the interval stays open).
    @Test(.enabled(if: access("/usr/bin/timew", X_OK) == 0 && access(HookTests.timewarriorHook, R_OK) == 0 && access("/usr/bin/task", X_OK) == 0,
                   "needs Timewarrior and Taskwarrior"))
    func timewarriorTracksStartedTasksAsUnderTaskwarrior() throws {
        let (result, _) = try withHooks("""
            cp "\(Self.timewarriorHook)" "$HOOKS/"; chmod +x "$HOOKS/on-modify.timewarrior"
            printf 'data.location=%s/tw\\nhooks.location=%s\\nconfirmation=off\\nverbose=nothing\\n' "$PWD" "$HOOKS" > taskrc; mkdir tw
            for who in tw us; do
                export TIMEWARRIORDB="$PWD/timew-$who"; mkdir -p "$TIMEWARRIORDB/data"; touch "$TIMEWARRIORDB/timewarrior.cfg"
                if [ $who = tw ]; then t() { TASKRC="$PWD/taskrc" task "$@"; }; else t() { tasks "$@"; }; fi
                t add Write the report project:Work +q4; t add Call 엄마; t add Read
                t 1 start && sleep 1.1 && t 1 stop && sleep 1.1
                t 1,3 start && sleep 1.1 && t 1,3 stop && sleep 1.1
                t 2 start && sleep 1.1 && t 2 done
                timew export | python3 -c 'import json,sys
            for i in json.load(sys.stdin): print(sorted(i["tags"]), "end" in i)' > $who.txt
            done > /dev/null 2>&1
            # Whether Timewarrior took the second of two tasks started at once depends on whether
            # the two hooks ran in the same second, under either tool: that line is left out.
            grep -v "^\\['Read'\\]" tw.txt > tw-kept.txt; grep -v "^\\['Read'\\]" us.txt > us-kept.txt
            cat us-kept.txt; diff tw-kept.txt us-kept.txt && echo "the same as Taskwarrior's"
            tasks add Party 🎉 > /dev/null; tasks start 4 > /dev/null; sleep 1.1; tasks done 4 > /dev/null 2>&1
            timew export | python3 -c 'import json,sys; i = json.load(sys.stdin)[-1]; print(i["tags"], "end" in i)'
            """)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
            ['Work', 'Write the report', 'q4'] True
            ['Work', 'Write the report', 'q4'] True
            ['Call 엄마'] True
            the same as Taskwarrior's
            ['Party 🎉'] True

            """, "\(result)")
    }
}
