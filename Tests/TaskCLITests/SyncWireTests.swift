import SyncWire
import TaskInterchange
import TaskModel
import TaskRemote
import Testing
import TextFormats

@Suite("sync: the helper's lines, the fields' JSON, addresses without passwords")
struct SyncWireTests {
    @Test func linesRoundTripEveryByteThatMatters() {
        let fields = ["push", "tab\there", "new\nline", "back\\slash", "cr\r", "", "한국어 🎉", "\\t literally"]
        let line = WireLine.encode(fields)
        #expect(!line.contains("\n") && line.split(separator: "\t", omittingEmptySubsequences: false).count == fields.count)
        #expect(WireLine.decode(line) == fields)
        #expect(WireLine.decode("a\\") == ["a\\"], "a lone backslash at the end stands for itself")
        #expect(WireLine.decode("a\\qb") == ["a\\qb"])
    }

    @Test func fieldsRoundTripThroughJSONAsPostgreSQLPrintsThem() throws {
        let fields: [String: SyncValue] = ["title": .text("Buy \"milk\"\n🥛"), "done": .integer(1), "due": .null, "position": .integer(-65536)]
        #expect(try SyncFieldsJSON.decode(SyncFieldsJSON.encode(fields)) == fields)
        // The bytes a JSONValue of the same members, keys sorted, serializes to (a CalDAV
        // remote's memory keeps them, and compares them later).
        let every: [String: SyncValue] = fields.merging(["min": .integer(.min), "max": .integer(.max), "zero": .integer(0),
                                                         "control": .text("\u{1B}[31m\u{7F}\u{2028}"), "": .text("")]) { $1 }
        let serialized = JSONValue.object(every.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }).serialized()
        #expect(SyncFieldsJSON.encode(every) == serialized)
        #expect(SyncFieldsJSON.encode([:]) == "{}")
        // jsonb's text output: a space after each colon and comma.
        #expect(try SyncFieldsJSON.decode(#"{"done": 1, "due": null, "title": "x"}"#) == ["done": .integer(1), "due": .null, "title": .text("x")])
        for bad in ["", "[]", #"{"a": 1.5}"#, #"{"a": true}"#, #"{"a": 1} x"#, #"{"a": {"b": 1}}"#, "{"] {
            #expect(throws: SyncFieldsError.self, "\(bad)") { try SyncFieldsJSON.decode(bad) }
        }
    }

    /// A `change` line read in place (its bytes) and read as fields give the same change; a
    /// line with an escape is left to the fields; the positions hold what `decode` gives by name.
    @Test func aChangeLineReadInPlaceIsTheSameAsReadAsFields() throws {
        let fields = #"{"due": null, "done": 1, "list": "Inbox", "title": "한국어 🎉", "x-future": 5, "deleted": 0, "position": -65536}"#
        let plain = ["change", "42", "id-1", "node-1", "laptop", "117723731756187648", "task-1", fields]
        let line = WireLine.encode(plain)
        let inPlace = try #require(try PostgresRemote.receivedChange(bytes: ArraySlice(line.utf8), remote: "r"))
        #expect(inPlace == (try PostgresRemote.receivedChange(from: plain, remote: "r")))
        #expect(inPlace.seq == 42 && inPlace.clock == 117_723_731_756_187_648 && inPlace.task == "task-1" && inPlace.deleted == .integer(0))
        var byName = try SyncFieldsJSON.decode(fields)
        byName["x-future"] = nil
        #expect(inPlace.fields == byName, "every task field by its position, and deleted; the unknown key dropped")
        let escaped = WireLine.encode(["change", "1", "i", "n", "o", "5", "t", #"{"title": "tab\there"}"#])
        #expect(try PostgresRemote.receivedChange(bytes: ArraySlice(escaped.utf8), remote: "r") == nil)
        #expect(try PostgresRemote.receivedChange(bytes: ArraySlice("end".utf8), remote: "r") == nil)
        #expect(throws: TaskServiceError.self) { try PostgresRemote.receivedChange(bytes: ArraySlice("change\tx\ti\tn\to\t5\tt\t{}".utf8), remote: "r") }
        // Fields that are no JSON object of values: kept aside by the sync, not a failure of it.
        let unreadable = try PostgresRemote.receivedChange(bytes: ArraySlice("change\t1\ti\tn\to\t5\tt\t{\"a\": 1.5}".utf8), remote: "r")
        #expect(unreadable?.rejection?.hasPrefix("its fields are unreadable") == true && unreadable?.id == "i" && unreadable?.node == "n")
    }

    @Test(arguments: [
        ("postgresql://me:s3cret@db.example.com:5432/tasks", "postgresql://me@db.example.com:5432/tasks"),
        ("postgres://me:p%40ss@host/tasks?sslmode=verify-full&password=x", "postgres://me@host/tasks?sslmode=verify-full"),
        ("postgresql://me@host/tasks", "postgresql://me@host/tasks"),
        ("postgresql://host/tasks", "postgresql://host/tasks"),
        ("host=db dbname=tasks password=s3cret user=me", "host=db dbname=tasks user=me"),
        ("host=db password='with space \\' quote' dbname=tasks", "host=db dbname=tasks"),
        ("host=db PASSWORD = s3cret", "host=db"),
        // As libpq itself reads them (checked with PQconninfoParse): the user part ends at the
        // first @ before any /, so ? and # belong to the password, and a parameter's name is
        // percent-decoded.
        ("postgresql://me:pa?ss@host/db", "postgresql://me@host/db"),
        ("postgresql://me:pa#ss@host/db?sslmode=require", "postgresql://me@host/db?sslmode=require"),
        ("postgresql://me:p@ss@host/db", "postgresql://me@ss@host/db"),
        ("postgresql://host/db?pass%77ord=x&user=me", "postgresql://host/db?user=me"),
        ("postgresql://host?password=x", "postgresql://host"),
    ])
    func passwordsAreTakenOutOfAddresses(address: String, expected: String) {
        #expect(RemoteAddress.withoutPassword(address) == expected)
    }

    @Test func theMergeSendsWinnersAndReportsSameFieldConflictsAlikeEverywhere() {
        func change(_ node: String, _ clock: Int64, _ fields: [String: SyncValue]) -> SyncChange {
            SyncChange(id: "\(node)\(clock)", node: node, origin: node, clock: clock, task: "t", fields: fields)
        }
        let mine = change("a", 20, ["title": .text("mine"), "notes": .text("n")])
        let theirs = change("b", 10, ["title": .text("theirs"), "due": .text("2027-01-01")])
        let merge = SyncMerge(local: [mine], incoming: [theirs])
        #expect(merge.pushes.map(\.fields) == [["title": .text("mine"), "notes": .text("n")]])
        #expect(merge.incoming.first?.applied == ["due": .text("2027-01-01")])
        #expect(merge.conflicts.map(\.kept) == [.text("mine")] && merge.conflicts.first?.keptLocal == true)
        // Seen from the other machine: the same winner.
        let other = SyncMerge(local: [theirs], incoming: [mine])
        #expect(other.pushes.map(\.fields) == [["due": .text("2027-01-01")]])
        #expect(other.incoming.first?.applied == ["title": .text("mine"), "notes": .text("n")])
        #expect(other.conflicts.map(\.kept) == [.text("mine")] && other.conflicts.first?.keptLocal == false)
        // A tie on the clock goes to the greater node, on both sides.
        let tie = SyncMerge(local: [change("a", 5, ["title": .text("a")])], incoming: [change("b", 5, ["title": .text("b")])])
        #expect(tie.conflicts.first?.kept == .text("b"))
        // A delete there wins over changes here: nothing is sent for the task.
        let deleted = SyncMerge(local: [mine], incoming: [change("b", 1, ["deleted": .integer(1)])])
        #expect(deleted.pushes.isEmpty && deleted.incoming.first?.isDeleted == true)
        // With a remote whose other clients keep no history (CalDAV), the edit wins either way:
        // deleted there, changed here — sent whole, the delete not applied, reported;
        let kept = SyncMerge(local: [mine], incoming: [change("b", 99, ["deleted": .integer(1)])], editsBeatDeletes: true)
        #expect(kept.pushes.map(\.task) == ["t"] && kept.sentWhole == ["t"] && kept.incoming.first?.applied == [:])
        #expect(kept.conflicts.map(\.field) == ["deleted"] && kept.conflicts.first?.keptLocal == true && kept.conflicts.first?.replacedFrom == "b")
        // deleted here, changed there — the delete not sent, the task made again with theirs.
        let back = SyncMerge(local: [change("a", 99, ["deleted": .integer(1)])], incoming: [theirs], editsBeatDeletes: true)
        #expect(back.pushes.isEmpty && back.incoming.first?.restores == true && back.incoming.first?.applied == theirs.fields)
        #expect(back.conflicts.map(\.field) == ["deleted"] && back.conflicts.first?.keptLocal == false && back.conflicts.first?.keptFrom == "b")
        // A delete on both sides is no conflict.
        let both = SyncMerge(local: [change("a", 9, ["deleted": .integer(1)])], incoming: [change("b", 9, ["deleted": .integer(1)])], editsBeatDeletes: true)
        #expect(both.conflicts.isEmpty && both.incoming.first?.isDeleted == true)
    }
}

@Suite("tasks sync without a server")
struct SyncProgressTests {
    @Test func aTerminalSeesSyncingUntilTheSyncEndsAPipeDoesNot() {
        let cli = CLI()
        cli.run("add", "kept")
        let before = cli.snapshot()
        let address = ["sync", "--remote", "postgresql://nobody@127.0.0.1:1/none"]
        let onTerminal = cli.run(address, terminal: true)
        #expect(onTerminal.status == 1)
        #expect(onTerminal.stderr.hasPrefix("Syncing…\r\u{1B}[Ktasks: "), "the progress line is cleared before the message")
        let inPipe = cli.run(address)
        #expect(inPipe.status == 1)
        #expect(inPipe.stderr.hasPrefix("tasks: "))
        #expect(cli.snapshot() == before, "a failed sync changes nothing here")
    }
}
