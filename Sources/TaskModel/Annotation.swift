/// A line added to a task at a moment (`tasks annotate`), kept apart from its notes:
/// Taskwarrior's annotations, one to one.
public struct Annotation: Hashable, Sendable {
    /// When it was added.
    public var entry: Timestamp
    /// One line or more, not empty.
    public var text: String

    public init(entry: Timestamp, text: String) {
        self.entry = entry
        self.text = text
    }
}

/// Annotations as one text column: one line each, `MILLISECONDS<TAB>TEXT`, the text's
/// backslashes, tabs and line breaks escaped (`\\`, `\t`, `\n`); empty when there are none.
/// Read only by `show`, JSON and the formats (a listing leaves the column unread).
public enum AnnotationsText {
    public static func encode(_ annotations: [Annotation]) -> String {
        var text = ""
        for annotation in annotations {
            text += String(annotation.entry.millisecondsSince1970) + "\t"
            for character in annotation.text {
                switch character {
                case "\\": text += "\\\\"
                case "\t": text += "\\t"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                default: text.append(character)
                }
            }
            text += "\n"
        }
        return text
    }

    /// What `encode` wrote; a line it could not have written is skipped.
    public static func decode(_ text: String) -> [Annotation] {
        guard !text.isEmpty else { return [] }
        var annotations: [Annotation] = []
        for line in text.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t"), let milliseconds = Int64(line[..<tab]) else { continue }
            var value = ""
            var escaped = false
            for character in line[line.index(after: tab)...] {
                if escaped {
                    switch character {
                    case "t": value.append("\t")
                    case "n": value.append("\n")
                    case "r": value.append("\r")
                    default: value.append(character)
                    }
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    value.append(character)
                }
            }
            annotations.append(Annotation(entry: Timestamp(millisecondsSince1970: milliseconds), text: value))
        }
        return annotations
    }
}
