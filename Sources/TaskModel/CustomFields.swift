import TextFormats

/// Custom fields (Taskwarrior's user-defined attributes): declared in the configuration file
/// (`uda.estimate.type = duration`), set with `--set estimate=3h`, kept in the task's
/// `extras` as Taskwarrior writes them — so a custom field made here and one that came from
/// Taskwarrior are the same member, and go back to Taskwarrior as they are.
public struct CustomField: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable { case string, number, date, duration }

    /// Lower-case letters, digits and `_`, a letter first, and no built-in field's name (the
    /// configuration also refuses the query language's names, `FieldVocabulary.builtIn`).
    public let name: String
    public let kind: Kind
    /// The values a string field may take (`uda.size.values = ["S", "M", "L"]`); empty: any.
    public let values: [String]

    public init(name: String, kind: Kind, values: [String] = []) {
        self.name = name
        self.kind = kind
        self.values = values
    }

    /// Whether `name` may name a custom field.
    public static func isName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLowercase else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
            && TaskField(rawValue: name) == nil && !["limit", "tasksnotes", "tasksreminders", "tasksparent"].contains(name)
    }

    /// Why a value cannot be set.
    public struct Refusal: Error, Equatable, Sendable {
        public let message: String
    }

    /// `text` as the JSON value the task keeps (`"PT3H"`, `3.5`, `"20261205T080000Z"`,
    /// `"M"`); `nil` for empty text, which removes the field.
    public func stored(_ text: String, in context: DateContext) throws(Refusal) -> String? {
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { return nil }
        switch kind {
        case .string:
            guard values.isEmpty || values.contains(trimmed) else {
                throw Refusal(message: "'\(trimmed)' is not a value of \(name); use one of \(values.joined(separator: ", "))")
            }
            return CustomField.quoted(trimmed)
        case .number:
            guard let number = Double(trimmed), number.isFinite, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else {
                throw Refusal(message: "'\(trimmed)' is not a number (\(name) is a number field)")
            }
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .date:
            do throws(DateGrammarError) {
                let date = try DateGrammar.date(trimmed, in: context)
                return CustomField.quoted(TimestampText.taskwarrior(date.time ?? context.zone.midnight(date.day)))
            } catch {
                throw Refusal(message: "'\(trimmed)' is not a date (\(name) is a date field); use \(DateGrammar.forms)")
            }
        case .duration:
            guard let seconds = CustomField.seconds(trimmed) else {
                throw Refusal(message: "'\(trimmed)' is not a length of time (\(name) is a duration field); use 3h, 90min, 2d, 1w, 1h30min or PT3H")
            }
            return CustomField.quoted(CustomField.iso8601(seconds))
        }
    }

    /// A stored value as a person reads it: a duration as `3h`, a date on the local clock.
    public func shown(_ raw: String, zone: LocalTime) -> String {
        let text = CustomField.unquoted(raw) ?? raw
        switch kind {
        case .string, .number: return text
        case .date:
            guard let time = TimestampText.parse(text) else { return text }
            let date = TaskDate(time, in: zone)
            return zone.midnight(date.day) == time ? date.day.description : date.shown(in: zone)
        case .duration:
            guard let seconds = CustomField.seconds(text) else { return text }
            return CustomField.short(seconds)
        }
    }

    /// `3h`, `90min`, `1h30min`, `2d`, `1w`, `45s`, or ISO 8601's `PT3H`, `P1DT2H30M`: seconds.
    public static func seconds(_ text: String) -> Int64? {
        var rest = Substring(text.lowercased())
        var total: Int64 = 0
        var iso = false
        if rest.hasPrefix("p") { iso = true; rest = rest.dropFirst() }
        var inTime = false
        var any = false
        while !rest.isEmpty {
            if iso && rest.first == "t" { inTime = true; rest = rest.dropFirst(); continue }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let count = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            let unit = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(unit.count)
            let scale: Int64
            switch (unit, iso, inTime) {
            case ("w", _, false), ("wk", false, _), ("weeks", false, _), ("week", false, _): scale = 604_800
            case ("d", _, false), ("day", false, _), ("days", false, _): scale = 86_400
            case ("h", false, _), ("h", true, true), ("hr", false, _), ("hours", false, _), ("hour", false, _): scale = 3600
            case ("min", false, _), ("m", true, true), ("minutes", false, _), ("minute", false, _): scale = 60
            case ("s", false, _), ("s", true, true), ("sec", false, _), ("seconds", false, _): scale = 1
            default: return nil
            }
            total += count * scale
            any = true
            rest = rest.drop { $0 == " " }
        }
        return any && total < 100 * 365 * 86_400 ? total : nil
    }

    /// Seconds as ISO 8601, as Taskwarrior writes a duration: `PT3H`, `P2DT1H30M`, `PT0S`.
    public static func iso8601(_ seconds: Int64) -> String {
        let days = seconds / 86_400, hours = seconds % 86_400 / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        var text = "P" + (days > 0 ? "\(days)D" : "")
        if hours > 0 || minutes > 0 || rest > 0 || days == 0 {
            text += "T" + (hours > 0 ? "\(hours)H" : "") + (minutes > 0 ? "\(minutes)M" : "") + (rest > 0 || (hours == 0 && minutes == 0) ? "\(rest)S" : "")
        }
        return text
    }

    /// Seconds as a person reads them: `3h`, `1h30min`, `2d`, `45s`.
    public static func short(_ seconds: Int64) -> String {
        let days = seconds / 86_400, hours = seconds % 86_400 / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        var text = (days > 0 ? "\(days)d" : "") + (hours > 0 ? "\(hours)h" : "") + (minutes > 0 ? "\(minutes)min" : "")
        if rest > 0 || text.isEmpty { text += "\(rest)s" }
        return text
    }

    /// `text` as a JSON string (TextFormats' writer, as every JSON this program writes).
    static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONValue.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON string without escapes but `\"` and `\\` (what `quoted` writes of a word), as
    /// text; `nil` for another value.
    public static func unquoted(_ raw: String) -> String? {
        guard raw.count >= 2, raw.first == "\"", raw.last == "\"" else { return nil }
        var text = ""
        var escaped = false
        for character in raw.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                default: text.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                text.append(character)
            }
        }
        return text
    }
}

/// The members of `Task.extras` (a JSON object's members, compact, as `JSONReader.rawValue`
/// and `CustomField` write them), split at the top level: enough to read and replace one
/// member without a JSON library here.
public enum ExtrasText {
    /// Each member's key (as JSON text, quoted) and value (JSON text), in order.
    public static func members(_ text: String) -> [(key: String, value: String)] {
        var members: [(key: String, value: String)] = []
        var depth = 0, inString = false, escaped = false
        var current = ""
        var key: String?
        func finish() {
            if let key { members.append((key, current)) }
            key = nil
            current = ""
        }
        for character in text {
            if inString {
                current.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true; current.append(character)
            case "{", "[": depth += 1; current.append(character)
            case "}", "]": depth -= 1; current.append(character)
            case ":" where depth == 0 && key == nil: key = current; current = ""
            case "," where depth == 0: finish()
            default: current.append(character)
            }
        }
        finish()
        return members
    }

    /// The members Taskwarrior's import keeps here that are Taskwarrior's own attributes, not
    /// custom fields (`Taskwarrior.readRecord`): `+ORPHAN` leaves them out.
    public static let taskwarriorKept: Set<String> = ["rtype", "mask", "imask", "recur", "parent", "status", "tasksnotes", "tasksreminders", "tasksparent"]

    /// The value of the member named `name`, as JSON text.
    public static func value(_ name: String, in text: String) -> String? {
        let quoted = CustomField.quoted(name)
        return members(text).first { $0.key == quoted }?.value
    }

    /// `text` with the member `name` set to `value` (JSON text) in its place, or added at the
    /// end; `nil` removes it.
    public static func setting(_ name: String, to value: String?, in text: String) -> String {
        let quoted = CustomField.quoted(name)
        var members = members(text)
        if let index = members.firstIndex(where: { $0.key == quoted }) {
            if let value { members[index].value = value } else { members.remove(at: index) }
        } else if let value {
            members.append((quoted, value))
        }
        return members.map { $0.key + ":" + $0.value }.joined(separator: ",")
    }
}

/// A custom field's value as a filter compares it: text (a string field's, or a date's
/// Taskwarrior stamp), a number, or a duration's seconds. The store's SQL function
/// `tasks_custom` computes the same, so that SQL and Swift agree.
public enum CustomComparable: Equatable, Sendable {
    case text(String)
    case number(Double)
    case seconds(Int64)

    /// The value of the member kept as `raw` (JSON text) for a field of `kind`; nil when it is
    /// not set or is no value of that kind.
    public static func of(_ raw: String?, _ kind: CustomField.Kind) -> CustomComparable? {
        guard let raw else { return nil }
        let text = CustomField.unquoted(raw) ?? raw
        switch kind {
        case .string, .date: return .text(text)
        case .number:
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        case .duration: return CustomField.seconds(text).map(CustomComparable.seconds)
        }
    }
}
