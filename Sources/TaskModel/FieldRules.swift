import TextFormats

/// The rules a task's fields follow, in one place: what `tasks add`, `tasks edit`, the editor
/// of `tasks ui` and every import check, each with the error that says what to do.
public enum FieldRules {
    /// The longest title accepted, in UTF-8 bytes: a title is one line, not a document.
    public static let maximumTitleBytes = 4096

    /// `title` trimmed, or why it cannot be one.
    public static func title(_ title: String) throws(TaskFieldError) -> String {
        let trimmed = title.trimmingWhitespace
        if trimmed.isEmpty { throw .emptyTitle }
        var bytes = trimmed
        let asciiHasBreak = bytes.withUTF8 { utf8 -> Bool? in
            utf8.allSatisfy { $0 < 0x80 } ? utf8.contains { $0 >= 0x0A && $0 <= 0x0D } : nil
        }
        if asciiHasBreak ?? trimmed.contains(where: \.isNewline) { throw .multilineTitle }
        if trimmed.utf8.count > maximumTitleBytes { throw .titleTooLong(bytes: trimmed.utf8.count, limit: maximumTitleBytes) }
        return trimmed
    }

    /// `list` trimmed, or why it cannot name a list. A list a person `typed` is also refused
    /// when one of its dotted parts is empty (`Work..Reports`, `.Work`, `Work.`): a dot makes a
    /// list under another, and such a name has a part with no name. What another client wrote
    /// (an import, a sync) is kept as it is.
    public static func list(_ list: String, typed: Bool = false) throws(TaskFieldError) -> String {
        if list == Task.defaultList { return list }
        let trimmed = list.trimmingWhitespace
        if trimmed.isEmpty || trimmed.contains(where: \.isNewline) { throw .emptyList }
        if typed && trimmed.utf8.contains(UInt8(ascii: ".")),
           trimmed.split(separator: ".", omittingEmptySubsequences: false).contains(where: { String($0).trimmingWhitespace.isEmpty }) {
            throw .emptyListPart(trimmed)
        }
        return trimmed
    }

    /// A tag as a person types it, `+writing` or `writing`: the word without its one `+`.
    /// What is left is judged by `checkTag` (so `++a` is refused, not stored as `+a`).
    public static func tagWord(_ typed: String) -> String {
        typed.hasPrefix("+") ? String(typed.dropFirst()) : typed
    }

    /// Throws for a tag that is empty or holds a space or line break; a tag being `typed` (added
    /// by a person, not read from a file or kept from before) also may not start with `+`, `-`
    /// or `!`, the marks that add, remove and leave out a tag wherever tags are typed.
    public static func checkTag(_ tag: String, typed: Bool = false) throws(TaskFieldError) {
        if typed, let first = tag.utf8.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: "!") {
            throw .badTag(tag)
        }
        var text = tag
        let plain = text.withUTF8 { bytes in !bytes.isEmpty && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
        if plain { return }
        if tag.isEmpty || tag.contains(where: { $0.isWhitespace || $0.isNewline }) { throw .badTag(tag) }
    }

    /// The priority `text` names (`H`, `M`, `L` in any case), `nil` for empty text.
    public static func priority(_ text: String) throws(TaskFieldError) -> Priority? {
        guard case .priority(let priority) = try TaskFields.spec(.priority).judge(text, today: .unixEpoch) else { return nil }
        return priority
    }

    /// The due date `text` names, counted from `today` (see `DateGrammar`), `nil` for empty
    /// text; a bad one is refused as a due date.
    public static func date(_ text: String, today: CalendarDay) throws(TaskFieldError) -> TaskDate? {
        guard case .date(let date) = try TaskFields.spec(.due).judge(text, today: today) else { return nil }
        return date
    }

    /// A repeat rule as the editor or `--every`/`--after` give it (`every 2w`, `after 3d`);
    /// `nil` for empty text (not repeating).
    public static func repeatRule(_ text: String) throws(TaskFieldError) -> RepeatRule? {
        let words = text.trimmingWhitespace.split(separator: " ", omittingEmptySubsequences: true)
        if words.isEmpty { return nil }
        if words.count == 1, let rule = RepeatRule(.every, interval: String(words[0])) { return rule }
        // A rule as it is kept, with its end (`every weekday until 2020-07-31`, another client's).
        if words.count == 4, let rule = RepeatRule(words.map { $0.lowercased() }.joined(separator: " ")) { return rule }
        guard words.count == 2, let kind = RepeatRule.Kind(rawValue: words[0].lowercased()),
              let rule = RepeatRule(kind, interval: String(words[1])) else {
            throw .badRepeat(words.count == 2 ? String(words[1]) : text.trimmingWhitespace)
        }
        return rule
    }

    /// `uuid` in lower case, or why it is not one.
    public static func uuid(_ uuid: String) throws(TaskFieldError) -> String {
        guard let normalized = UUIDText.normalized(uuid) else { throw .badUUID(uuid) }
        return normalized
    }
}
