/// Dates as people type them, counted from a day alone: `DateGrammar` with no clock, zone or
/// task to count from (`--due-before`, and callers that know only today).
public enum DueDate {
    /// The day `text` names, counted from `today`; `nil` when it names none.
    public static func parse(_ text: String, today: CalendarDay) -> CalendarDay? {
        try? DateGrammar.day(text, in: .on(today))
    }
}
