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
    /// (of a series stopped here too: its rule, one this side reads, removed here; its series
    /// is then its kept `parent`). Two tasks in one place: the one further on wins (`X` over
    /// `+` over `W` over `-`), so that a done or deleted place is never made pending again.
    static func mark(_ task: Task, into marks: inout Marks) {
        // Most tasks hold no instance's place: a look at the text before reading it.
        guard !task.extras.isEmpty, task.extras.contains("\"imask\":") else { return }
        var stopped = false
        if task.repeat == nil && task.series == nil {
            guard let recur = ExtrasText.value("recur", in: task.extras).flatMap(Extras.string) else { return }
            // A rule this side cannot read (`12h`) was never one here: not stopped here either.
            stopped = rule(recur) != nil
        }
        guard let series = task.series ?? ExtrasText.value("parent", in: task.extras).flatMap(Extras.string), series != task.uuid,
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
        var seriesMarks = marks[series] ?? SeriesMarks()
        if let held = seriesMarks.places[place], rank(held) > rank(mark) {} else { seriesMarks.places[place] = mark }
        if stopped { seriesMarks.stoppedAt = max(seriesMarks.stoppedAt ?? task.modified, task.modified) }
        marks[series] = seriesMarks
    }

    /// How far on a mask's character says its instance is.
    private static func rank(_ mark: UInt8) -> Int {
        switch mark {
        case UInt8(ascii: "X"): 3
        case UInt8(ascii: "+"): 2
        case UInt8(ascii: "W"): 1
        default: 0
        }
    }

    /// An `imask` as Taskwarrior writes it (`1`, `1.0`, `"1"`): a whole number under `maskLength`.
    static func maskPlace(_ raw: String?) -> Int? {
        guard var text = raw else { return nil }
        if let string = Extras.string(text) { text = string }
        guard text.utf8.count <= 24, let value = Double(text), value >= 0, value < Double(maskLength), value == value.rounded() else { return nil }
        return Int(value)
    }

    /// The template `body` (one JSON object, as Taskwarrior wrote it) to write back for `marks`,
    /// or nil when Taskwarrior's own copy needs nothing from here — its import marks the places
    /// its mask has as their instances come back, and a copy of the mask as it was at the import
    /// would undo what Taskwarrior has made since. It is needed for a place past the kept mask's
    /// end (an occurrence made here: Taskwarrior must not make it again) or a series stopped
    /// here. Then each place written takes its character, the places between the mask's end
    /// and a later one take `?` (Taskwarrior's own filler: it makes no instance there), every
    /// other member as written; a series stopped here goes back deleted, ended at its stopped
    /// instance's last change (Taskwarrior then makes no more of it; its instances stay). A body
    /// that does not read as an object is not written.
    static func template(_ body: String, marks: SeriesMarks) -> String? {
        let bytes = body.utf8
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        var members = Extras.pairs(String(body.dropFirst().dropLast()))
        if members.isEmpty { return nil }
        func set(_ key: String, _ value: String) {
            if let at = members.firstIndex(where: { $0.key == key }) { members[at].value = value } else { members.append((key, value)) }
        }
        // Taskwarrior's mask is ASCII; any other byte a file put there is a filler.
        var mask = Array((members.first { $0.key == "mask" }.flatMap { Extras.string($0.value) } ?? "").utf8).map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }
        guard marks.stoppedAt != nil || (marks.places.keys.max() ?? -1) >= mask.count else { return nil }
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
