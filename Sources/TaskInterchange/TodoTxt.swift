import TextFormats
import TaskModel

/// todo.txt (github.com/todotxt/todo.txt), as todo.txt-cli writes it: one task per line,
/// `x DONE-DATE` for a completed task, `(A)` for priority, a creation date, then the text
/// with `+project`, `@context` and `key:value` words.
///
/// In: `(A)` `(B)` `(C)` are H, M and L (`(D)`–`(Z)` become L, reported); the first
/// `+project` is the list (none: Inbox) and further ones stay in the title; each `@context`
/// is a tag; `due:YYYY-MM-DD` is the due day; `rec:1w` repeats a week after completion and
/// `rec:+1w` on a fixed schedule (the todo.txt-cli recurrence add-on's words: `d`, `b`
/// business days, `w`, `m`, `y`); `t:YYYY-MM-DD` (threshold) is the wait; `pri:A` on a
/// completed line keeps its priority; other `key:value` words stay in the title. todo.txt has no ids: a line's task is known by
/// its title (and how many lines before it had the same title), so importing one file twice
/// changes nothing, and a line marked done since updates its task.
///
/// Out: the same words back. Notes have no place in todo.txt (reported); a list name with
/// spaces is written with `_`.
public enum TodoTxt {
    public static func read(_ bytes: [UInt8], localTime zone: LocalTime) throws -> ImportedFile {
        let localTime = CachedLocalTime(zone)
        var records: [TaskRecord] = []
        var numbers: [Int] = []
        var notKept = NotKept()
        var occurrences: [String: Int] = [:]
        occurrences.reserveCapacity(bytes.count / 32)
        try bytes.withUnsafeBufferPointer { file in
            try Lines.forEach(in: file, from: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0) { lineNumber, line in
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
                if line.contains(0) { throw InterchangeError("line \(lineNumber) holds a NUL byte") }
                if !line.allSatisfy({ $0 < 0x80 }) {
                    guard let text = String(validating: line, as: UTF8.self) else {
                        throw InterchangeError("line \(lineNumber) is not valid UTF-8")
                    }
                    if text.allSatisfy(\.isWhitespace) { return }
                }
                var record = try readLine(line, number: lineNumber, localTime: localTime, notKept: &notKept)
                let occurrence = occurrences[record.fields.title, default: 0]
                occurrences[record.fields.title] = occurrence + 1
                record.uuid = uuid(title: record.fields.title, occurrence: occurrence)
                records.append(record)
                numbers.append(lineNumber)
            }
        }
        return ImportedFile(batch: TaskImportBatch(records: records, unit: "line", numbers: numbers), notKept: notKept.lines)
    }

    /// One line (valid UTF-8), read word by word on its bytes: words are split at spaces,
    /// which never fall inside a multi-byte character.
    private static func readLine(_ line: UnsafeBufferPointer<UInt8>, number: Int, localTime: CachedLocalTime,
                                 notKept: inout NotKept) throws -> TaskRecord {
        var words: [Range<Int>] = []
        var index = 0
        while index < line.count {
            while index < line.count && line[index] == 0x20 { index += 1 }
            let wordStart = index
            while index < line.count && line[index] != 0x20 { index += 1 }
            if index > wordStart { words.append(wordStart..<index) }
        }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self) }
        func isDate(_ range: Range<Int>) -> Bool {
            range.count == 10 && line[range.lowerBound + 4] == UInt8(ascii: "-") && line[range.lowerBound + 7] == UInt8(ascii: "-")
        }
        func isLetter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        var record = TaskRecord(title: "")
        var next = 0
        if let first = words.first, first.count == 1 && line[first.lowerBound] == UInt8(ascii: "x") {
            record.fields.isDone = true
            next = 1
            if next < words.count, isDate(words[next]), let day = CalendarDay(text(words[next])) {
                record.fields.completed = localTime.midnight(day)
                next += 1
            }
        } else if let first = words.first, first.count == 3, line[first.lowerBound] == UInt8(ascii: "("),
                  line[first.lowerBound + 2] == UInt8(ascii: ")"), isLetter(line[first.lowerBound + 1]) {
            record.fields.priority = priority(line[first.lowerBound + 1], notKept: &notKept)
            next = 1
        }
        if next < words.count, isDate(words[next]), let day = CalendarDay(text(words[next])) {
            record.created = localTime.midnight(day)
            next += 1
        }
        var title: [UInt8] = []
        title.reserveCapacity(line.count)
        var list: String?
        for word in words[next...] {
            let first = line[word.lowerBound]
            if first == UInt8(ascii: "+") && word.count > 1 && list == nil {
                list = text(word.dropFirst())
            } else if first == UInt8(ascii: "@") && word.count > 1 {
                record.fields.tags.append(text(word.dropFirst()))
            } else if word.count >= 4 && line[word.lowerBound..<word.lowerBound + 4].elementsEqual("due:".utf8) {
                guard let date = TaskDate(text(word.dropFirst(4))) else {
                    throw InterchangeError("line \(number): '\(text(word))' is not a due date; write due:YYYY-MM-DD")
                }
                record.fields.due = date
            } else if word.count >= 5 && line[word.lowerBound..<word.lowerBound + 4].elementsEqual("rec:".utf8) {
                guard let rule = recurrence(text(word.dropFirst(4))) else {
                    throw InterchangeError("line \(number): '\(text(word))' is not a recurrence; write rec:1w (after completion) or rec:+1w (on a schedule)")
                }
                record.fields.repeat = rule
            } else if word.count >= 3 && line[word.lowerBound..<word.lowerBound + 2].elementsEqual("t:".utf8) {
                guard let date = TaskDate(text(word.dropFirst(2))) else {
                    throw InterchangeError("line \(number): '\(text(word))' is not a threshold date; write t:YYYY-MM-DD")
                }
                record.fields.wait = date
            } else if record.fields.isDone, word.count == 5, line[word.lowerBound..<word.lowerBound + 4].elementsEqual("pri:".utf8),
                      isLetter(line[word.upperBound - 1]) {
                record.fields.priority = priority(line[word.upperBound - 1], notKept: &notKept)
            } else {
                if !title.isEmpty { title.append(0x20) }
                title.append(contentsOf: UnsafeBufferPointer(rebasing: line[word]))
            }
        }
        record.fields.title = String(decoding: title, as: UTF8.self)
        record.fields.list = list ?? Task.defaultList
        return record
    }

    /// `1w` (after completion), `+1w` (on a schedule); `b` is business days.
    static func recurrence(_ text: String) -> RepeatRule? {
        let strict = text.hasPrefix("+")
        let body = strict ? String(text.dropFirst()) : text
        guard let last = body.last, let unit = recurrenceUnits[last] else { return nil }
        let digits = body.dropLast()
        guard digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = digits.isEmpty ? 1 : Int(digits) else { return nil }
        return RepeatRule(kind: strict ? .every : .after, count: count, unit: unit)
    }

    private static let recurrenceUnits: [Character: RepeatRule.Unit] = ["d": .day, "b": .weekday, "w": .week, "m": .month, "y": .year]

    /// A rule as todo.txt's `rec:` value.
    static func recurrence(_ rule: RepeatRule) -> String {
        let unit = rule.unit == .weekday ? "b" : rule.unit.rawValue
        return (rule.kind == .every ? "+" : "") + "\(rule.count)\(unit)"
    }

    private static func priority(_ letter: UInt8, notKept: inout NotKept) -> Priority {
        switch letter {
        case UInt8(ascii: "A"): return .high
        case UInt8(ascii: "B"): return .medium
        case UInt8(ascii: "C"): return .low
        default:
            notKept.add("priorities (D) to (Z), imported as L")
            return .low
        }
    }

    /// A name-based uuid (version 8) for a line without one: the same title and occurrence
    /// give the same uuid in every import.
    static func uuid(title: String, occurrence: Int) -> String {
        // The bytes of "todo.txt\0TITLE\0OCCURRENCE", without building that string.
        UUIDText.nameBased(mixed: false) { hash in
            hash.mix("todo.txt\u{0}".utf8)
            hash.mix(title.utf8)
            hash.mix([0])
            hash.mix(String(occurrence).utf8)
        }
    }

    /// The task as one todo.txt line (newline included), straight into `bytes`; what todo.txt
    /// has no room for is counted in `notKept`.
    static func append(_ task: Task, localTime: CachedLocalTime, notKept: inout NotKept, to bytes: inout [UInt8]) {
        var words: [String] = []
        let letter = task.priority.map { ["A", "B", "C"][$0.rank] }
        if task.isDone {
            words.append("x")
            words.append(localTime.day(task.completed ?? task.modified).description)
        } else if let letter {
            words.append("(\(letter))")
        }
        words.append(localTime.day(task.created).description)
        words.append(task.title)
        if task.list != Task.defaultList {
            if task.list.contains(where: \.isWhitespace) { notKept.add("spaces in list names (written as _)") }
            words.append("+" + String(task.list.map { $0.isWhitespace ? "_" : $0 }))
        }
        for tag in task.tags { words.append("@" + tag) }
        if let due = task.due { words.append("due:" + due.description) }
        if let rule = task.repeat, !task.isDone { words.append("rec:" + recurrence(rule)) }
        if let wait = task.wait { words.append("t:" + wait.description) }
        if task.isDone, let letter { words.append("pri:" + letter) }
        if !task.notes.isEmpty { notKept.add("notes") }
        bytes.append(contentsOf: words.joined(separator: " ").utf8)
        bytes.append(0x0A)
    }
}
