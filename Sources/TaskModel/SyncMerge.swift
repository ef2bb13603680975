/// The merge of one sync, decided before anything is written: what this machine sends, and
/// what it takes from the others, field by field.
///
/// The remote's log holds, per task and field, values in the order of their clocks (syncs
/// take turns on the remote, and a machine sends a field only when it beat everything it
/// received for that field), so the last value received for a field is the newest. A field
/// changed both here (since the last sync) and there is a conflict: the later clock wins, on
/// every machine alike. A delete wins over changes to the task's fields — or, for a remote
/// whose other clients keep no history (`editsBeatDeletes`, CalDAV), loses to them: the task
/// stays (made again here, or sent whole there) and the delete is reported.
public struct SyncMerge: Equatable, Sendable {
    /// What the others changed of one task, folded: the last value of each field.
    public struct Incoming: Equatable, Sendable {
        public var task: String
        public var fields: [String: SyncValue] = [:]
        /// The fields this machine changed too, and won: not applied here.
        public var overruled: Set<String> = []

        public init(task: String, fields: [String: SyncValue] = [:]) {
            self.task = task
            self.fields = fields
        }

        /// Deleted here, changed there, and the change won: the task is made again here from
        /// what it was when deleted, with these fields.
        public var restores = false

        /// Whether the task ends deleted.
        public var isDeleted: Bool { fields[SyncField.deleted] == .integer(1) }
        /// The fields to set here.
        public var applied: [String: SyncValue] { overruled.isEmpty ? fields : fields.filter { !overruled.contains($0.key) } }
    }

    /// One conflict, before the task's id and title are known.
    public struct Conflict: Equatable, Sendable {
        public var task: String
        public var field: String
        public var kept: SyncValue
        public var keptFrom: String
        public var replaced: SyncValue
        public var replacedFrom: String
        /// Whether this machine's value won (and so is sent).
        public var keptLocal: Bool

        public init(task: String, field: String, kept: SyncValue, keptFrom: String, replaced: SyncValue, replacedFrom: String, keptLocal: Bool) {
            self.task = task
            self.field = field
            self.kept = kept
            self.keptFrom = keptFrom
            self.replaced = replaced
            self.replacedFrom = replacedFrom
            self.keptLocal = keptLocal
        }
    }

    /// This machine's changes to send: those that beat what the others sent.
    public var pushes: [SyncChange] = []
    /// The tasks deleted there and changed here, whose change won: their pushes are to carry
    /// every field (the remote makes the task again).
    public var sentWhole: Set<String> = []
    /// The others' changes, per task, in the order first received.
    public var incoming: [Incoming] = []
    public var conflicts: [Conflict] = []

    public init(local: [SyncChange], incoming changes: [SyncChange], editsBeatDeletes: Bool = false) {
        var index: [String: Int] = [:]
        index.reserveCapacity(changes.count)
        incoming.reserveCapacity(changes.count)
        // The change that carried each field's last value, kept only for the tasks changed
        // here too: the others' fields are taken without a comparison (and a sync that only
        // receives builds no table per field: 100,000 tasks down spent 3 s here).
        let changedHere = Set(local.map(\.task))
        var winners: [String: [String: SyncChange]] = [:]
        for change in changes {
            if let at = index[change.task] {
                for (field, value) in change.fields { incoming[at].fields[field] = value }
            } else {
                index[change.task] = incoming.count
                incoming.append(Incoming(task: change.task, fields: change.fields))
            }
            if changedHere.contains(change.task) {
                for field in change.fields.keys { winners[change.task, default: [:]][field] = change }
            }
        }
        for change in local {
            guard let at = index[change.task] else {
                pushes.append(change)
                continue
            }
            let deletedHere = change.fields[SyncField.deleted] == .integer(1)
            if incoming[at].isDeleted {
                // Deleted there: the delete wins over what changed here — unless edits win.
                guard editsBeatDeletes, !deletedHere else { continue }
                incoming[at].fields = [:]
                sentWhole.insert(change.task)
                pushes.append(change)
                let theirs = winners[change.task]?[SyncField.deleted]
                conflicts.append(Conflict(task: change.task, field: SyncField.deleted, kept: .integer(0), keptFrom: change.origin,
                                          replaced: .integer(1), replacedFrom: theirs?.origin ?? change.origin, keptLocal: true))
                continue
            }
            if deletedHere, editsBeatDeletes, !incoming[at].fields.isEmpty {
                // Deleted here, changed there: their change wins, the task comes back.
                incoming[at].restores = true
                let theirs = winners[change.task]?.values.first
                conflicts.append(Conflict(task: change.task, field: SyncField.deleted, kept: .integer(0), keptFrom: theirs?.origin ?? change.origin,
                                          replaced: .integer(1), replacedFrom: change.origin, keptLocal: false))
                continue
            }
            var push = change
            for (field, value) in change.fields {
                guard let theirs = winners[change.task]?[field], let theirValue = incoming[at].fields[field] else { continue }
                if theirValue == value {
                    push.fields[field] = nil  // the same value both ways: nothing to send or report
                    incoming[at].overruled.insert(field)
                    continue
                }
                let localWins = change.wins(over: theirs)
                if localWins {
                    incoming[at].overruled.insert(field)
                } else {
                    push.fields[field] = nil
                }
                if SyncField.reported.contains(field) {
                    conflicts.append(Conflict(
                        task: change.task, field: field,
                        kept: localWins ? value : theirValue, keptFrom: localWins ? change.origin : theirs.origin,
                        replaced: localWins ? theirValue : value, replacedFrom: localWins ? theirs.origin : change.origin,
                        keptLocal: localWins))
                }
            }
            if !push.fields.isEmpty { pushes.append(push) }
        }
    }

    /// Fields another client changed that the remote met while writing (a 412) and this
    /// machine did not change: taken here as if received.
    public mutating func add(received late: Incoming) {
        if let at = incoming.firstIndex(where: { $0.task == late.task }) {
            for (field, value) in late.fields where !incoming[at].overruled.contains(field) { incoming[at].fields[field] = value }
            if late.restores { incoming[at].restores = true }
        } else {
            incoming.append(late)
        }
    }

    /// A conflict the remote met while writing, after this merge was made (CalDAV: a 412, when
    /// another client wrote the item after it was read): reported like the others, once per
    /// field; when the other client's value won, it is taken here as if it had been received.
    public mutating func add(late conflict: Conflict) {
        if SyncField.reported.contains(conflict.field) || conflict.field == SyncField.deleted {
            conflicts.removeAll { $0.task == conflict.task && $0.field == conflict.field }
            conflicts.append(conflict)
        }
        guard !conflict.keptLocal else { return }
        if let at = incoming.firstIndex(where: { $0.task == conflict.task }) {
            incoming[at].fields[conflict.field] = conflict.kept
            incoming[at].overruled.remove(conflict.field)
        } else {
            incoming.append(Incoming(task: conflict.task, fields: [conflict.field: conflict.kept]))
        }
    }
}

/// The fields that travel: the task's columns by name, and `deleted`.
public enum SyncField {
    public static let deleted = "deleted"
    public static let created = "created"
    /// Every field a task's change carries, in a fixed order.
    public static let all: [String] = TaskFields.synced.map { $0.name }
    /// The fields whose conflicts a sync reports: what a person wrote. Order, creation time,
    /// completion time and a series' bookkeeping merge by the clock without a report.
    public static let reported: Set<String> = Set(TaskFields.all.filter { $0.isReported }.map { $0.name })
}
