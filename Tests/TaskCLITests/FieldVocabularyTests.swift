import QueryLanguage
import SQLiteDB
import TaskModel
import _TestSupport
import Testing
@testable import TaskCLI
@testable import TaskStore

/// Issue 52: the field table is what filters, orders, columns, completions and `add`'s words
/// are made of. A field added to the table alone is found in each; every entry's names and
/// comparisons are accepted or refused the same way in each.
@Suite("One vocabulary: every place reads the field table")
struct FieldVocabularyTests {
    static let today = CalendarDay(year: 2026, month: 12, day: 2) ?? .unixEpoch
    static let noon = Timestamp(millisecondsSince1970: Int64(today.daysSince1970) * 86_400_000 + 12 * 3_600_000)
    static let dates = DateContext(now: noon, today: today, zone: .fixed(offsetSeconds: 0))

    /// A text field written as the built-in ones are — in code, with an alias, its read, SQL
    /// and cell its own — kept (for the test) in `extras`, where a modification writes it.
    static let mood = QueryField(
        name: "mood", aliases: ["feeling"], type: .text, roles: .every, custom: CustomField(name: "mood", kind: .string), isOptional: true,
        read: { task, _ in ExtrasText.value("mood", in: task.extras).flatMap(CustomField.unquoted).map(QueryValue.text) },
        sql: { _ in "tasks_custom(extras, 'mood string')" },
        cell: { task, _, _ in ExtrasText.value("mood", in: task.extras).flatMap(CustomField.unquoted) ?? "" })
    /// A date custom field, as the configuration declares one.
    static let review = FieldVocabulary.entry(CustomField(name: "review", kind: .date))
    static let vocabulary = FieldVocabulary.builtIn.adding([mood, review])

    /// Four tasks with the two fields set, or not.
    static func store(_ folder: TemporaryFolder) throws -> (SQLiteTaskService, [Task]) {
        let service = try SQLiteTaskService(path: folder.file("tasks.db"), now: { Self.noon })
        let values: [(String, String)] = [("\"mood\":\"happy\",\"review\":\"20261201T000000Z\"", "one"),
                                          ("\"mood\":\"sad\",\"review\":\"20261203T120000Z\"", "two"),
                                          ("\"mood\":\"Happy-go\"", "three"), ("\"review\":\"20261202T000000Z\"", "four")]
        let made = try service.createNow(values.map { TaskDraft(fields: Task(unsaved: $0.1)) })
        for (task, (extras, _)) in zip(made, values) {
            var changed = task
            changed.extras = extras
            try service.overwrite(changed)
        }
        return (service, try service.fetchNow(query(nil)))
    }

    static func query(_ filter: TaskFilter?) -> TaskQuery {
        TaskQuery.every(filter, today: today, now: noon, zone: .fixed(offsetSeconds: 0))
    }

    @Test func aFieldAddedToTheTableAloneIsInFiltersOrdersColumnsAndCompletions() throws {
        let folder = TemporaryFolder()
        let (service, all) = try Self.store(folder)
        let parser = FilterParser(settings: FilterSettings(dates: Self.dates, vocabulary: Self.vocabulary))
        func titles(_ words: String...) throws -> [String] {
            let query = Self.query(try parser.parse(words).filter)
            let sql = try service.fetchNow(query).map(\.title)
            #expect(sql == all.filter { query.matches($0) }.map(\.title), "SQL and Swift: \(words)")
            return sql
        }
        // Each comparison of each field, by name, alias and abbreviation.
        #expect(try titles("mood:happy") == ["one"])
        #expect(try titles("feeling.is:happy") == ["one"])
        #expect(try titles("mood.not:happy") == ["two", "three", "four"])
        #expect(try titles("moo.contains:APP") == ["one", "three"])
        #expect(try titles("mood.startswith:hap") == ["one", "three"])
        #expect(try titles("mood.endswith:go") == ["three"])
        #expect(try titles("mood.none:") == ["four"])
        #expect(try titles("mood.any:") == ["one", "two", "three"])
        #expect(try titles("review:2026-12-03") == ["two"])
        #expect(try titles("review.not:2026-12-03") == ["one", "three", "four"])
        #expect(try titles("review.before:2026-12-02") == ["one"])
        #expect(try titles("review.after:2026-12-02") == ["two"])
        #expect(try titles("review.by:2026-12-02") == ["one", "four"])
        #expect(try titles("review.none:") == ["three"])
        #expect(try titles("review.any:") == ["one", "two", "four"])
        for modifier in Self.mood.type.modifiers + Self.review.type.modifiers {
            #expect(!modifier.isEmpty)
        }
        #expect(throws: FilterError.self) { try parser.parse(["mood.before:x"]) }
        #expect(throws: FilterError.self) { try parser.parse(["review.contains:x"]) }

        // An order, by name, alias and abbreviation, missing values last both ways.
        for (text, expected) in [("mood-", ["two", "one", "three", "four"]), ("feeling", ["three", "one", "two", "four"]),
                                 ("rev-,id", ["two", "four", "one", "three"])] {
            var query = Self.query(nil)
            query.sort = .keys(try SortKey.parse(text, vocabulary: Self.vocabulary))
            let sql = try service.fetchNow(query).map(\.title)
            #expect(sql == expected, "--sort \(text)")
            #expect(all.sorted { query.orders($0, before: $1) }.map(\.title) == expected, "--sort \(text) in Swift")
        }

        // Columns, in a table and in a record.
        let columns = try ReportColumn.parse("id,feeling,review", vocabulary: Self.vocabulary)
        #expect(columns.map(\.name) == ["id", "mood", "review"])
        let cells = all.map { task in columns.map { $0.text(task, zone: .fixed(offsetSeconds: 0), today: Self.today, forTable: true) } }
        #expect(cells == [["1", "happy", "2026-12-01"], ["2", "sad", "2026-12-03 12:00"], ["3", "Happy-go", ""], ["4", "", "2026-12-02"]])

        // Completions: each comparison of each, and nothing the parser refuses.
        let words = CompletionsCommand.filterWords(Self.vocabulary)
        #expect(words.contains("mood.endswith:") && words.contains("review.before:") && !words.contains("review.contains:"))
        for word in words where word.hasSuffix(":") && word != "limit:" {
            let head = String(word.dropLast())
            let field = try #require(Self.vocabulary.field(String(head.split(separator: ".")[0]), role: .filter), "\(word)")
            let modifier = head.contains(".") ? String(head.split(separator: ".")[1]) : field.defaultModifier
            #expect(throws: Never.self, "\(word)") { try parser.parse([word + field.example(for: modifier)]) }
        }
    }

    /// Every entry: completions offer only what the parser takes, and every name, alias and
    /// modifier alias is taken where its roles say — filters, `--sort`, `--columns`, `add`.
    @Test func everyEntrysNamesAndComparisonsAreTakenWhereverItsRolesSay() throws {
        let vocabulary = FieldVocabulary.builtIn.adding(["size": CustomField(name: "size", kind: .string, values: ["S", "M"]),
                                                         "est": CustomField(name: "est", kind: .duration),
                                                         "points": CustomField(name: "points", kind: .number)])
        let parser = FilterParser(settings: FilterSettings(dates: Self.dates, vocabulary: vocabulary))
        for word in CompletionsCommand.filterWords(vocabulary) where word.hasSuffix(":") && word != "limit:" {
            let head = word.dropLast().split(separator: ".").map(String.init)
            let field = try #require(vocabulary.field(head[0], role: .filter), "\(word)")
            let value = field.example(for: head.count == 2 ? head[1] : field.defaultModifier)
            #expect(throws: Never.self, "\(word)\(value)") { try parser.parse([word + value]) }
        }
        var checked = 0
        for field in vocabulary.fields {
            for name in field.names {
                if field.roles.contains(.filter), field.type != .shown {
                    let word = name + ":" + field.example(for: field.defaultModifier)
                    #expect(throws: Never.self, "\(word)") { try parser.parse([word]) }
                    for (alias, modifier) in QueryModifier.aliases where field.type.modifiers.contains(modifier) {
                        let word = name + "." + alias + ":" + field.example(for: modifier)
                        #expect(throws: Never.self, "\(word)") { try parser.parse([word]) }
                    }
                    for modifier in Set(QueryModifier.aliases.values).subtracting(field.type.modifiers) {
                        #expect(throws: FilterError.self, "\(name).\(modifier)") { try parser.parse([name + "." + modifier + ":" + field.example(for: "is")]) }
                    }
                } else {
                    #expect(throws: FilterError.self, "\(name) filters on nothing") { try parser.parse([name + ":x"]) }
                }
                if field.roles.contains(.sort) { #expect(try SortKey.parse(name + "-", vocabulary: vocabulary).first?.field == field, "--sort \(name)") }
                else { #expect(throws: SortKeyError.self, "--sort \(name)") { try SortKey.parse(name, vocabulary: vocabulary) } }
                if field.roles.contains(.column) { #expect(try ReportColumn.parse(name, vocabulary: vocabulary).first?.field == field, "--columns \(name)") }
                else { #expect(throws: ReportColumn.Refusal.self, "--columns \(name)") { try ReportColumn.parse(name, vocabulary: vocabulary) } }
                if field.roles.contains(.set) {
                    var fields = FieldFlags()
                    let value = field.type == .priority ? "H" : field.type.modifiers.contains("before") && field.custom == nil ? "fri" : field.example(for: "is")
                    let title = try AddWords.read(["Pay", name + ":" + value], into: &fields, vocabulary: vocabulary, dates: Self.dates)
                    #expect(title == "Pay" && !fields.isEmpty, "add … \(name):\(value)")
                }
                checked += 1
            }
        }
        #expect(checked > 30)
    }

    /// Through the program: the built-in-style field, added to the vocabulary alone
    /// (`Invocation.fields`), is set by `add`'s and `modify`'s words under its name and alias,
    /// filtered, sorted, a column, shown, exported and imported, and completed.
    @Test func aBuiltInStyleFieldAddedToTheTableAloneReachesEveryCommand() {
        let cli = CLI()
        cli.fields = [Self.mood]
        #expect(cli.run("add", "Pay rent", "feeling:happy").status == 0)
        #expect(cli.run("add", "Call", "mood:sad", "+phone").status == 0)
        #expect(cli.run("add", "Walk").status == 0)
        #expect(cli.run("modify", "3", "mood:Happy-go").status == 0)
        #expect(cli.run("3", "modify", "feel:Happy-go-lucky").status == 0, "an abbreviation, in Taskwarrior's order")
        #expect(cli.run("list", "mood.startswith:hap", "--format", "ids").stdout == "1\n3\n")
        #expect(cli.run("list", "feeling.not:happy", "mood.any:", "--format", "ids").stdout == "2\n3\n")
        #expect(cli.run("list", "--sort", "mood-", "--columns", "id,feeling,title", "--format", "tsv").stdout
                == "2\tsad\tCall\n1\thappy\tPay rent\n3\tHappy-go-lucky\tWalk\n")
        #expect(cli.run("show", "2", "--format", "tsv").stdout.contains("mood\tsad\n"))
        #expect(cli.run("show", "2").stdout.contains("sad"))
        #expect(cli.run("completions", "words").stdout.contains("\nmood.startswith:\n"))
        let unknown = cli.run("add", "Nap", "mod:calm")
        #expect(unknown.status == 2 && unknown.stderr.contains("mood:calm"), "a name a letter off is named: \(unknown)")
        let exported = cli.run("export", "--format", "json").stdout
        #expect(exported.contains(#""mood":"Happy-go-lucky""#), "\(exported)")
        let other = CLI()
        other.fields = [Self.mood]
        let file = other.folder.file("tasks.json")
        writeBytes(file, Array(exported.utf8))
        #expect(other.run("import", file).status == 0)
        #expect(other.run("list", "feeling:sad", "--columns", "id,mood,title", "--format", "tsv").stdout == "2\tsad\tCall\n")
    }

    /// Taskwarrior's rule for a shortened name (issue 53): a unique start of at least
    /// `abbreviation.minimum` letters, 2 by default — `du:` is due in a filter, in `add` and in
    /// `--sort`; a start two fields share is refused naming both; the configuration (file or
    /// `-c`) raises or lowers the minimum, and a bad one is status 2.
    @Test func aNameShortensToAsFewLettersAsTaskwarriorsMinimum() {
        let cli = CLI()
        #expect(cli.run("add", "Pay rent", "du:2026-12-03", "pri:H").status == 0)
        #expect(cli.run("add", "Walk").status == 0)
        #expect(cli.run("list", "du:2026-12-03", "--format", "ids").stdout == "1\n")
        #expect(cli.run("list", "--sort", "du-", "--format", "ids").stdout == "1\n2\n")
        let shared = cli.run("list", "pr:H")
        #expect(shared.status == 2 && shared.stderr.contains("'pr' begins project (list) and priority; give more of the name"), "\(shared)")
        let inAdd = cli.run("add", "Call", "pr:H")
        #expect(inAdd.status == 2 && inAdd.stderr.contains("'pr' begins"), "\(inAdd)")
        let longer = cli.run("-c", "abbreviation.minimum=3", "list", "du:2026-12-03")
        #expect(longer.status == 2 && longer.stderr.contains("did you mean 'due:2026-12-03'"), "\(longer)")
        #expect(cli.run("-c", "abbreviation.minimum=1", "list", "d:2026-12-03").status == 2, "d begins due and depends")
        let bad = cli.run("-c", "abbreviation.minimum=0", "list")
        #expect(bad.status == 2 && bad.stderr.contains("from 1 to 20"), "\(bad)")
    }

    private func configure(_ cli: CLI, _ text: String) {
        let folder = cli.folder.path + "/.config/tasks"
        _ = runShell("mkdir -p '\(folder)'", in: cli.folder)
        writeBytes(folder + "/config", Array(text.utf8))
    }

    /// Through the program: a date custom field declared in the configuration is an entry like
    /// any other — set by `add`'s words and `modify --set`, filtered, sorted, shown as a column,
    /// shown, exported and imported, completed — and the week's start from the file reaches
    /// `add`'s dates as it reaches filters.
    @Test func aCustomFieldAndTheWeeksStartReachEveryPlaceFromTheConfiguration() {
        let cli = CLI()  // Sunday 2026-11-29, UTC-5
        let config = "week.start = \"sunday\"\nuda.review.type = date\n"
        configure(cli, config)
        #expect(cli.run("add", "Pay rent", "prio:H", "review:2026-12-03", "due:eow").status == 0)
        let first = cli.run("show", "1", "--format", "json").stdout
        #expect(first.contains(#""title":"Pay rent""#) && first.contains(#""due":"2026-12-05""#) && first.contains(#""priority":"H""#)
                && first.contains(#""review":"20261203T050000Z""#), "a week from Sunday ends on Saturday, in add as in filters: \(first)")
        #expect(cli.run("list", "due:eow", "--format", "ids").stdout == "1\n")
        #expect(cli.run("add", "Call", "--set", "review=2026-12-01").status == 0)
        #expect(cli.run("modify", "2", "--set", "review=2026-12-02").status == 0)
        #expect(cli.run("add", "Walk").status == 0)
        #expect(cli.run("list", "review.before:2026-12-03", "--format", "ids").stdout == "2\n")
        #expect(cli.run("list", "rev.any:", "--format", "ids").stdout == "1\n2\n")
        #expect(cli.run("list", "review.none:", "--format", "ids").stdout == "3\n")
        #expect(cli.run("list", "--sort", "review-", "--columns", "id,review,title", "--format", "tsv").stdout
                == "1\t2026-12-03\tPay rent\n2\t2026-12-02\tCall\n3\t\tWalk\n")
        #expect(cli.run("show", "2", "--format", "tsv").stdout.contains("review\t20261202T050000Z\n"))
        #expect(cli.run("completions", "words").stdout.contains("\nreview.before:\n"))
        let exported = cli.run("export", "--format", "json").stdout
        let other = CLI()
        configure(other, config)
        let file = other.folder.file("tasks.json")
        writeBytes(file, Array(exported.utf8))
        #expect(other.run("import", file).status == 0)
        #expect(other.run("list", "--sort", "review", "--columns", "id,review", "--format", "tsv").stdout == "2\t2026-12-02\n1\t2026-12-03\n3\t\n")
    }
}
