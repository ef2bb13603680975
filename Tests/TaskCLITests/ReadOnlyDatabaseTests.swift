#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Issue 24: a database the user can read but not write — a read-only mount, someone else's
/// folder — could not even be listed ("is read-only; nothing was changed" for `list`). Every
/// reading command must work there, and only changing commands may say "nothing was changed".
@Suite("A database that can be read but not written", .serialized, .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct ReadOnlyDatabaseTests {
    /// The reading commands, and what each prints on the writable original.
    static let reads = ["list", "list --all --format json", "show 1", "lists", "next", "history --format tsv", "export", "list --search milk"]

    /// Runs each reading command on `original` and on `readOnly` (as `user`, when given) and
    /// checks that they print the same; then that changes fail as read-only and leave the file.
    func check(original: String, readOnly: String, as user: String = "", in folder: TemporaryFolder) throws {
        var script = "set -u\n"
        for (index, read) in Self.reads.enumerated() {
            script += "tasks --db '\(original)' \(read) > w\(index).out 2>&1; "
            script += "\(user) tasks --db '\(readOnly)' \(read) > r\(index).out 2>&1; echo \"\(read): $? $(cmp -s w\(index).out r\(index).out && echo same || echo differs)\"\n"
        }
        script += """
            before=$(cat '\(readOnly)' | cksum)
            \(user) tasks --db '\(readOnly)' add 'New one' 2>add.err; echo "add: $?"
            \(user) tasks --db '\(readOnly)' done 1 2>done.err; echo "done: $?"
            \(user) tasks --db '\(readOnly)' show 99 2>show.err; echo "show 99: $?"
            [ "$before" = "$(cat '\(readOnly)' | cksum)" ] && echo unchanged
            cat add.err done.err show.err
            """
        let result = try tasksShell(script, in: folder)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for read in Self.reads {
            #expect(lines.contains("\(read): 0 same"), "\(read) reads the file as the writable copy does\n\(result)")
        }
        #expect(lines.contains("add: 1") && lines.contains("done: 1") && lines.contains("show 99: 1") && lines.contains("unchanged"), "\(result)")
        #expect(lines.filter { $0 == "tasks: '\(readOnly)' is read-only; nothing was changed" }.count == 2, "\(result)")
        #expect(lines.contains("tasks: no task with id 99"), "a read does not say nothing was changed\n\(result)")
    }

    /// `FOLDER/tasks.db` with two tasks (one done), and a writable copy of it as `original.db`.
    static func seed(_ folder: TemporaryFolder, in name: String) throws {
        let path = folder.file(name + "/tasks.db")
        _ = try tasksShell("""
            mkdir -p '\(name)' && printf 'Buy milk\\nCall mom\\n' | tasks --db '\(path)' add - -t home -q && tasks --db '\(path)' done 2 -q
            chmod 755 '\(name)' . && chmod 644 '\(path)' && cp '\(path)' original.db
            """, in: folder)
    }

    /// A read-only bind mount: SQLite cannot make the WAL's `-shm` beside the file.
    static let canBindMount: Bool = {
        let folder = TemporaryFolder()
        _ = runShell("mkdir a b", in: folder)
        let mounted = runShell("mount --bind a b && mount -o remount,bind,ro b", in: folder).status == 0
        _ = runShell("umount b", in: folder)
        return mounted
    }()

    @Test(.enabled(if: canBindMount, "needs permission to make a read-only bind mount"))
    func onAReadOnlyMount() throws {
        let folder = TemporaryFolder()
        try Self.seed(folder, in: "source")
        #expect(runShell("mkdir mounted && mount --bind source mounted && mount -o remount,bind,ro mounted", in: folder).status == 0)
        defer { _ = runShell("umount mounted", in: folder) }
        try check(original: folder.file("original.db"), readOnly: folder.file("mounted/tasks.db"), in: folder)
    }

    /// Someone else's file in someone else's folder, readable by all (as `nobody`).
    static let canRunAsNobody: Bool = getuid() == 0 && runShell("setpriv --reuid=65534 --regid=65534 --clear-groups true", in: TemporaryFolder()).status == 0

    @Test(.enabled(if: canRunAsNobody, "needs root and setpriv to run as another user"))
    func inSomeoneElsesFolder() throws {
        let folder = TemporaryFolder()
        try Self.seed(folder, in: "theirs")
        try check(original: folder.file("original.db"), readOnly: folder.file("theirs/tasks.db"),
                  as: "setpriv --reuid=65534 --regid=65534 --clear-groups", in: folder)
    }
}
