import CommandLineKit
import TaskModel
import TextFormats

/// `tasks date EXPR…`: what a date expression resolves to, without the database.
struct DateCommand: TasksCommand {
    static let spec = CommandSpec(
        name: "date", abstract: "Print the day or moment a date expression names.",
        discussion: """
            The words are one expression, as --due takes it: tasks date eow, tasks date
            tomorrow 9:00, tasks date in 3 days. A day prints as YYYY-MM-DD, a moment in
            local time with its offset (2026-12-25T14:00:00+01:00). Weeks start on Monday,
            or on the day TASKS_WEEK_START names.
            """,
        arguments: [ArgumentSpec("EXPR", help: "A date expression (docs/cli.md, Dates).", variadic: true, completion: Completion.dates)],
        options: [Option.dateNow]
    )
    static let changesTasks = false

    let standaloneOutput: String?

    init(_ line: ParsedLine) throws {
        let text = line.arguments.joined(separator: " ")
        if text.trimmingWhitespace.isEmpty { throw CLIError.usage("give a date expression, such as 'tasks date eow'") }
        var context = try line.dates()
        if let given = line.value(Option.dateNow) {
            guard case .instant(let now) = try? DateGrammar.resolve(given, in: context) else {
                throw CLIError.usage("--now '\(given)' is not a moment; give one such as 2026-12-01T09:00 or 2026-12-01T09:00Z")
            }
            context.now = now
            context.today = context.zone.day(now)
        }
        let value: DateValue
        do throws(DateGrammarError) {
            value = try DateGrammar.resolve(text, in: context)
        } catch {
            switch error {
            case .missingField(let field): throw CLIError.usage("'\(text)' counts from a task's \(field.rawValue) date; 'tasks date' has no task")
            case .unreadable, .timeOfDay: throw CLIError.usage("'\(text)' is not a date; use \(DateGrammar.forms)")
            }
        }
        standaloneOutput = DateCommand.text(value, zone: context.zone) + "\n"
    }

    func run(_ context: CommandContext) {}

    /// A day as `YYYY-MM-DD`; a moment in local time with its offset, to the second.
    static func text(_ value: DateValue, zone: LocalTime) -> String {
        switch value {
        case .day(let day): return day.description
        case .instant(let time):
            let (day, seconds) = zone.clock(time)
            let offset = zone.offsetSeconds(at: time)
            func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
            let sign = offset < 0 ? "-" : "+"
            let zoneText = offset == 0 ? "Z" : sign + two(abs(offset) / 3600) + ":" + two(abs(offset) / 60 % 60)
            return day.description + "T" + two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60) + zoneText
        }
    }
}
