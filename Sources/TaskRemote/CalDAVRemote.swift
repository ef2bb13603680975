import SyncWire
import TaskInterchange
import TaskModel

/// A CalDAV server as a sync's remote: each list a calendar collection of VTODOs, each task an
/// item (docs/sync.md, "CalDAV"). The server keeps no log of changes, so this remote makes
/// one: what an item's fields are now against the base the last sync left (its memory, kept
/// in the local file) is a change received; a change sent is written into the item as the
/// server holds it, property by property, with `If-Match` — nothing else in the item moves.
public final class CalDAVRemote: SyncRemote {
    public let name: String
    /// `https://host:port`, and the address's path.
    let origin: String
    let path: String
    private let helper: String
    private let user: String?
    private let password: String?
    private let ca: String?
    private let timeout: Int
    let zone: LocalTime
    let now: () -> Timestamp
    private var connection: CalDAVClient?

    public var memory: String?
    public var keepsMemory: Bool { true }

    /// The memory as the last sync left it, with this run's writes to the server in it.
    var state: CalDAVMemory?
    /// The collections on the server, and each item there, by uuid, as this round read them.
    var serverCollections: [CalDAVMemory.Collection] = []
    var current: [String: CalDAVMemory.Item] = [:]
    private var others: [String: String] = [:]
    /// The same field changed by another client between this round's read and its write.
    public internal(set) var lateConflicts: [SyncMerge.Conflict] = []
    /// Other fields that client changed meanwhile, taken with this sync.
    public internal(set) var lateReceived: [SyncMerge.Incoming] = []
    /// Another client's edit is never lost to a delete: the server keeps no history of it.
    public var editsBeatDeletes: Bool { true }
    /// The tasks whose items this round found gone (a delete received).
    var goneThere: Set<String> = []
    /// The items this round received a change of and wrote nothing to.
    private var received: Set<String> = []
    /// The collections where this round saw the server contradict itself (an item listed but
    /// not given, absent but not gone): their ctag is not remembered, so the next sync looks
    /// again, and their items stay as remembered meanwhile.
    private var unsettled: Set<String> = []
    private var node = ""

    public init(address: String, helper: String, user: String?, password: String?, ca: String?,
                timeout: Int = RemoteSettings.defaultTimeout, zone: LocalTime = .system, now: @escaping () -> Timestamp = { SystemClock.now() }) throws(TaskServiceError) {
        name = CalDAVAddress.withoutPassword(address)
        guard let parts = CalDAVAddress.split(address) else {
            throw .remote(.badAddress("expected http://HOST/PATH or https://HOST/PATH"), remote: name)
        }
        origin = parts.origin
        path = parts.path
        self.helper = helper
        self.user = parts.user ?? user
        self.password = parts.password ?? password
        self.ca = ca
        self.timeout = timeout
        self.zone = zone
        self.now = now
    }

    deinit { connection?.close() }

    func client() throws(TaskServiceError) -> CalDAVClient {
        if let connection { return connection }
        let made = try CalDAVClient(helper: helper, name: name, user: user, password: password, ca: ca, timeout: timeout)
        connection = made
        return made
    }

    /// The address of `href`, a path on this remote's server (`CalDAVHref` made it one). A
    /// path is always joined after a `/`, so nothing stored or received can name another host.
    func url(_ href: String) -> String { origin + (href.hasPrefix("/") ? href : "/" + href) }

    // MARK: - SyncRemote

    public func begin(node: String) throws(TaskServiceError) {
        self.node = node
        var state = self.state ?? memory.map(CalDAVMemory.init) ?? CalDAVMemory()
        let home: String
        if let known = state.home { home = known } else { home = try discoverHome() }
        if let collections = try listCollections(home: home) {
            state.home = home
            serverCollections = collections
        } else {
            // The home moved (or the memory is of another account): find it again.
            let found = try discoverHome()
            guard let collections = try listCollections(home: found) else {
                throw .remote(.noSuchDatabase("no calendar home at \(found)"), remote: name)
            }
            state.home = found
            serverCollections = collections
        }
        serverCollections += try keptUnlisted(state)
        self.state = state
    }

    /// The remembered collections holding tasks that the home's listing left out but that do
    /// not answer 404 or 410 themselves: kept as remembered (their tasks are not deleted
    /// because one answer omitted them), and asked again by the next sync.
    private func keptUnlisted(_ state: CalDAVMemory) throws(TaskServiceError) -> [CalDAVMemory.Collection] {
        let listed = Set(serverCollections.map(\.href))
        let holding = Set(state.items.values.map(\.collection))
        let missing = state.collections.filter { !listed.contains($0.href) && holding.contains($0.href) }
        if missing.isEmpty { return [] }
        let body = #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>"#
        let answers = try client().send(missing.map { .init(method: "PROPFIND", url: url($0.href), depth: "0", body: body) })
        return zip(missing, answers).filter { $0.1.status != 404 && $0.1.status != 410 }.map(\.0)
    }

    public func pull(after seq: Int64) throws(TaskServiceError) -> [SyncChange] {
        guard let state else { throw .remote(.failed("pull before begin"), remote: name) }
        current = [:]
        others = [:]
        received = []
        unsettled = []
        lateConflicts = []
        lateReceived = []
        goneThere = []
        for collection in serverCollections {
            let remembered = state.items.values.filter { $0.collection == collection.href }
            let old = state.collections.first { $0.href == collection.href }
            if let old, !old.ctag.isEmpty, old.ctag == collection.ctag {
                for item in remembered { current[item.uuid] = item }
                for (href, etag) in state.others where href.hasPrefix(collection.href) { others[href] = etag }
                continue
            }
            let byHref = Dictionary(remembered.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
            var wanted: [String] = []
            // Nothing remembered of it (a first sync, a calendar another client made): every
            // task in one request.
            var fetched: [Listed]?
            if remembered.isEmpty && !state.others.keys.contains(where: { $0.hasPrefix(collection.href) }) {
                let (all, complete) = try fetchAllTasks(in: collection.href)
                fetched = all
                if !complete { unsettled.insert(collection.href) }
            }
            var known: [String: String] = [:]
            for item in remembered { known[item.href] = item.etag }
            for (href, etag) in state.others where href.hasPrefix(collection.href) { known[href] = etag }
            var items = fetched ?? []
            // Kept as remembered, not deleted: an item listed but not given, or absent from the
            // listing while the server does not say it is gone.
            var kept: [CalDAVMemory.Item] = []
            if fetched == nil {
                let (listing, removed) = try listing(of: collection, remembered: old, known: known)
                for listed in listing {
                    if let item = byHref[listed.href], item.etag == listed.etag {
                        current[item.uuid] = item
                    } else if state.others[listed.href] == listed.etag {
                        others[listed.href] = listed.etag
                    } else {
                        wanted.append(listed.href)
                    }
                }
                items = try fetch(wanted, in: collection.href)
                let given = Set(items.map(\.href))
                kept = wanted.compactMap { given.contains($0) ? nil : byHref[$0] }
                if wanted.contains(where: { !given.contains($0) }) { unsettled.insert(collection.href) }
                let listedHrefs = Set(listing.map(\.href))
                let absent = remembered.filter { !listedHrefs.contains($0.href) && !removed.contains($0.href) }
                let (found, unsure) = try confirm(absent)
                items += found
                kept += unsure
            }
            for fetched in items {
                let calendar = ICalendar(fetched.text ?? "")
                if let item = byHref[fetched.href], calendar.todo == nil || VTodoMapping.uid(of: calendar) == nil {
                    kept.append(item)  // a task here, unreadable there now: not a delete
                    continue
                }
                guard calendar.todo != nil, let uid = VTodoMapping.uid(of: calendar), current[uid] == nil else {
                    others[fetched.href] = fetched.etag  // an event, a journal, or a second copy of a UID
                    continue
                }
                current[uid] = CalDAVMemory.Item(uuid: uid, href: fetched.href, etag: fetched.etag, collection: collection.href,
                                                 text: fetched.text ?? "", base: state.items[uid]?.base)
            }
            for item in kept where current[item.uuid] == nil { current[item.uuid] = item }
            if !kept.isEmpty { unsettled.insert(collection.href) }
        }
        var changes: [SyncChange] = []
        let names = Dictionary(serverCollections.map { ($0.href, $0.name) }, uniquingKeysWith: { first, _ in first })
        let oldNames = Dictionary(state.collections.map { ($0.href, $0.name) }, uniquingKeysWith: { first, _ in first })
        for uuid in current.keys.sorted() {
            guard let item = current[uuid] else { continue }
            let old = state.items[uuid]
            if let old, old.etag == item.etag, old.href == item.href, old.base == nil, names[item.collection] == oldNames[old.collection] { continue }
            let calendar = ICalendar(item.text)
            var fields = VTodoMapping.fields(of: calendar, zone: zone)
            fields["list"] = .text(names[item.collection] ?? "Inbox")
            if let old {
                let base = CalDAVMemory.base(of: old, collectionName: oldNames[old.collection], zone: zone)
                fields = fields.filter { base[$0.key] != $0.value }
                if fields.isEmpty { continue }
            }
            received.insert(uuid)
            let wall = VTodoMapping.modified(of: calendar) ?? now()
            let clock = HybridClock.next(after: 0, wallMilliseconds: wall.millisecondsSince1970)
            changes.append(SyncChange(id: UUIDText.derived(from: "caldav \(uuid) \(item.etag)"), node: "caldav " + name, origin: host,
                                      clock: clock, task: uuid, fields: fields, source: item.href))
        }
        for uuid in state.items.keys.sorted() where current[uuid] == nil {
            goneThere.insert(uuid)
            changes.append(SyncChange(id: UUIDText.derived(from: "caldav \(uuid) deleted"), node: "caldav " + name, origin: host,
                                      clock: HybridClock.next(after: 0, wallMilliseconds: now().millisecondsSince1970), task: uuid,
                                      fields: [SyncField.deleted: .integer(1)]))
        }
        return changes
    }

    /// The first request of each change goes out with those of the others in its batch (the
    /// helper runs several at once); the answers are then taken in order, each change going on
    /// from there (a 412, a move, a series) one step at a time, as alone.
    public func push(_ changes: [SyncChange]) throws(TaskServiceError) {
        var start = 0
        while start < changes.count {
            let batch = changes[start..<(start + min(Self.batch, changes.count - start))]
            start += batch.count
            var ahead: [Int: SentWrite] = [:]
            var tasks = Set<String>()
            for index in batch.indices where tasks.insert(batch[index].task).inserted {
                ahead[index] = try firstWrite(of: batch[index])
            }
            let order = ahead.keys.sorted()
            let responses = try client().send(order.compactMap { ahead[$0]?.request })
            for (index, response) in zip(order, responses) { ahead[index]?.response = response }
            for index in batch.indices {
                let change = batch[index]
                if change.fields[SyncField.deleted] == .integer(1) {
                    try delete(change.task, origin: change.origin, sent: ahead[index])
                } else {
                    try write(change, sent: ahead[index])
                }
            }
        }
    }

    public func commit() throws(TaskServiceError) -> Int64 {
        guard let state else { throw .remote(.failed("commit before begin"), remote: name) }
        let names = Dictionary(serverCollections.map { ($0.href, $0.name) }, uniquingKeysWith: { first, _ in first })
        var kept = current
        for (uuid, item) in kept {
            // Received here and applied with this sync: both sides agree on what it says now.
            if received.contains(uuid) && state.items[uuid]?.etag != item.etag { kept[uuid]?.base = nil; continue }
            if let base = item.base, let fields = try? SyncFieldsJSON.decode(base) {
                var now = VTodoMapping.fields(of: ICalendar(item.text), zone: zone)
                now["list"] = .text(names[item.collection] ?? "Inbox")
                if now == fields { kept[uuid]?.base = nil }
            }
        }
        var persisted = state
        persisted.items = kept
        // A collection this round could not settle keeps no ctag (so the next sync lists it)
        // and its old sync token (so what changed since is asked again).
        persisted.collections = serverCollections.map { collection in
            guard unsettled.contains(collection.href) else { return collection }
            let old = state.collections.first { $0.href == collection.href }
            return .init(href: collection.href, name: collection.name, ctag: "", token: old?.token ?? "")
        }
        persisted.others = others
        memory = persisted.encoded
        return 0
    }

    /// The client stays open between the rounds of one sync; it ends with the remote.
    public func close() {}

    var host: String {
        let afterScheme = origin.firstRange(of: "://").map { origin[$0.upperBound...] } ?? Substring(origin)
        return String(afterScheme.split(separator: ":").first ?? afterScheme)
    }
}
