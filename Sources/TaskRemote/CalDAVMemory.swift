import SyncWire
import TaskInterchange
import TaskModel

/// What a CalDAV remote keeps in the local file between syncs (the `sync_memory` table): the
/// calendar home, each collection with its ctag, and each item as the server last held it —
/// its resource, ETag and text. The text is what a change is patched into (so another
/// client's lines go back as they were), and its fields are the base both sides are compared
/// with. Written with the sync's apply, in its transaction: a sync that fails leaves the
/// memory of the last one that did not.
struct CalDAVMemory: Equatable {
    struct Collection: Equatable {
        /// Its path on the server, ending in `/`.
        var href: String
        /// The list it is: its display name, else the last part of its path.
        var name: String
        /// `getctag` (or the sync token): when unchanged, no item in it changed.
        var ctag: String
        /// The sync token (RFC 6578), when the server offers one: what changed since is asked
        /// with `sync-collection` instead of listing every item.
        var token = ""
    }

    struct Item: Equatable {
        var uuid: String
        var href: String
        var etag: String
        /// The collection's path.
        var collection: String
        /// The item as the server holds it (after our last write, or as last fetched).
        var text: String
        /// The base, when it is not what `text` reads as: a write that had to merge with
        /// another client's change (a 412) keeps the other's fields here unseen, so that the
        /// next sync receives them. JSON, as a change's fields travel.
        var base: String?
    }

    var home: String?
    var collections: [Collection] = []
    var items: [String: Item] = [:]
    /// What else the collections hold (events, journals), by path, with their ETags: not
    /// fetched again while unchanged.
    var others: [String: String] = [:]

    init() {}

    /// What `text` (from `encoded`) says; a line it cannot read is skipped (the items it
    /// named are fetched again).
    init(_ text: String) {
        for line in text.split(separator: "\n") {
            let fields = WireLine.decode(String(line))
            switch (fields.first, fields.count) {
            case ("home", 2): home = fields[1]
            case ("other", 3): others[fields[1]] = fields[2]
            case ("collection", 4), ("collection", 5):
                collections.append(Collection(href: fields[1], name: fields[2], ctag: fields[3], token: fields.count == 5 ? fields[4] : ""))
            case ("item", 6), ("item", 7):
                items[fields[1]] = Item(uuid: fields[1], href: fields[2], etag: fields[3], collection: fields[4], text: fields[5],
                                        base: fields.count == 7 && !fields[6].isEmpty ? fields[6] : nil)
            default: continue
            }
        }
    }

    /// The memory as a text of lines.
    var encoded: String {
        var lines: [String] = []
        if let home { lines.append(WireLine.encode(["home", home])) }
        for collection in collections { lines.append(WireLine.encode(["collection", collection.href, collection.name, collection.ctag, collection.token])) }
        for href in others.keys.sorted() { lines.append(WireLine.encode(["other", href, others[href] ?? ""])) }
        for uuid in items.keys.sorted() {
            guard let item = items[uuid] else { continue }
            lines.append(WireLine.encode(["item", item.uuid, item.href, item.etag, item.collection, item.text, item.base ?? ""]))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The base fields of `item`: what both sides last agreed on.
    static func base(of item: Item, collectionName: String?, zone: LocalTime) -> [String: SyncValue] {
        if let base = item.base, let fields = try? SyncFieldsJSON.decode(base) { return fields }
        var fields = VTodoMapping.fields(of: ICalendar(item.text), zone: zone)
        if let collectionName { fields["list"] = .text(collectionName) }
        return fields
    }
}
