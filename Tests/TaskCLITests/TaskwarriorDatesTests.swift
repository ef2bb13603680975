#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Every named date of Taskwarrior 2.6 names the same day or moment as `task calc` on the same
/// clock (libfaketime's), in the same zone, with the same week start — a day here being
/// Taskwarrior's first second of it, or its last for the words that end a period (`eow`). Where
/// a word differs on purpose, docs/cli.md's "Differences from Taskwarrior" names it.
@Suite("Named dates: the same as Taskwarrior's task calc",
       .enabled(if: tasksBinary != nil && access("/usr/bin/task", X_OK) == 0 && access("/usr/bin/faketime", X_OK) == 0,  // (its package's library)
                "needs the tasks binary, Taskwarrior and faketime"))
struct TaskwarriorDatesTests {
    static let words = """
        now today sod eod tomorrow yesterday monday tue wednesday thu fri sat sunday \
        sow eow soww eoww sonw eonw sopw eopw som eom sonm eonm sopm eopm soq eoq sonq eonq sopq eopq \
        soy eoy sony eony sopy eopy sond eond sopd eopd \
        jan feb mar march apr may jun jul aug sep oct nov dec december \
        1st 2nd 6th 7th 18th 19th 29th 30th 31st later someday \
        easter eastermonday ascension pentecost goodfriday midsommar midsommarafton juhannus \
        9am 8am 5pm 7:00 9:30pm 12pm 12am 23:59
        """
    /// A Sunday afternoon in December, a Wednesday morning in March before the clocks change,
    /// a Friday night in midsummer, a February day.
    static let clocks = ["2026-12-06 15:30:00", "2026-03-18 08:15:00", "2026-06-19 23:30:00", "2027-02-10 12:00:00"]
    static let zones = ["America/Chicago", "Europe/Berlin"]

    @Test func everyNamedDateIsTaskCalcsOrADocumentedDifference() throws {
        let folder = TemporaryFolder()
        let result = try tasksShell("""
            export TASKRC="$PWD/taskrc" TASKDATA="$PWD/task" HOME="$PWD"
            mkdir -p task && printf 'data.location=%s\\nverbose=nothing\\n' "$TASKDATA" > taskrc
            # libfaketime itself, not its wrapper: the wrapper's semaphore is named by its pid, and
            # one left by a killed run made a later run's `faketime` fail ("sem_open: File exists").
            FAKETIME_LIB=$(ls /usr/lib/*/faketime/libfaketime.so.1 | head -1)
            for zone in \(Self.zones.joined(separator: " ")); do
              for clock in \(Self.clocks.map { "'\($0)'" }.joined(separator: " ")); do
                now=$(echo "$clock" | tr ' ' T)
                for week in monday sunday; do
                  for word in \(Self.words); do
                    theirs=$(TZ=$zone LD_PRELOAD="$FAKETIME_LIB" FAKETIME="$clock" task rc.weekstart=$week calc "$word" 2>&1 | tr -d '\\n')
                    ours=$(TZ=$zone TASKS_WEEK_START=$week tasks date --now "$now" "$word" 2>&1 | tr -d '\\n')
                    printf '%s|%s|%s|%s|%s|%s\\n' "$zone" "$clock" "$week" "$word" "$theirs" "$ours"
                  done
                done
              done
            done
            """, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        let count = Self.zones.count * Self.clocks.count * 2 * Self.words.split(separator: " ").count
        #expect(rows.count == count && rows.allSatisfy { $0.count == 6 }, "\(result.stdout.prefix(2000))")
        let documented = Self.documentedWords()
        #expect(documented.contains("midsommarafton") && documented.contains("sow"), "\(documented)")
        var differing: [String: Set<String>] = ["monday": [], "sunday": []]
        for row in rows where row.count == 6 {
            let (week, word, theirs, ours) = (row[2], row[3], row[4], row[5])
            #expect(theirs.count == 19 && theirs.dropFirst(10).first == "T", "Taskwarrior reads \(word) as a date: \(row)")
            if Self.same(ours, theirs, ending: word.hasPrefix("eo")) { continue }
            differing[week, default: []].insert(word)
            #expect(documented.contains(word), "\(word) differs and docs/cli.md does not say why: \(row)")
        }
        // With the week starting Monday only the feasts Taskwarrior counts otherwise (or in hours
        // across a change of the clocks) and the days a month lacks differ; with Sunday, the weeks too (Taskwarrior 2.6 keeps Monday to
        // Sunday whatever its weekstart) — each difference the table names shows here.
        #expect(differing["monday"] == ["midsommarafton", "juhannus", "29th", "30th", "31st", "eastermonday", "ascension", "pentecost"],
                "\(differing)")
        #expect(differing["sunday"]?.isSuperset(of: ["sow", "eow", "sonw", "eonw", "sopw", "eopw"]) == true, "\(differing)")
        #expect(Set(differing.values.flatMap { $0 }) == documented.intersection(Self.words.split(separator: " ").map(String.init)),
                "every word the table names differs somewhere here: \(differing)")
    }

    /// Ours (`2026-12-06`, or `2026-12-06T15:30:00-06:00`) against Taskwarrior's local
    /// reading (`2026-12-06T00:00:00`): a day is its first second, or its last for an end.
    static func same(_ ours: String, _ theirs: String, ending: Bool) -> Bool {
        if ours.count == 10 { return theirs == ours + (ending ? "T23:59:59" : "T00:00:00") }
        return ours.count >= 19 && ours.prefix(19) == theirs
    }

    /// The words of docs/cli.md's date differences (rows of "Differences from Taskwarrior"
    /// whose first cell names words, not `+TAGS`).
    static func documentedWords() -> Set<String> {
        let docs = String(decoding: readBytes(fixturesFolder() + "/../docs/cli.md"), as: UTF8.self)
        let lines = docs.split(separator: "\n", omittingEmptySubsequences: false)
        let start = lines.firstIndex { $0.hasPrefix("### Differences from Taskwarrior") } ?? lines.endIndex
        var words = Set<String>()
        for line in lines[start...].dropFirst().prefix(while: { !$0.hasPrefix("### ") }) where line.hasPrefix("| `") {
            let cell = line.split(separator: "|").first ?? ""
            for (index, part) in cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            where index % 2 == 1 && !part.hasPrefix("+") {
                words.insert(String(part))
            }
        }
        return words
    }
}
