/// Due dates as people type them: `YYYY-MM-DD`, `today`, `tomorrow`, `+3d`, `+2w`, or a
/// weekday name (`monday`, `mon`, …: the next such day after today).
public enum DueDate {
    /// The day `text` names, counted from `today`; `nil` when it names none.
    public static func parse(_ text: String, today: CalendarDay) -> CalendarDay? {
        let word = TaskQuery.foldCase(text.trimmingWhitespace)
        if let day = CalendarDay(word) { return day }
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default: break
        }
        if word.hasPrefix("+"), let unit = word.last, unit == "d" || unit == "w",
           let count = Int(word.dropFirst().dropLast()), (0...36_500).contains(count) {
            return today.adding(days: unit == "d" ? count : count * 7)
        }
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        if word.count >= 3, let weekday = names.firstIndex(where: { $0.hasPrefix(word) }) {
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        return nil
    }
}
