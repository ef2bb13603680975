import ReactorCore
import TextFormats

/// A field's value as it travels between machines: what the task's column holds.
public enum SyncValue: Equatable, Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case text(String)

    public var description: String {
        switch self {
        case .null: return "(none)"
        case .integer(let value): return String(value)
        case .text(let value): return "\"\(value)\""
        }
    }
}

extension SyncValue {
    /// The value in JSON: null, a whole number or a string — as the remote keeps a change's
    /// fields and as `sync --format json` reports a conflict.
    public var json: JSONValue {
        switch self {
        case .null: return .null
        case .integer(let number): return .number(number)
        case .text(let text): return .string(text)
        }
    }
}

/// What one machine changed of one task in one sync: the fields it changed, with their new
/// values, stamped with the machine's hybrid logical clock. The remote keeps these in the
/// order it received them; `id` is the change's own, so pushing it twice stores it once.
public struct SyncChange: Equatable, Sendable {
    /// The change's own uuid, derived from the machine, the task and the clock: a sync run
    /// again after a failure pushes the same id for the same change.
    public var id: String
    /// The machine's uuid (one per database file).
    public var node: String
    /// The machine's name, for reports: `kept "X" from laptop`.
    public var origin: String
    /// The hybrid logical clock: milliseconds since 1970 shifted left 16 bits, plus a counter.
    public var clock: Int64
    /// The task's uuid: the same task on every machine.
    public var task: String
    /// The fields changed, by column name (`title`, `done`, …, and `deleted`).
    public var fields: [String: SyncValue]
    /// The remote's sequence number once stored there; 0 before.
    public var seq: Int64
    /// Where the remote holds it, for messages: a CalDAV item's path; empty for a row.
    public var source = ""
    /// Why the remote could not read the change (its fields are no JSON object of values):
    /// such a change is received only to be kept aside.
    public var rejection: String?

    public init(id: String, node: String, origin: String, clock: Int64, task: String, fields: [String: SyncValue], seq: Int64 = 0,
                source: String = "", rejection: String? = nil) {
        self.id = id
        self.node = node
        self.origin = origin
        self.clock = clock
        self.task = task
        self.fields = fields
        self.seq = seq
        self.source = source
        self.rejection = rejection
    }

    /// Whether this change wins over `other` for a field both set: the later clock, and on a
    /// tie the greater node — the same answer on every machine.
    public func wins(over other: SyncChange) -> Bool {
        (clock, node) > (other.clock, other.node)
    }
}

/// A hybrid logical clock: wall-clock milliseconds in the high bits, a counter in the low 16,
/// never going back and always past every clock seen.
public enum HybridClock {
    /// The latest wall time a clock can carry (the year 10889); a later one is taken as this.
    public static let maximumMilliseconds = Int64.max >> 16

    /// How far past this machine's own wall time a peer's clock is believed: a day. A clock
    /// later than that (a peer's 2^63 - 1) still orders its change, but does not become the
    /// clock this machine's own changes must follow.
    public static let aheadAllowance: Int64 = 86_400_000

    /// The clock of an event at wall time `milliseconds`, after everything `last` stands for.
    /// Never traps: a wall time outside 1970 … 10889 is taken at its end, and after the last
    /// clock there is no later one (the ids of changes also carry their task).
    public static func next(after last: Int64, wallMilliseconds milliseconds: Int64) -> Int64 {
        let wall = min(max(milliseconds, 0), maximumMilliseconds) << 16
        return max(wall, last == .max ? .max : last + 1)
    }

    /// The latest clock this machine takes as seen, at wall time `now`: its own time and the
    /// allowance.
    public static func ceiling(at now: Int64) -> Int64 {
        next(after: 0, wallMilliseconds: min(max(now, 0), maximumMilliseconds - aheadAllowance) + aheadAllowance)
    }

    /// `clock` as seen at `now`: no later than the ceiling.
    public static func believed(_ clock: Int64, at now: Int64) -> Int64 { min(clock, ceiling(at: now)) }

    /// The wall time a clock stands for, in milliseconds since 1970.
    public static func milliseconds(_ clock: Int64) -> Int64 { clock >> 16 }
}

/// The same field changed on two machines since they last synced: `kept` won (the later
/// change), `replaced` lost and is kept in the history.
public struct SyncConflict: Equatable, Sendable {
    public var taskID: Int64
    public var title: String
    public var field: String
    public var kept: SyncValue
    public var keptFrom: String
    public var replaced: SyncValue
    public var replacedFrom: String

    public init(taskID: Int64, title: String, field: String, kept: SyncValue, keptFrom: String, replaced: SyncValue, replacedFrom: String) {
        self.taskID = taskID
        self.title = title
        self.field = field
        self.kept = kept
        self.keptFrom = keptFrom
        self.replaced = replaced
        self.replacedFrom = replacedFrom
    }
}

/// What one sync did.
public struct SyncReport: Equatable, Sendable {
    /// Changes sent (one per task changed here).
    public var pushed = 0
    /// Changes received from other machines.
    public var pulled = 0
    /// Tasks made, changed and deleted here by what was received.
    public var created = 0
    public var changed = 0
    public var deleted = 0
    public var conflicts: [SyncConflict] = []
    /// The history entry that records what the sync changed here (`tasks undo` reverts it).
    public var entry: Int64?
    /// The changes received and kept aside, not applied, that no earlier sync had reported.
    public var rejected: [SyncRejection] = []

    public init() {}

    /// Whether nothing travelled either way.
    public var isEmpty: Bool { pushed == 0 && pulled == 0 }
}

/// A change received and not applied: a value in it breaks the rules `add` and `import` keep
/// (`ReceivedFieldRules`), or the remote could not read it. Kept aside in the file
/// (`tasks sync --rejected`), reported by the sync that first met it.
public struct SyncRejection: Equatable, Sendable {
    /// The remote it came from (without a password).
    public var remote: String
    /// The change's id, and the machine that made it (its id and name).
    public var change: String
    public var node: String
    public var origin: String
    /// The task's uuid.
    public var task: String
    /// Where the remote holds it: a CalDAV item's path, `row SEQ` of a PostgreSQL remote.
    public var source: String
    /// Why it was not applied.
    public var reason: String
    /// Its fields as received (JSON).
    public var fields: String
    /// When it was first met.
    public var time: Timestamp

    public init(remote: String, change: String, node: String, origin: String, task: String, source: String, reason: String,
                fields: String, time: Timestamp) {
        self.remote = remote
        self.change = change
        self.node = node
        self.origin = origin
        self.task = task
        self.source = source
        self.reason = reason
        self.fields = fields
        self.time = time
    }
}

/// One exchange with a remote: opened with `begin`, which holds the remote against other
/// syncs until `commit` or `close`; nothing is kept there unless `commit` returns.
public protocol SyncRemote: AnyObject {
    /// The remote, for messages (without any password).
    var name: String { get }
    /// Connects, makes or checks the remote's schema, and takes the remote's sync lock.
    func begin(node: String) throws(TaskServiceError)
    /// Every change other machines stored after `seq`, in the order stored.
    func pull(after seq: Int64) throws(TaskServiceError) -> [SyncChange]
    /// Stores `changes`; a change whose id is there already is skipped.
    func push(_ changes: [SyncChange]) throws(TaskServiceError)
    /// Whether `pull(after:each:)` reads the changes one at a time (else it calls `pull(after:)`).
    var streamsPulls: Bool { get }
    /// Every change other machines stored after `seq`, in the order stored, handed to `body`
    /// one at a time; returns how many there were.
    func pull(after seq: Int64, each body: (ReceivedChange) throws -> Void) throws -> Int
    /// Makes the pushes permanent; returns the newest sequence number the remote holds.
    func commit() throws(TaskServiceError) -> Int64
    /// Ends the exchange; without `commit`, the remote keeps nothing of it.
    func close()
    /// What the remote keeps in the local file between syncs (a CalDAV server keeps no log
    /// of changes, so its remote remembers each item as last seen): set before `begin` to what
    /// the last sync kept, nil for nothing; read after `commit`, and kept with the sync's apply.
    var memory: String? { get set }
    /// Whether the remote keeps a memory: with none kept yet, the sync is a first one, and
    /// every task here is sent.
    var keepsMemory: Bool { get }
    /// The conflicts met while pushing, after the merge (another client wrote an item between
    /// the pull and the write); read after `commit`.
    var lateConflicts: [SyncMerge.Conflict] { get }
    /// What another client changed of an item, met while pushing (a 412), in fields this
    /// machine did not change: applied with this sync, as if pulled; read after `commit`.
    var lateReceived: [SyncMerge.Incoming] { get }
    /// Whether an edit wins over a delete: a task edited on one side and deleted on the other
    /// stays, and the delete is reported (CalDAV: the server keeps no history, so what another
    /// client wrote would be lost); otherwise the delete wins (both sides keep a history).
    var editsBeatDeletes: Bool { get }
}

extension SyncRemote {
    public var memory: String? {
        get { nil }
        set {}  // a remote without a memory keeps nothing
    }

    public var keepsMemory: Bool { false }

    public var lateConflicts: [SyncMerge.Conflict] { [] }  // a remote that stores under a lock meets none

    public var lateReceived: [SyncMerge.Incoming] { [] }

    public var editsBeatDeletes: Bool { false }

    public var streamsPulls: Bool { false }

    public func pull(after seq: Int64, each body: (ReceivedChange) throws -> Void) throws -> Int {
        let changes = try pull(after: seq)
        for change in changes {
            var values = [SyncValue?](repeating: nil, count: SyncField.all.count)
            for (name, value) in change.fields {
                if let index = ReceivedChange.index[name] { values[index] = value }
            }
            try body(ReceivedChange(seq: change.seq, clock: change.clock, task: change.task, values: values,
                                    deleted: change.fields[SyncField.deleted], id: change.id, node: change.node, origin: change.origin,
                                    rejection: change.rejection))
        }
        return changes.count
    }
}

/// Where the remote a sync talks to comes from: the command line, the environment, or the
/// file's memory of the last `sync --remote`.
public protocol SyncRemoteMaker {
    /// A remote for `url` (which may carry a password; never stored or printed).
    func remote(url: String) throws(TaskServiceError) -> any SyncRemote
    /// Watches `url` for other nodes' syncs (not `node`'s own), waiting for nothing: the
    /// watch says `.listening` or `.ended` when it knows.
    func watch(url: String, node: String) throws(TaskServiceError) -> any RemoteWatch
    /// The same maker, making remotes with `settings`.
    func configured(_ settings: RemoteSettings) -> any SyncRemoteMaker
}

/// What a remote says between syncs: that it listens, that another machine synced, or that
/// it is gone (unreachable, refused): `tasks ui` and `tasks sync --watch` follow it.
public enum RemoteNews: Equatable, Sendable {
    case listening
    case changed
    case ended(TaskServiceError)
}

/// A remote's news of other machines' syncs: a descriptor to wait on (`poll`), and what has
/// arrived when it is readable. Closing it ends the watch.
public protocol RemoteWatch: AnyObject {
    var descriptor: Int32 { get }
    /// What arrived, without waiting; `.ended` is the last.
    func read() -> [RemoteNews]
    func close()
}

/// How to reach a remote configured by name (`[remote.NAME]`): for CalDAV, the user, a
/// command that prints the password, a CA file for a server no system CA vouches for.
public struct RemoteSettings: Equatable, Sendable {
    public var user: String?
    public var passwordCommand: String?
    public var ca: String?
    /// The longest one sync with this remote may take, in seconds: every request ends by then.
    public var timeout: Int
    /// Plain `http://` to another machine allowed (the password then crosses the network in
    /// the clear; every sync says so).
    public var insecure = false

    /// Five minutes: a large first sync fits; a server trickling its answer does not hold a
    /// sync (or a cron job) for ever.
    public static let defaultTimeout = 300

    public init(user: String? = nil, passwordCommand: String? = nil, ca: String? = nil, timeout: Int = RemoteSettings.defaultTimeout) {
        self.user = user
        self.passwordCommand = passwordCommand
        self.ca = ca
        self.timeout = timeout
    }
}

extension SyncRemoteMaker {
    /// The same maker, making remotes with `settings`; a maker that has none to use is itself.
    public func configured(_ settings: RemoteSettings) -> any SyncRemoteMaker { self }

    /// A remote that cannot be watched says so.
    public func watch(url: String, node: String) throws(TaskServiceError) -> any RemoteWatch {
        throw TaskServiceError.remote(.failed("this remote cannot be watched"), remote: url)
    }
}

/// Which machine this file is in syncs, and the remote it last synced with.
public struct SyncIdentity: Equatable, Sendable {
    /// The file's own id among the machines (sent with each change).
    public var node: String
    /// The remote last given with `--remote`, without its password; nil before that.
    public var remote: String?

    public init(node: String, remote: String?) {
        self.node = node
        self.remote = remote
    }
}

/// A store that can exchange its changes with a remote.
public protocol TaskSyncing: AnyObject {
    /// This file's id in syncs and its remembered remote.
    func syncIdentity() -> Observable<SyncIdentity>

    /// Pushes the changes made here since the last sync, pulls everyone else's, and applies
    /// them here in one transaction. `url` (else the one remembered) names the remote;
    /// `remember` stores it, without its password, for the next sync.
    func sync(url: String?, remember: Bool, through maker: any SyncRemoteMaker) -> Observable<SyncReport>

    /// The changes received and kept aside, oldest first.
    func rejectedChanges() -> Observable<[SyncRejection]>
}
