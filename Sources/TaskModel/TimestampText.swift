/// Timestamps as text: ISO 8601 in UTC (our JSON) and Taskwarrior's compact form.
public enum TimestampText {
    /// `2026-11-29T23:44:46.123Z`: ISO 8601 in UTC, to the millisecond.
    public static func iso8601(_ time: Timestamp) -> String {
        let (day, ofDay) = split(time)
        return String(unsafeUninitializedCapacity: 24) { text in
            CalendarDay.writeDigits(day.year, count: 4, into: text, at: 0)
            text[4] = UInt8(ascii: "-")
            CalendarDay.writeDigits(day.month, count: 2, into: text, at: 5)
            text[7] = UInt8(ascii: "-")
            CalendarDay.writeDigits(day.day, count: 2, into: text, at: 8)
            text[10] = UInt8(ascii: "T")
            CalendarDay.writeDigits(ofDay / 3_600_000, count: 2, into: text, at: 11)
            text[13] = UInt8(ascii: ":")
            CalendarDay.writeDigits(ofDay / 60_000 % 60, count: 2, into: text, at: 14)
            text[16] = UInt8(ascii: ":")
            CalendarDay.writeDigits(ofDay / 1000 % 60, count: 2, into: text, at: 17)
            text[19] = UInt8(ascii: ".")
            CalendarDay.writeDigits(ofDay % 1000, count: 3, into: text, at: 20)
            text[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// `20261129T234446Z`: Taskwarrior's form, in UTC, to the second.
    public static func taskwarrior(_ time: Timestamp) -> String {
        let (day, ofDay) = split(time)
        return String(unsafeUninitializedCapacity: 16) { text in
            CalendarDay.writeDigits(day.year, count: 4, into: text, at: 0)
            CalendarDay.writeDigits(day.month, count: 2, into: text, at: 4)
            CalendarDay.writeDigits(day.day, count: 2, into: text, at: 6)
            text[8] = UInt8(ascii: "T")
            CalendarDay.writeDigits(ofDay / 3_600_000, count: 2, into: text, at: 9)
            CalendarDay.writeDigits(ofDay / 60_000 % 60, count: 2, into: text, at: 11)
            CalendarDay.writeDigits(ofDay / 1000 % 60, count: 2, into: text, at: 13)
            text[15] = UInt8(ascii: "Z")
            return 16
        }
    }

    private static func split(_ time: Timestamp) -> (CalendarDay, Int) {
        let (days, rest) = time.millisecondsSince1970.quotientAndRemainder(dividingBy: 86_400_000)
        let dayCount = rest < 0 ? days - 1 : days
        let ofDay = Int(rest < 0 ? rest + 86_400_000 : rest)
        return (CalendarDay(daysSince1970: Int(dayCount)) ?? .unixEpoch, ofDay)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` and Taskwarrior's
    /// `YYYYMMDDTHHMMSSZ`; `nil` for anything else (a time without a zone is ambiguous).
    public static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// `parse` of the text whose UTF-8 is `utf8`.
    public static func parse(utf8: ArraySlice<UInt8>) -> Timestamp? {
        utf8.withUnsafeBufferPointer { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        // A byte, not a `Character`: its `asciiValue` walked the string's grapheme machinery,
        // a third of the parse (callgrind, importing 20,000 tasks).
        func skip(_ byte: Unicode.Scalar, required: Bool) -> Bool {
            if index < bytes.count && bytes[index] == UInt8(ascii: byte) {
                index += 1
                return true
            }
            return !required
        }
        let compact = bytes.count > 8 && bytes[8] == UInt8(ascii: "T")
        guard let year = number(4), skip("-", required: !compact), let month = number(2), skip("-", required: !compact),
              let dayOfMonth = number(2), skip("T", required: true), let hour = number(2), skip(":", required: !compact),
              let minute = number(2), skip(":", required: !compact), let second = number(2),
              let day = CalendarDay(year: year, month: month, day: dayOfMonth), hour < 24, minute < 60, second < 61 else {
            return nil
        }
        var milliseconds = 0
        if !compact && index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count && (0x30...0x39).contains(bytes[index]) {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard !compact else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), skip(":", required: true), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = Int64(day.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)) - Int64(offset)
        return Timestamp(millisecondsSince1970: seconds * 1000 + Int64(milliseconds))
    }
}
