import TextFormats
import TaskModel

/// Taskwarrior's recurring templates. Taskwarrior keeps a series as a template (`status:
/// recurring`) and makes its instances from it, ahead of time; the template's `mask` has one
/// character per instance made — `-` pending, `+` done, `X` deleted, `W` waiting — and
/// Taskwarrior makes the instance of place `i` (its `imask`) only while the mask is shorter
/// than `i + 1`. Here a series is its tasks, so an import keeps each template as written
/// (`KeptRecord`), and the export writes it back after the tasks, its mask saying what each
/// instance written is now — the ones done or deleted here, and the next occurrence made
/// here, so that Taskwarrior does not make that one a second time.
extension Taskwarrior {
    /// What the instances written say of their series: each one's mask character by its place,
    /// and when an instance's rule was removed here (the series stopped), the latest such change.
    struct SeriesMarks: Equatable {
        var places: [Int: UInt8] = [:]
        var stoppedAt: Timestamp?
    }

    typealias Marks = [String: SeriesMarks]

    /// Places past this are not written into a mask (a mask of a daily series of 27 years).
    static let maskLength = 10_000

    /// `task`'s place in its series and what the mask says of it there, when it is an instance
    /// (of a series stopped here too: its series is then its kept `parent`).
    static func mark(_ task: Task, into marks: inout Marks) {
        let stopped = task.repeat == nil && task.series == nil
        guard let series = stopped ? ExtrasText.value("parent", in: task.extras).flatMap(Extras.string) : task.series, series != task.uuid,
              let place = maskPlace(ExtrasText.value("imask", in: task.extras)) else { return }
        let mark: UInt8
        if task.isDeleted {
            mark = UInt8(ascii: "X")
        } else if task.isDone {
            mark = UInt8(ascii: "+")
        } else if task.wait != nil && ExtrasText.value("status", in: task.extras) == Extras.quoted("waiting") {
            mark = UInt8(ascii: "W")
        } else {
            mark = UInt8(ascii: "-")
        }
        marks[series, default: SeriesMarks()].places[place] = mark
        if stopped {
            let earlier = marks[series]?.stoppedAt ?? task.modified
            marks[series]?.stoppedAt = max(earlier, task.modified)
        }
    }

    /// An `imask` as Taskwarrior writes it (`1`, `1.0`, `"1"`): a whole number under `maskLength`.
    static func maskPlace(_ raw: String?) -> Int? {
        guard var text = raw else { return nil }
        if let string = Extras.string(text) { text = string }
        guard text.utf8.count <= 24, let value = Double(text), value >= 0, value < Double(maskLength), value == value.rounded() else { return nil }
        return Int(value)
    }

    /// The template `body` (one JSON object, as Taskwarrior wrote it) with its `mask` saying
    /// `marks`: each place written takes its character, the places between the mask's end and
    /// a later one written take `?` (Taskwarrior's own filler: it makes no instance there);
    /// every other member as written. A series stopped here goes back deleted, ended when it
    /// was stopped (Taskwarrior then makes no more of it; its instances stay). A body that
    /// does not read is written as it was.
    static func template(_ body: String, marks: SeriesMarks) -> String {
        let bytes = body.utf8
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return body }
        var members = Extras.pairs(String(body.dropFirst().dropLast()))
        if members.isEmpty { return body }
        func set(_ key: String, _ value: String) {
            if let at = members.firstIndex(where: { $0.key == key }) { members[at].value = value } else { members.append((key, value)) }
        }
        var mask = Array((members.first { $0.key == "mask" }.flatMap { Extras.string($0.value) } ?? "").utf8)
        for (place, mark) in marks.places.sorted(by: { $0.key < $1.key }) {
            if mask.count <= place { mask.append(contentsOf: repeatElement(UInt8(ascii: "?"), count: place + 1 - mask.count)) }
            mask[place] = mark
        }
        set("mask", Extras.quoted(String(decoding: mask, as: UTF8.self)))
        if let stoppedAt = marks.stoppedAt {
            set("status", Extras.quoted("deleted"))
            set("end", Extras.quoted(TimestampText.taskwarrior(stoppedAt)))
        }
        return "{" + Extras.text(members) + "}"
    }
}
