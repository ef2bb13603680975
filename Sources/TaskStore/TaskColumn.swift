import SQLiteDB
import TaskModel
import TextFormats

/// The task table's columns, in order — `id`, `uuid`, then each field of `TaskFields.all` —
/// the one list every SELECT, INSERT and decoder goes by. Nothing here names a field: a
/// field's column, its storage and its codec are its entry in the table.
enum TaskColumn {
    /// The fields, after the id and the uuid.
    static let fields = TaskFields.all
    /// The index of the first field's column in a row that selected `names`.
    static let firstField: Int32 = 2

    /// `id, uuid, title, …`: what every task query selects and every full insert names.
    static let names = (["id", "uuid"] + fields.map { $0.column }).concatenated(separator: ", ")
    static let count = Int32(fields.count) + firstField
    /// `(?, ?, …)`: one row of parameters for every column. Not `joined` over a
    /// `repeatElement`: that is not specialized, and its first call looked up the generic
    /// types' metadata and conformances at run time — 190,000 instructions of `tasks add x`'s
    /// 3.9 million (callgrind).
    static let parameterRow = "(" + Array(repeating: "?", count: Int(count)).concatenated(separator: ", ") + ")"
    /// `id` and the columns of the fields a listing reads, in order (the others keep the
    /// empty values `Task(decodingID:uuid:)` gives them). Selecting the others as constants
    /// at their places, as before, cost a tenth more of SQLite's work per row (callgrind).
    static let listedNames = (["id"] + listedOffsets.map { fields[$0].column }).joined(separator: ", ")

    /// The columns `fields` reads.
    static func names(_ set: TaskFieldSet) -> String {
        switch set {
        case .all: names
        case .listed: listedNames
        case .only: (["id"] + (offsets(set) ?? []).map { fields[$0].column }).joined(separator: ", ")
        }
    }

    /// The offsets in `fields` of the fields `set` reads, in order, after the id; nil for
    /// `.all` (the uuid too, and every field).
    static func offsets(_ set: TaskFieldSet) -> [Int]? {
        switch set {
        case .all: nil
        case .listed: listedOffsets
        case .only(let chosen): fields.indices.filter { offset in chosen.contains(fields[offset].field) }
        }
    }

    /// The task in the current row of a statement that selected `names`. Each field reads
    /// its own column; the entries are read in place (a closure copied out of an array is
    /// called through a reabstraction thunk that retains and releases the row: a fifth more
    /// instructions for a listing, measured with callgrind).
    static func decode(_ row: Statement) -> Task {
        var task = Task(decodingID: row.int64(0), uuid: row.string(1))
        fields.withUnsafeBufferPointer { fields in
            for offset in 0..<fields.count { fields[offset].read(&task, row, firstField + Int32(offset)) }
        }
        // A row of a query with the tombstones says last whether it is one.
        if row.columnCount > count { task.isDeleted = row.int64(count) == 1 }
        return task
    }

    /// The listed fields' offsets in `fields`: what `decode(_:_:)` reads of a listing's row.
    static let listedOffsets = fields.indices.filter { fields[$0].isListed }

    /// The task in the current row of a statement that selected `names(set)`, where
    /// `offsets` is `offsets(set)` (found once for a whole listing): for a listing, only its
    /// fields are read, from their columns (the others keep their empty values): ten fewer
    /// columns a row since issue 26's fields.
    static func decode(_ row: Statement, offsets: [Int]?) -> Task {
        guard let offsets else { return decode(row) }
        var task = Task(decodingID: row.int64(0), uuid: "")
        fields.withUnsafeBufferPointer { fields in
            offsets.withUnsafeBufferPointer { offsets in
                for (column, offset) in offsets.enumerated() { fields[offset].read(&task, row, 1 + Int32(column)) }
            }
        }
        let deleted = 1 + Int32(offsets.count)
        if row.columnCount > deleted { task.isDeleted = row.int64(deleted) == 1 }
        return task
    }

    /// Binds every column of `task` to the parameters from `first` on, in this order. An id
    /// of 0, or an `automaticID`, binds NULL: SQLite gives the row the next id.
    static func bind(_ task: Task, to statement: Statement, from first: Int32, automaticID: Bool = false) throws {
        try statement.bind(integer: task.id == 0 || automaticID ? nil : task.id, at: first)
        try statement.bind(text: task.uuid, at: first + 1)
        let fields = self.fields
        for offset in fields.indices {
            try bind(fields[offset].stored(task), to: statement, at: first + firstField + Int32(offset))
        }
    }

    static func bind(_ value: SyncValue, to statement: Statement, at index: Int32) throws {
        switch value {
        case .null: try statement.bind(integer: nil, at: index)
        case .integer(let number): try statement.bind(integer: number, at: index)
        case .text(let text): try statement.bind(text: text, at: index)
        }
    }
}

extension Statement: ColumnRow {}

extension TaskFieldSpec {
    /// What its column holds for `task`.
    func columnValue(of task: Task) -> SQLiteValue { stored(task).sqliteValue }

    /// A value its column held, typed.
    func typed(_ value: SQLiteValue) -> FieldValue { kind.typed(SyncValue(value)) }
}
