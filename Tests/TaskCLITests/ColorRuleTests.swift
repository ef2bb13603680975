#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import Testing

/// Issue 55: Taskwarrior's colour rules (`color.overdue`, `color.tag.NAME`, …) in the
/// configuration, drawn over whole rows by Taskwarrior's precedence, in `list`, reports,
/// `next` and `tasks ui`; a colour Taskwarrior would not read is status 2 naming its line.
@Suite("colour rules")
struct ColorRuleTests {
    static let rules = """
        color.overdue = "bold color214"
        color.due.today = "rgb400"
        color.due = "color1"
        color.active = "rgb555 on rgb410"
        color.blocked = "white on color8"
        color.blocking = "black on color15"
        color.recurring = "rgb013"
        color.tag.bills = "underline green"
        color.project.Work = "on blue"
        color.uda.priority.H = "bright yellow"
        color.keyword.dentist = "inverse"
        color.completed = ""
        color.header = "color3"

        """

    /// The tasks each rule is about (today is 2026-11-29), and one tagged `nocolor`.
    static func seeded(_ extra: String = "") -> CLI {
        let cli = CLI()
        mkdir(cli.folder.path + "/.config", 0o700)
        mkdir(cli.folder.path + "/.config/tasks", 0o700)
        writeBytes(cli.folder.path + "/.config/tasks/config", Array((rules + extra).utf8))
        for words in [["Pay", "rent", "+bills", "due:2026-11-20"], ["Read", "book"], ["Call", "mom", "due:2026-11-29"],
                      ["Plan", "trip", "due:2026-12-02"], ["Blocked", "one"], ["Blocker"], ["Call", "the", "dentist"],
                      ["Quiet", "+nocolor", "+bills", "due:2026-11-20"], ["Work", "item", "list:Work.Deep"], ["Urgent", "thing", "priority:H"],
                      ["Weekly", "chore", "due:2026-12-10", "recur:weekly"], ["Plain", "one"]] {
            cli.run(["add"] + words)
        }
        cli.run("start", "2")
        cli.run("modify", "5", "depends:6")
        return cli
    }

    static func run(_ cli: CLI, _ arguments: [String], width: Int = 100) -> CLI.Result {
        cli.run(arguments, terminal: true, width: width, environment: ["TASKS_DB": cli.db, "HOME": cli.folder.path, "TERM": "xterm-256color"])
    }

    /// The SGR each row starts with, by title (nil: the row starts with no style).
    static func rowStyles(_ output: String, titles: [String]) -> [String: String?] {
        var styles: [String: String?] = [:]
        for line in output.split(separator: "\n").map(String.init) {
            guard let title = titles.first(where: { line.contains($0) }) else { continue }
            if line.hasPrefix("\u{1B}[0m\u{1B}["), let end = line.dropFirst(6).firstIndex(of: "m") {
                styles[title] = String(line[line.index(line.startIndex, offsetBy: 6)..<end])
            } else {
                styles[title] = .some(nil)
            }
        }
        return styles
    }

    static let expected: [String: String?] = [
        // tag.bills over overdue: both attributes, the stronger rule's colour.
        "Pay rent": "1;4;32",
        "Read book": "38;5;231;48;5;166",
        // due.today over due.
        "Call mom": "38;5;160",
        "Plan trip": "38;5;1",
        "Blocked one": "37;48;5;8",
        "Blocker": "30;48;5;15",
        "Call the dentist": "7",
        "Quiet": String?.none,
        "Work item": "44",
        "Urgent thing": "93",
        "Weekly chore": "38;5;25",
        "Plain one": String?.none,
    ]

    @Test func eachRuleColoursTheRowsItsWordsSelect() {
        let cli = Self.seeded()
        let titles = Array(Self.expected.keys)
        for arguments in [["list"], ["list", "--columns", "id,title,due,tags"], ["next", "--limit", "20"]] {
            let result = Self.run(cli, arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            let styles = Self.rowStyles(result.stdout, titles: titles)
            for (title, style) in Self.expected {
                #expect(styles[title] == style, "\(arguments) \(title): \(String(describing: styles[title])) in\n\(result.stdout.debugDescription)")
            }
            // Each coloured row ends its style; the rows of nocolor keep the plain overdue mark.
            #expect(result.stdout.split(separator: "\n").allSatisfy { !$0.hasPrefix("\u{1B}[0m\u{1B}[") || $0.hasSuffix("\u{1B}[0m") })
        }
    }

    @Test func thePrecedenceAndMergeSettingsChooseAsTaskwarriorsDo() {
        let reordered = Self.seeded("rule.precedence.color = \"overdue,tag.\"\n")
        // Only the rules named are drawn: overdue over tag.bills.
        let styles = Self.rowStyles(Self.run(reordered, ["list"]).stdout, titles: ["Pay rent", "Read book"])
        #expect(styles["Pay rent"] == "1;4;38;5;214")
        #expect(styles["Read book"] == .some(nil), "active is not in this order")
        let unmerged = Self.seeded("rule.color.merge = off\n")
        #expect(Self.rowStyles(Self.run(unmerged, ["list"]).stdout, titles: ["Pay rent"])["Pay rent"] == "4;32", "the strongest rule alone")
    }

    @Test func noColourInAPipeOrUnderNoColor() {
        let cli = Self.seeded()
        let piped = cli.run(["list", "--format", "table"], environment: ["TASKS_DB": cli.db, "HOME": cli.folder.path])
        #expect(piped.status == 0 && !piped.stdout.contains("\u{1B}") && piped.stdout.contains("Pay rent"), "\(piped)")
        let noColor = cli.run(["list"], terminal: true, environment: ["TASKS_DB": cli.db, "HOME": cli.folder.path, "NO_COLOR": "1"])
        #expect(noColor.status == 0 && !noColor.stdout.contains("\u{1B}"), "\(noColor)")
        // --color always in a pipe draws them.
        let always = cli.run(["list", "--format", "table", "--color", "always"], environment: ["TASKS_DB": cli.db, "HOME": cli.folder.path])
        #expect(Self.rowStyles(always.stdout, titles: ["Pay rent"])["Pay rent"] == "1;4;32", "\(always)")
    }

    @Test(arguments: [
        ("color.overdue = \"bold purple\"\n", "config:1: color.overdue: 'purple' is no colour"),
        ("color.due = \"red\"\ncolor.tag.x = \"rgb036\"\n", "config:2: color.tag.x: 'rgb036' is no colour"),
        ("color.overdu = \"red\"\n", "config:1: unknown key 'color.overdu'; the colour rules are"),
        ("rule.precedence.color = \"overdue,bogus\"\n", "config:1: rule.precedence.color names 'bogus', no colour rule"),
        ("rule.color.merge = maybe\n", "config:1: rule.color.merge is 'maybe'; use on or off"),
        ("color.uda.size.L = \"red\"\n", "config:1: color.uda.size.L names 'size', no field"),
        ("color.active = \"red on\"\n", "config:1: color.active: 'on' needs a colour after it"),
    ])
    func aColourTaskwarriorWouldNotReadIsStatusTwoNamingItsLine(_ text: String, _ message: String) {
        let cli = CLI()
        cli.run("add", "Keep me")
        let before = cli.snapshot()
        mkdir(cli.folder.path + "/.config", 0o700)
        mkdir(cli.folder.path + "/.config/tasks", 0o700)
        writeBytes(cli.folder.path + "/.config/tasks/config", Array(text.utf8))
        for result in [Self.run(cli, ["list"]), cli.run("list")] {
            #expect(result.status == 2 && result.stderr.contains(message) && result.stdout.isEmpty, "\(text): \(result)")
        }
        #expect(cli.snapshot() == before)
    }

    /// docs/cli.md's example of the rules is a configuration that draws what its comments say.
    @Test func theDocumentedRulesAreRead() throws {
        let doc = DocsExamplesTests.cliDoc
        let section = try #require(doc.split(separator: "Colour rules, as Taskwarrior writes them", maxSplits: 1).dropFirst().first)
        let block = try #require(section.split(separator: "```toml\n", maxSplits: 1).dropFirst().first)
        let example = String(try #require(block.split(separator: "```", maxSplits: 1).first))
        #expect(example.contains("color.overdue"))
        let cli = CLI()
        mkdir(cli.folder.path + "/.config", 0o700)
        mkdir(cli.folder.path + "/.config/tasks", 0o700)
        writeBytes(cli.folder.path + "/.config/tasks/config", Array(example.utf8))
        cli.run("add", "Pay", "rent", "+bills", "due:2026-11-20")
        cli.run("add", "Call", "the", "dentist")
        let result = Self.run(cli, ["list"])
        #expect(result.status == 0, "\(result)")
        let styles = Self.rowStyles(result.stdout, titles: ["Pay rent", "dentist"])
        #expect(styles["Pay rent"] == "1;4;32" && styles["dentist"] == "7", "\(styles)")
    }

    @Test func aFieldsOwnRuleAndItsNoneForm() {
        let cli = Self.seeded("uda.size.type = \"string\"\ncolor.uda.size = \"cyan\"\ncolor.uda.size.L = \"magenta\"\n")
        cli.run("modify", "12", "size:L")
        cli.run("modify", "10", "size:S")
        let styles = Self.rowStyles(Self.run(cli, ["list"]).stdout, titles: ["Plain one", "Urgent thing"])
        // `uda.` takes its rules in name order, the first the strongest, as Taskwarrior
        // completes it among its keys: uda.priority.H, then uda.size, then uda.size.L.
        #expect(styles["Plain one"] == "36", "\(styles)")
        #expect(styles["Urgent thing"] == "93", "\(styles)")
    }
}

/// The same rules on a terminal: `tasks list` and `tasks ui` in tmux at 40 columns with Korean
/// and emoji titles, each cell's style read back from `capture-pane -e`.
@Suite("colour rules in tmux", .serialized, .enabled(if: tasksBinary != nil && access("/usr/bin/tmux", X_OK) == 0, "needs tmux and the binary"))
struct ColorRuleTmuxTests {
    struct Cell: Equatable {
        var text: String
        var bold = false, underline = false, reverse = false
        var foreground: String?, background: String?
    }

    /// The pane's rows as cells with the style tmux reports for each (its SGR re-encoded: only
    /// changes, so a style goes on from one line to the next).
    static func cells(_ capture: String) -> [[Cell]] {
        var rows: [[Cell]] = []
        var style = Cell(text: "")
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            var row: [Cell] = []
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                if scalar == "\u{1B}", scalars.first == "[" {
                    var parameters = ""
                    scalars = scalars.dropFirst()
                    while let next = scalars.first, next != "m" {
                        parameters.unicodeScalars.append(next)
                        scalars = scalars.dropFirst()
                    }
                    scalars = scalars.dropFirst()
                    var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                    while let code = codes.first {
                        codes = codes.dropFirst()
                        switch code {
                        case 0: style = Cell(text: "")
                        case 1: style.bold = true
                        case 4: style.underline = true
                        case 7: style.reverse = true
                        case 22: style.bold = false
                        case 24: style.underline = false
                        case 27: style.reverse = false
                        case 30...37, 90...97: style.foreground = String(code)
                        case 39: style.foreground = nil
                        case 40...47, 100...107: style.background = String(code)
                        case 49: style.background = nil
                        case 38, 48:
                            if codes.first == 5, codes.count >= 2 {
                                let value = "5;\(codes.dropFirst().first ?? 0)"
                                if code == 38 { style.foreground = value } else { style.background = value }
                                codes = codes.dropFirst(2)
                            }
                        default: break
                        }
                    }
                    continue
                }
                var cell = style
                cell.text = String(scalar)
                row.append(cell)
            }
            rows.append(row)
        }
        return rows
    }

    @Test func listAndUIColourEveryCellOfTheRowByPrecedence() throws {
        let folder = TemporaryFolder()
        mkdir(folder.path + "/config", 0o700)
        mkdir(folder.path + "/config/tasks", 0o700)
        writeBytes(folder.path + "/config/tasks/config", Array("""
            color.overdue = "bold color214"
            color.tag.bills = "underline green"
            color.tag.kr = "black on rgb035"

            """.utf8))
        _ = try tasksShell("""
            tasks add 월세 내기 🏠 +bills due:2026-11-20 > /dev/null
            tasks add 한국어 할 일 😀 +kr > /dev/null
            tasks add Plain > /dev/null
            """, in: folder)
        let tmux = try Tmux(folder, columns: 40, rows: 12)
        tmux.type("unset NO_COLOR; export XDG_CONFIG_HOME='\(folder.path)/config'; clear; tasks list")
        #expect(tmux.wait { $0.contains("Plain") })
        let listed = Self.cells(runShell("tmux -L \(tmux.server) capture-pane -p -e", in: folder).stdout)
        func row(_ rows: [[Cell]], _ text: String) -> [Cell]? {
            rows.first { $0.map(\.text).joined().contains(text) }
        }
        let rent = try #require(row(listed, "월세"), "\(listed.map { $0.map(\.text).joined() })")
        let korean = try #require(row(listed, "한국어"))
        let plain = try #require(row(listed, "Plain"))
        // Every cell of the text: tag.bills (stronger) over overdue — bold and underline, green.
        for cell in rent where cell.text != " " {
            #expect(cell.bold && cell.underline && cell.foreground == "32", "\(cell)")
        }
        for cell in korean where cell.text != " " {
            #expect(cell.foreground == "30" && cell.background == "5;39", "\(cell)")
        }
        #expect(plain.allSatisfy { $0.foreground == nil && $0.background == nil && !$0.bold })
        // The ui draws the same rules; a background reaches across the screen.
        tmux.type("tasks ui")
        #expect(tmux.wait { tmux.alternateOn && $0.contains("Plain") && $0.contains("한국어") })
        let screen = Self.cells(runShell("tmux -L \(tmux.server) capture-pane -p -e", in: folder).stdout)
        let uiKorean = try #require(row(screen, "한국어"))
        #expect(uiKorean.filter { $0.text != " " }.allSatisfy { $0.background == "5;39" || $0.reverse }, "\(uiKorean)")
        let uiRent = try #require(row(screen, "월세"))
        #expect(uiRent.filter { $0.text != " " && $0.text != "*" }.allSatisfy { ($0.bold && $0.underline && $0.foreground == "32") || $0.reverse }, "\(uiRent)")
        tmux.send("q")
    }
}
