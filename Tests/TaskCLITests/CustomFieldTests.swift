import TaskModel
import _TestSupport
import Testing

/// Issue 26's custom fields: declared in the configuration file, set with `--set`, kept in
/// `extras` as Taskwarrior writes them, shown as fields of their own.
@Suite("tasks: custom fields from the configuration")
struct CustomFieldTests {
    private func configure(_ cli: CLI, _ text: String) {
        let folder = cli.folder.path + "/.config/tasks"
        _ = runShell("mkdir -p '\(folder)'", in: cli.folder)
        writeBytes(folder + "/config", Array(text.utf8))
    }

    private static let declarations = """
        uda.estimate.type = duration
        uda.points.type = number
        uda.review.type = date
        [uda.size]
        type = "string"
        values = ["S", "M", "L"]
        """

    @Test func setShownExportedAndUndone() {
        let cli = CLI()
        configure(cli, Self.declarations)
        #expect(cli.run("add", "Report", "--set", "estimate=1h30min", "--set", "size=M", "--set", "points=2.5", "--set", "review=2026-12-04").status == 0)
        let json = cli.run("show", "1", "--format", "json").stdout
        #expect(json.contains(#""extras":{"estimate":"PT1H30M","size":"M","points":2.5,"review":"20261204T050000Z"}"#),
                "as Taskwarrior writes them: ISO 8601 durations, numbers, its times (a day at local midnight, UTC-5)")
        let table = cli.run("show", "1", "--format", "table").stdout
        #expect(table.contains("estimate     1h30min\npoints       2.5\nreview       2026-12-04\nsize         M\nnotes\n"))
        #expect(cli.run("show", "1", "--format", "tsv").stdout.contains("estimate\tPT1H30M\npoints\t2.5\nreview\t20261204T050000Z\nsize\tM\nnotes\t"))
        #expect(cli.run("edit", "1", "--set", "estimate=", "--set", "size=L").status == 0)
        #expect(cli.run("show", "1", "--format", "json").stdout.contains(#""extras":{"size":"L","points":2.5,"review":"20261204T050000Z"}"#),
                "a field removed, another changed in its place")
        cli.run("undo")
        #expect(cli.run("show", "1", "--format", "json").stdout.contains(#""estimate":"PT1H30M","size":"M""#))
        let back = cli.run("export", "--format", "taskwarrior").stdout
        #expect(back.contains(#""estimate":"PT1H30M","size":"M","points":2.5,"review":"20261204T050000Z""#))
    }

    @Test func anUndeclaredNameOrABadValueIsStatusTwoAndChangesNothing() {
        let cli = CLI()
        configure(cli, Self.declarations)
        cli.run("add", "Report")
        let before = cli.snapshot()
        let unknown = cli.run("edit", "1", "--set", "colour=red")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == """
            tasks: no custom field 'colour' (declared: estimate, points, review, size)
            tasks: declare it in \(cli.folder.path)/.config/tasks/config: uda.colour.type = string

            """)
        for (set, words) in [("size=XL", "'XL' is not a value of size; use one of S, M, L"), ("points=many", "'many' is not a number"),
                             ("estimate=soon", "'soon' is not a length of time"), ("review=someday-ish", "'someday-ish' is not a date"),
                             ("estimate", "'--set estimate': give NAME=VALUE")] {
            let result = cli.run("edit", "1", "--set", set)
            #expect(result.status == 2 && result.stderr.hasPrefix("tasks: " + words), "\(set): \(result.stderr)")
        }
        #expect(cli.snapshot() == before)
    }

    @Test func theConfigurationsErrorsNameTheFileTheLineAndTheKey() {
        let cli = CLI()
        cli.run("add", "Report")
        let path = cli.folder.path + "/.config/tasks/config"
        for (text, message) in [
            ("uda.x.typ = string", "\(path):1: unknown key 'uda.x.typ'; a custom field has type, values and label"),
            ("colour = on", "\(path):1: unknown key 'colour'; the keys are uda.NAME.type|values|label, context.NAME.filter|defaults, report.NAME.filter|columns|sort|limit|description, remote.NAME.url|user|password-command|ca|timeout|insecure, default.list, default.command, week.start, abbreviation.minimum, confirmation, color, hooks, hooks.location, hooks.timeout, holiday.NAME.name|date|start|end, color.RULE, rule.precedence.color, rule.color.merge, mcp.write, mcp.allow-write, mcp.max-changes, next.due.*|next.priority.*|next.age.*"),
            ("uda.x.type = colour", "\(path):1: uda.x.type is 'colour'; use string, number, date or duration"),
            ("uda.due.type = date", "\(path):1: 'due' cannot name a custom field: lower-case letters, digits and _, a letter first, and not a field of tasks"),
            ("\n\nuda.x.type = \"string", "\(path):3: a string needs its closing \" on the same line"),
            ("uda.x.values = [\"a\"]", "\(path): uda.x.values is given, but not uda.x.type; add uda.x.type = string"),
        ] {
            configure(cli, text)
            let result = cli.run("edit", "1", "--set", "x=1")
            #expect(result.status == 2 && result.stderr.hasPrefix("tasks: " + message + "\n"), "\(text): \(result.stderr)")
            #expect(cli.run("show", "1").status == 2, "show reads the configuration too")
        }
    }
}
