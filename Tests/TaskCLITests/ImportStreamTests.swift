import _TestSupport
import Testing

/// `tasks import` of our JSON reads a record at a time while it writes (the memory of one
/// record, whatever the size of the file). Still all or nothing: a bad record anywhere — the
/// last of 20,000 included — or a uuid given twice (found by the lookup, or by the unique index
/// in an empty file) leaves the file byte for byte as it was, and a file the import would have
/// made is not left behind.
@Suite("tasks import: streamed, still all or nothing", .enabled(if: tasksBinary != nil, "needs the tasks binary beside the tests"))
struct ImportStreamTests {
    @Test func aBadLastRecordOrATwiceGivenUUIDLeavesEveryFileAsItWas() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            seq 1 20000 | sed 's/^/Task /' | tasks --db source.db add - -q && tasks --db source.db export > all.json || exit 9
            # The last record broken; a copy of the first record put last.
            sed '$d' all.json | sed '$s/"spent":0/"spent":"none"/' > bad-last.json && echo ']' >> bad-last.json
            { sed '$d' all.json | sed '$s/}$/},/'; sed -n 2p all.json | sed 's/,$//'; echo ']'; } > twice.json
            printf 'Kept\\n' | tasks --db kept.db add - -q && cp kept.db kept.before
            U=$(sed -n 2p all.json | grep -o '"uuid":"[^"]*"' | cut -d'"' -f4)
            for file in bad-last.json twice.json; do
                tasks --db kept.db import $file 2> out; echo "status $?" > status; sed "s/$U/UUID/" out; cat status
                cmp -s kept.db kept.before && echo 'kept.db unchanged'; ls kept.db-wal 2>/dev/null
                tasks --db new.db import $file 2> /dev/null; echo "status $?"; ls new.db* 2>/dev/null || echo 'no new.db'
            done
            tasks --db new.db import all.json && tasks --db new.db export | cmp - all.json && echo 'round trip'
            """, in: folder)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "tasks: cannot import 'bad-last.json': record 20000: \"spent\" should be a whole number; nothing was imported",
            "status 2", "kept.db unchanged", "status 2", "no new.db",
            "tasks: cannot import 'twice.json': record 20001: uuid UUID was already used by record 1; each task once; nothing was imported",
            "status 2", "kept.db unchanged", "status 2", "no new.db",
            "round trip",
        ], "\(result)")
    }
}
