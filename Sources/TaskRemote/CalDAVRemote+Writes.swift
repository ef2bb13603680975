import TaskInterchange
import TaskModel

/// A sync's writes to the server: each conditional on what it read (`If-Match` the ETag, or
/// `If-None-Match: *` for a new item), each changing only the properties of the fields sent.
extension CalDAVRemote {
    /// How many times a write is tried against an item another client keeps changing.
    static let attempts = 3

    /// A write's first request, made before it is sent (`firstWrite`) so that many go out
    /// together, and the server's answer to it.
    struct SentWrite {
        var request: CalDAVClient.Request
        /// A new item's collection and text.
        var made: (collection: CalDAVMemory.Collection, calendar: ICalendar)?
        var response = CalDAVClient.Response(status: 0, etag: "", location: "", body: "")
    }

    /// How many changes' first requests go out together.
    static let batch = 256

    /// The first request `write` or `delete` sends for `change`, made ahead; nil where the
    /// change goes one step at a time (a move; the next item of a series, made from another
    /// item this round may write; a delete or a change with nothing to send).
    func firstWrite(of change: SyncChange) throws(TaskServiceError) -> SentWrite? {
        let uuid = change.task
        if change.fields[SyncField.deleted] == .integer(1) {
            guard let item = current[uuid] ?? state?.items[uuid] else { return nil }
            return SentWrite(request: .init(method: "DELETE", url: url(item.href), ifMatch: item.etag))
        }
        var fields = change.fields
        let list = fields.removeValue(forKey: "list")?.text
        guard !goneThere.contains(uuid), let item = current[uuid] ?? state?.items[uuid] else {
            if let series = change.fields["series"]?.text, !series.isEmpty { return nil }
            let made = try newItem(uuid, fields: change.fields, list: list ?? "Inbox")
            let href = made.collection.href + uuid + ".ics"
            return SentWrite(request: .init(method: "PUT", url: url(href), ifNoneMatch: "*", body: made.calendar.text), made: made)
        }
        let names = Dictionary(serverCollections.map { ($0.href, $0.name) }, uniquingKeysWith: { first, _ in first })
        if let list, list != names[item.collection] { return nil }
        guard !fields.isEmpty else { return nil }
        var calendar = ICalendar(item.text)
        VTodoMapping.write(fields, into: &calendar, now: now(), zone: zone)
        return SentWrite(request: .init(method: "PUT", url: url(item.href), ifMatch: item.etag, body: calendar.text))
    }

    /// Writes `change` (one task's fields that won here) into its item, or a new item; `sent`,
    /// its first request (`firstWrite`) already answered.
    func write(_ change: SyncChange, sent: SentWrite? = nil) throws(TaskServiceError) {
        let uuid = change.task
        var fields = change.fields
        let list = fields.removeValue(forKey: "list")?.text
        // Gone there and changed here: the change won (the store sends it whole), the item is
        // made again.
        guard !goneThere.contains(uuid), var item = current[uuid] ?? state?.items[uuid] else {
            try create(uuid, fields: change.fields, list: list ?? "Inbox", sent: sent)
            return
        }
        let names = Dictionary(serverCollections.map { ($0.href, $0.name) }, uniquingKeysWith: { first, _ in first })
        var base = CalDAVMemory.base(of: state?.items[uuid] ?? item, collectionName: names[item.collection], zone: zone)
        if let list, list != names[item.collection] {
            try move(&item, to: list, fields: fields)
        } else if !fields.isEmpty {
            try overwrite(&item, fields: &fields, base: base, change: change, sent: sent)
        }
        // The base takes what the item now says of each field written (a time to the second,
        // as iCalendar keeps it) or lost to the other client (this sync takes it here), and
        // keeps the rest: another client's change merged in by a 412 is then still a change
        // for the next sync to receive.
        let written = VTodoMapping.fields(of: ICalendar(item.text), zone: zone)
        let theirs = Set(lateConflicts.filter { $0.task == uuid && !$0.keptLocal }.map(\.field))
            .union(lateReceived.filter { $0.task == uuid }.flatMap(\.fields.keys))
        for field in Set(change.fields.keys).union(theirs) where fields[field] != nil || theirs.contains(field) { base[field] = written[field] ?? .null }
        if change.fields["list"] != nil { base["list"] = .text(Self.collectionName(item.collection, in: serverCollections)) }
        item.base = SyncFieldsJSON.encode(base)
        current[uuid] = item
        state?.items[uuid] = item
    }

    /// PUT of `item` with `fields` written in, `If-Match` its ETag. A 412 (another client wrote
    /// it since it was read) fetches it again and merges: a field that client changed too is
    /// decided by the later change, as a sync decides it everywhere; the rest of theirs stays
    /// in the item, for the next sync to receive.
    private func overwrite(_ item: inout CalDAVMemory.Item, fields: inout [String: SyncValue], base: [String: SyncValue], change: SyncChange,
                           sent: SentWrite?) throws(TaskServiceError) {
        var sent = sent
        for _ in 0..<Self.attempts {
            let text: String
            let response: CalDAVClient.Response
            if let first = sent {
                (text, response) = (first.request.body, first.response)
                sent = nil
            } else {
                var calendar = ICalendar(item.text)
                VTodoMapping.write(fields, into: &calendar, now: now(), zone: zone)
                text = calendar.text
                response = try client().send(.init(method: "PUT", url: url(item.href), ifMatch: item.etag, body: text))
            }
            if response.isSuccess {
                item.etag = response.etag
                item.text = text
                return
            }
            guard response.status == 412 else { try check(response, doing: "writing \(item.href)"); return }
            let fresh = try client().send(.init(method: "GET", url: url(item.href)))
            if fresh.status == 404 || fresh.status == 410 {
                // Deleted there meanwhile: the change made here wins, and the item is made
                // again whole — what it was (the base) with this change.
                var whole = base
                for (field, value) in fields { whole[field] = value }
                let list = whole.removeValue(forKey: "list")?.text ?? Self.collectionName(item.collection, in: serverCollections)
                try create(change.task, fields: whole, list: list)
                if let made = current[change.task] { item = made }
                lateConflicts.append(SyncMerge.Conflict(task: change.task, field: SyncField.deleted, kept: .integer(0), keptFrom: change.origin,
                                                        replaced: .integer(1), replacedFrom: host, keptLocal: true))
                fields = [:]
                return
            }
            try check(fresh, doing: "reading \(item.href) again")
            let theirs = ICalendar(fresh.body)
            let theirFields = VTodoMapping.fields(of: theirs, zone: zone)
            let theirClock = HybridClock.next(after: 0, wallMilliseconds: (VTodoMapping.modified(of: theirs) ?? now()).millisecondsSince1970)
            // A field they changed too, to another value: a conflict, decided by the later
            // change as everywhere. Theirs stays in the item and is taken here; ours is written.
            let keptLocal = !(theirClock > change.clock)
            for (field, ours) in fields {
                let their = theirFields[field] ?? .null
                guard their != base[field] ?? .null, their != ours else { continue }
                lateConflicts.removeAll { $0.task == change.task && $0.field == field }
                lateConflicts.append(SyncMerge.Conflict(task: change.task, field: field,
                                                        kept: keptLocal ? ours : their, keptFrom: keptLocal ? change.origin : host,
                                                        replaced: keptLocal ? their : ours, replacedFrom: keptLocal ? host : change.origin,
                                                        keptLocal: keptLocal))
                if !keptLocal { fields[field] = nil }
            }
            // What they changed that this change leaves alone: taken here with this sync.
            var others: [String: SyncValue] = [:]
            for (field, their) in theirFields where fields[field] == nil && change.fields[field] == nil && their != base[field] ?? .null {
                others[field] = their
            }
            if !others.isEmpty {
                lateReceived.removeAll { $0.task == change.task }
                lateReceived.append(SyncMerge.Incoming(task: change.task, fields: others))
            }
            item.text = fresh.body
            item.etag = fresh.etag
            if fields.isEmpty { return }
        }
        throw .remote(.failed("another client kept changing \(item.href) during the sync; run sync again"), remote: name)
    }

    /// A new item for a task made here, in the list's collection: the next occurrence of a
    /// series made from the item of one before it (`VTodoMapping.nextItem`), else a new one.
    private func create(_ uuid: String, fields: [String: SyncValue], list: String, sent: SentWrite? = nil) throws(TaskServiceError) {
        let collection: CalDAVMemory.Collection
        let calendar: ICalendar
        let response: CalDAVClient.Response
        if let sent, let made = sent.made {
            (collection, calendar, response) = (made.collection, made.calendar, sent.response)
        } else {
            (collection, calendar) = try newItem(uuid, fields: fields, list: list)
            response = try client().send(.init(method: "PUT", url: url(collection.href + uuid + ".ics"), ifNoneMatch: "*", body: calendar.text))
        }
        let href = collection.href + uuid + ".ics"
        if response.status == 412 {
            throw .remote(.failed("\(href) was made by another client during the sync; run sync again"), remote: name)
        }
        try check(response, doing: "writing \(href)")
        var base = VTodoMapping.fields(of: calendar, zone: zone)
        base["list"] = .text(collection.name)
        let item = CalDAVMemory.Item(uuid: uuid, href: href, etag: response.etag, collection: collection.href, text: calendar.text,
                                     base: SyncFieldsJSON.encode(base))
        current[uuid] = item
        state?.items[uuid] = item
    }

    /// The new item `create` writes: in the list's collection (made if there is none).
    private func newItem(_ uuid: String, fields: [String: SyncValue], list: String) throws(TaskServiceError) -> (collection: CalDAVMemory.Collection, calendar: ICalendar) {
        let collection = try collection(for: list)
        let template = seriesItem(of: fields).map { ICalendar($0.text) }
        var calendar = template.map { VTodoMapping.nextItem(from: $0, uuid: uuid, now: now()) } ?? VTodoMapping.newItem(uuid: uuid, now: now())
        var written = fields
        written["list"] = nil
        VTodoMapping.write(written, into: &calendar, now: now(), zone: zone)
        return (collection, calendar)
    }

    /// An item of the series `fields` name (another occurrence of the same repeating task): the
    /// series' first, whose UID the series is, else one that says it belongs to it.
    private func seriesItem(of fields: [String: SyncValue]) -> CalDAVMemory.Item? {
        guard let series = fields["series"]?.text, !series.isEmpty else { return nil }
        if let first = current[series] ?? state?.items[series] { return first }
        let marker = "X-TASKS-SERIES:" + ICalendar.escape(series)
        return current.values.sorted { $0.uuid < $1.uuid }.first { $0.text.contains(marker) && VTodoMapping.isOfSeries(ICalendar($0.text), series) }
    }

    /// Moves `item` into the list's collection: the item (with `fields`) written there, then
    /// the old one deleted.
    private func move(_ item: inout CalDAVMemory.Item, to list: String, fields: [String: SyncValue]) throws(TaskServiceError) {
        let target = try collection(for: list)
        var calendar = ICalendar(item.text)
        VTodoMapping.write(fields, into: &calendar, now: now(), zone: zone)
        let file = item.href.split(separator: "/").last.map(String.init) ?? (item.uuid + ".ics")
        let href = target.href + file
        let response = try client().send(.init(method: "PUT", url: url(href), ifNoneMatch: "*", body: calendar.text))
        if response.status != 412 { try check(response, doing: "writing \(href)") }
        let removed = try client().send(.init(method: "DELETE", url: url(item.href)))
        if removed.status != 404 && removed.status != 410 { try check(removed, doing: "deleting \(item.href)") }
        item = CalDAVMemory.Item(uuid: item.uuid, href: href, etag: response.etag, collection: target.href, text: calendar.text, base: item.base)
    }

    /// Deletes the task's item — unless another client changed it meanwhile (a 412): its edit
    /// wins, the item stays, and the task comes back here with what the item says.
    func delete(_ uuid: String, origin: String, sent: SentWrite? = nil) throws(TaskServiceError) {
        guard let item = current[uuid] ?? state?.items[uuid] else { return }
        let response: CalDAVClient.Response
        if let sent { response = sent.response } else { response = try client().send(.init(method: "DELETE", url: url(item.href), ifMatch: item.etag)) }
        if response.status == 412 {
            let fresh = try client().send(.init(method: "GET", url: url(item.href)))
            if fresh.status != 404 && fresh.status != 410 {
                try check(fresh, doing: "reading \(item.href) again")
                var fields = VTodoMapping.fields(of: ICalendar(fresh.body), zone: zone)
                fields["list"] = .text(Self.collectionName(item.collection, in: serverCollections))
                var back = SyncMerge.Incoming(task: uuid, fields: fields)
                back.restores = true
                lateReceived.append(back)
                lateConflicts.append(SyncMerge.Conflict(task: uuid, field: SyncField.deleted, kept: .integer(0), keptFrom: host,
                                                        replaced: .integer(1), replacedFrom: origin, keptLocal: false))
                let kept = CalDAVMemory.Item(uuid: uuid, href: item.href, etag: fresh.etag, collection: item.collection, text: fresh.body, base: nil)
                current[uuid] = kept
                state?.items[uuid] = kept
                return
            }
        } else if response.status != 404 && response.status != 410 {
            try check(response, doing: "deleting \(item.href)")
        }
        current[uuid] = nil
        state?.items[uuid] = nil
    }

    static func collectionName(_ href: String, in collections: [CalDAVMemory.Collection]) -> String {
        collections.first { $0.href == href }?.name ?? "Inbox"
    }

    /// The collection that holds the list `name`, made when there is none.
    func collection(for name: String) throws(TaskServiceError) -> CalDAVMemory.Collection {
        if let found = serverCollections.first(where: { $0.name == name }) { return found }
        guard let home = state?.home else { throw .remote(.failed("no calendar home"), remote: self.name) }
        let made = try makeCollection(named: name, home: home)
        serverCollections.append(made)
        state?.collections.append(made)
        return made
    }
}
