import TaskInterchange
import TaskModel

/// A sync's writes to the server: each conditional on what it read (`If-Match` the ETag, or
/// `If-None-Match: *` for a new item), each changing only the properties of the fields sent.
extension CalDAVRemote {
    /// How many times a write is tried against an item another client keeps changing.
    static let attempts = 3

    /// Writes `change` (one task's fields that won here) into its item, or a new item.
    func write(_ change: SyncChange) throws(TaskServiceError) {
        let uuid = change.task
        var fields = change.fields
        let list = fields.removeValue(forKey: "list")?.text
        guard var item = current[uuid] ?? state?.items[uuid] else {
            try create(uuid, fields: change.fields, list: list ?? "Inbox")
            return
        }
        let names = Dictionary(serverCollections.map { ($0.href, $0.name) }, uniquingKeysWith: { first, _ in first })
        var base = CalDAVMemory.base(of: state?.items[uuid] ?? item, collectionName: names[item.collection], zone: zone)
        if let list, list != names[item.collection] {
            try move(&item, to: list, fields: fields)
        } else if !fields.isEmpty {
            try overwrite(&item, fields: &fields, base: base, change: change)
        }
        // The base takes what the item now says of each field written (a time to the second,
        // as iCalendar keeps it) or lost to the other client (this sync takes it here), and
        // keeps the rest: another client's change merged in by a 412 is then still a change
        // for the next sync to receive.
        let written = VTodoMapping.fields(of: ICalendar(item.text), zone: zone)
        let theirs = Set(lateConflicts.filter { $0.task == uuid && !$0.keptLocal }.map(\.field))
        for field in change.fields.keys where fields[field] != nil || theirs.contains(field) { base[field] = written[field] ?? .null }
        if change.fields["list"] != nil { base["list"] = .text(Self.collectionName(item.collection, in: serverCollections)) }
        item.base = SyncFieldsJSON.encode(base)
        current[uuid] = item
        state?.items[uuid] = item
    }

    /// PUT of `item` with `fields` written in, `If-Match` its ETag. A 412 (another client wrote
    /// it since it was read) fetches it again and merges: a field that client changed too is
    /// decided by the later change, as a sync decides it everywhere; the rest of theirs stays
    /// in the item, for the next sync to receive.
    private func overwrite(_ item: inout CalDAVMemory.Item, fields: inout [String: SyncValue], base: [String: SyncValue], change: SyncChange) throws(TaskServiceError) {
        for _ in 0..<Self.attempts {
            var calendar = ICalendar(item.text)
            VTodoMapping.write(fields, into: &calendar, now: now())
            let response = try client().send(.init(method: "PUT", url: url(item.href), ifMatch: item.etag, body: calendar.text))
            if response.isSuccess {
                item.etag = response.etag
                item.text = calendar.text
                return
            }
            guard response.status == 412 else { try check(response, doing: "writing \(item.href)"); return }
            let fresh = try client().send(.init(method: "GET", url: url(item.href)))
            if fresh.status == 404 || fresh.status == 410 {
                // Deleted there meanwhile: the delete wins; the next sync receives it.
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
            item.text = fresh.body
            item.etag = fresh.etag
            if fields.isEmpty { return }
        }
        throw .remote(.failed("another client kept changing \(item.href) during the sync; run sync again"), remote: name)
    }

    /// A new item for a task made here, in the list's collection.
    private func create(_ uuid: String, fields: [String: SyncValue], list: String) throws(TaskServiceError) {
        let collection = try collection(for: list)
        var calendar = VTodoMapping.newItem(uuid: uuid, now: now())
        var written = fields
        written["list"] = nil
        VTodoMapping.write(written, into: &calendar, now: now())
        let href = collection.href + uuid + ".ics"
        let response = try client().send(.init(method: "PUT", url: url(href), ifNoneMatch: "*", body: calendar.text))
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

    /// Moves `item` into the list's collection: the item (with `fields`) written there, then
    /// the old one deleted.
    private func move(_ item: inout CalDAVMemory.Item, to list: String, fields: [String: SyncValue]) throws(TaskServiceError) {
        let target = try collection(for: list)
        var calendar = ICalendar(item.text)
        VTodoMapping.write(fields, into: &calendar, now: now())
        let file = item.href.split(separator: "/").last.map(String.init) ?? (item.uuid + ".ics")
        let href = target.href + file
        let response = try client().send(.init(method: "PUT", url: url(href), ifNoneMatch: "*", body: calendar.text))
        if response.status != 412 { try check(response, doing: "writing \(href)") }
        let removed = try client().send(.init(method: "DELETE", url: url(item.href)))
        if removed.status != 404 && removed.status != 410 { try check(removed, doing: "deleting \(item.href)") }
        item = CalDAVMemory.Item(uuid: item.uuid, href: href, etag: response.etag, collection: target.href, text: calendar.text, base: item.base)
    }

    /// Deletes the task's item. A delete wins over another client's change made meanwhile
    /// (as it does between machines), so a 412 deletes what is there now.
    func delete(_ uuid: String) throws(TaskServiceError) {
        guard let item = current[uuid] ?? state?.items[uuid] else { return }
        var response = try client().send(.init(method: "DELETE", url: url(item.href), ifMatch: item.etag))
        if response.status == 412 { response = try client().send(.init(method: "DELETE", url: url(item.href))) }
        if response.status != 404 && response.status != 410 { try check(response, doing: "deleting \(item.href)") }
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
