import TaskModel

/// The WebDAV and CalDAV requests a sync makes, and their answers read.
extension CalDAVRemote {
    struct Listed {
        var href: String
        var etag: String
        var text: String?
    }

    /// Finds the calendar home from the address: the address itself when it is one, else its
    /// principal's (RFC 6764's `/.well-known/caldav` is where a server's root redirects).
    func discoverHome() throws(TaskServiceError) -> String {
        let body = """
            <?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
            <d:prop><d:current-user-principal/><c:calendar-home-set/><d:resourcetype/></d:prop></d:propfind>
            """
        var href = path
        for _ in 0..<3 {
            let response = try client().send(.init(method: "PROPFIND", url: url(href), depth: "0", body: body))
            try check(response, doing: "finding the calendars at \(href)")
            let answers = try multistatus(response.body)
            guard let props = answers.first?.props else { break }
            if let home = props.child(DAV.caldav + "calendar-home-set")?.child(DAV.dav + "href")?.text {
                let found = try resolved(home, naming: "its calendar home")
                return found.hasSuffix("/") ? found : found + "/"
            }
            if props.child(DAV.dav + "resourcetype")?.child(DAV.caldav + "calendar") != nil {
                // The address is a calendar: its parent is the home.
                var parent = href.hasSuffix("/") ? String(href.dropLast()) : href
                if let slash = parent.lastIndex(of: "/") { parent = String(parent[...slash]) }
                return parent
            }
            guard let principal = props.child(DAV.dav + "current-user-principal")?.child(DAV.dav + "href")?.text else { break }
            let next = try resolved(principal, naming: "your principal")
            guard next != href else { break }
            href = next
        }
        // No principal and no home set: take the address as the home.
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// The collections in the home that hold tasks.
    func listCollections(home: String) throws(TaskServiceError) -> [CalDAVMemory.Collection]? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" \
            xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><d:displayname/><cs:getctag/><d:sync-token/>\
            <c:supported-calendar-component-set/></d:prop></d:propfind>
            """
        let response = try client().send(.init(method: "PROPFIND", url: url(home), depth: "1", body: body))
        if response.status == 404 { return nil }
        try check(response, doing: "listing the calendars in \(home)")
        var collections: [CalDAVMemory.Collection] = []
        for answer in try multistatus(response.body) where answer.href.hasPrefix(home) {
            guard let props = answer.props, props.child(DAV.dav + "resourcetype")?.child(DAV.caldav + "calendar") != nil else { continue }
            if let set = props.child(DAV.caldav + "supported-calendar-component-set"), !set.children.isEmpty,
               !set.all(DAV.caldav + "comp").contains(where: { $0.attributeName?.uppercased() == "VTODO" }) { continue }
            var name = props.child(DAV.dav + "displayname")?.text.trimmingWhitespace ?? ""
            if name.isEmpty { name = Self.lastPart(of: answer.href) }
            let token = props.child(DAV.dav + "sync-token")?.text.trimmingWhitespace ?? ""
            let ctag = props.child(DAV.calendarServer + "getctag")?.text ?? token
            collections.append(.init(href: answer.href, name: name, ctag: ctag, token: token))
        }
        return collections
    }

    /// Each item in `collection` and its ETag.
    func listItems(in collection: String) throws(TaskServiceError) -> [Listed] {
        let body = #"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>"#
        let response = try client().send(.init(method: "PROPFIND", url: url(collection), depth: "1", body: body))
        try check(response, doing: "listing \(collection)")
        return try multistatus(response.body).compactMap { answer in
            guard answer.href != collection, inHome(answer.href), let props = answer.props, props.child(DAV.dav + "resourcetype")?.children.isEmpty ?? true,
                  let etag = props.child(DAV.dav + "getetag")?.text else { return nil }
            return Listed(href: answer.href, etag: etag)
        }
    }

    /// The items `hrefs` of `collection`, with their ETags and texts (calendar-multiget,
    /// a few hundred per request). An href the server left out of its answer, or answered
    /// without its text (a 404, or its data in a failed propstat), is not among them: the
    /// caller decides what that means (never a delete).
    func fetch(_ hrefs: [String], in collection: String) throws(TaskServiceError) -> [Listed] {
        var requests: [CalDAVClient.Request] = []
        var start = 0
        while start < hrefs.count {
            let batch = hrefs[start..<min(start + 250, hrefs.count)]
            start += batch.count
            let body = """
                <?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
                <d:prop><d:getetag/><c:calendar-data/></d:prop>
                """ + batch.map { "<d:href>\(DAVXML.escape($0))</d:href>" }.joined() + "</c:calendar-multiget>"
            requests.append(.init(method: "REPORT", url: url(collection), depth: "1", body: body))
        }
        var items: [Listed] = []
        try client().send(requests) { (response: CalDAVClient.Response) throws(TaskServiceError) in
            try check(response, doing: "fetching the items of \(collection)")
            for answer in try multistatus(response.body) where inHome(answer.href) {
                guard let props = answer.props, let etag = props.child(DAV.dav + "getetag")?.text,
                      let data = props.child(DAV.caldav + "calendar-data") else { continue }
                items.append(Listed(href: answer.href, etag: etag, text: data.allText))
            }
        }
        return items
    }

    /// The remembered `items` a listing left out, each asked for itself (`GET`): those that
    /// answer 404 or 410 are gone (not returned); those that answer with their text and ETag
    /// are `found`; any other answer leaves them `unsure` — kept, never deleted on a guess.
    func confirm(_ items: [CalDAVMemory.Item]) throws(TaskServiceError) -> (found: [Listed], unsure: [CalDAVMemory.Item]) {
        if items.isEmpty { return ([], []) }
        var found: [Listed] = []
        var unsure: [CalDAVMemory.Item] = []
        for (item, response) in zip(items, try client().send(items.map { .init(method: "GET", url: url($0.href)) })) {
            if response.status == 404 || response.status == 410 { continue }
            if response.isSuccess && !response.etag.isEmpty {
                found.append(Listed(href: item.href, etag: response.etag, text: response.body))
            } else {
                unsure.append(item)
            }
        }
        return (found, unsure)
    }

    /// The items of `collection` and their ETags: from what is remembered and what changed
    /// since the remembered sync token (RFC 6578's `sync-collection`, one request however
    /// large the calendar), else a listing of every item (a server without tokens, or one that
    /// no longer honours the token). `removed`: the items the server said are gone (a 404 in
    /// the `sync-collection` answer); an item merely absent from a listing is not among them.
    func listing(of collection: CalDAVMemory.Collection, remembered: CalDAVMemory.Collection?,
                 known: [String: String]) throws(TaskServiceError) -> (listed: [Listed], removed: Set<String>) {
        guard let remembered, !remembered.token.isEmpty, !collection.token.isEmpty else { return (try listItems(in: collection.href), []) }
        let body = """
            <?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>\(DAVXML.escape(remembered.token))</d:sync-token>\
            <d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>
            """
        let response = try client().send(.init(method: "REPORT", url: url(collection.href), body: body))
        guard response.isSuccess else { return (try listItems(in: collection.href), []) }
        var etags = known
        var removed: Set<String> = []
        for answer in try multistatus(response.body) where answer.href != collection.href && inHome(answer.href) {
            if answer.status?.contains(" 404") == true {
                etags[answer.href] = nil
                removed.insert(answer.href)
            } else {
                etags[answer.href] = answer.props?.child(DAV.dav + "getetag")?.text ?? ""
            }
        }
        return (etags.map { Listed(href: $0.key, etag: $0.value) }, removed)
    }

    /// Every task in `collection`, with its ETag and text, in one request (calendar-query):
    /// what a collection nothing is remembered of costs, instead of a listing and fetches.
    /// `complete` is false when an answer came without its text.
    func fetchAllTasks(in collection: String) throws(TaskServiceError) -> (items: [Listed], complete: Bool) {
        let body = """
            <?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">\
            <d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/>\
            </c:comp-filter></c:filter></c:calendar-query>
            """
        let response = try client().send(.init(method: "REPORT", url: url(collection), depth: "1", body: body))
        try check(response, doing: "fetching the tasks of \(collection)")
        let answers = try multistatus(response.body).filter { inHome($0.href) && $0.href != collection }
        let items = answers.compactMap { answer -> Listed? in
            guard let props = answer.props, let etag = props.child(DAV.dav + "getetag")?.text,
                  let data = props.child(DAV.caldav + "calendar-data") else { return nil }
            return Listed(href: answer.href, etag: etag, text: data.allText)
        }
        return (items, items.count == answers.count)
    }

    /// Makes the collection for the list `name` in the home (MKCALENDAR, for tasks only).
    func makeCollection(named name: String, home: String) throws(TaskServiceError) -> CalDAVMemory.Collection {
        let slug = UUIDText.derived(from: "caldav list \(name)")
        let href = home + slug + "/"
        let body = """
            <?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>\
            <d:displayname>\(DAVXML.escape(name))</d:displayname><c:supported-calendar-component-set><c:comp name="VTODO"/>\
            </c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>
            """
        let response = try client().send(.init(method: "MKCALENDAR", url: url(href), body: body))
        // 405: it is there already (an earlier sync that failed before it was remembered).
        if response.status != 405 { try check(response, doing: "making the calendar for the list \(name)") }
        return .init(href: href, name: name, ctag: "")
    }

    /// One `response` of a multistatus: its path and its properties found (status 200).
    struct Answer {
        var href: String
        var props: DAVElement?
        /// The response's own status, when it has one instead of properties (a 404 for an
        /// item removed, in a sync-collection answer).
        var status: String?
    }

    func multistatus(_ body: String) throws(TaskServiceError) -> [Answer] {
        let root: DAVElement
        do {
            root = try DAVXML.parse(body)
        } catch {
            throw .remote(.failed("the server's answer is not readable XML (\(error.description))"), remote: name)
        }
        // An answer whose href leaves the server (another host, a user, `..` above the root)
        // is dropped: nothing is ever sent there.
        return root.all(DAV.dav + "response").compactMap { response in
            guard let written = response.child(DAV.dav + "href")?.text, let href = CalDAVHref.path(written, origin: origin) else { return nil }
            let found = response.all(DAV.dav + "propstat").first { $0.child(DAV.dav + "status")?.text.contains(" 200") ?? true }
            return Answer(href: href, props: found?.child(DAV.dav + "prop"), status: response.child(DAV.dav + "status")?.text)
        }
    }

    /// `href` (the server's name for its principal or home) as a path on this remote's
    /// origin; one that leaves it stops the sync before anything is sent there.
    func resolved(_ href: String, naming what: String) throws(TaskServiceError) -> String {
        guard let path = CalDAVHref.path(href, origin: origin) else {
            throw .remote(.failed("the server named \(what) outside \(origin); nothing was sent there"), remote: name)
        }
        return path
    }

    /// Whether `href` lies in the calendar home: items and collections are used only there.
    func inHome(_ href: String) -> Bool {
        guard let home = state?.home else { return false }
        return href.hasPrefix(home)
    }

    /// Throws the failure an unsuccessful answer stands for.
    func check(_ response: CalDAVClient.Response, doing what: String) throws(TaskServiceError) {
        if response.isSuccess { return }
        switch response.status {
        case 401: throw .remote(.loginRefused("HTTP 401 while \(what)"), remote: name)
        case 403: throw .remote(.permissionDenied("HTTP 403 while \(what)"), remote: name)
        case 404: throw .remote(.noSuchDatabase("HTTP 404 while \(what)"), remote: name)
        case 300..<400:
            // Never followed for a write, nor to another origin: what was asked did not happen.
            throw .remote(.failed("HTTP \(response.status), a redirect tasks does not follow, while \(what)"), remote: name)
        default: throw .remote(.failed("HTTP \(response.status) while \(what)"), remote: name)
        }
    }

    /// The last part of a path, without slashes or percent-escapes: a collection's name when
    /// it has none.
    static func lastPart(of href: String) -> String {
        let part = href.split(separator: "/").last.map(String.init) ?? href
        return part.removingPercentEscapes
    }
}

extension DAVElement {
    /// The `name` attribute (of a `comp` element).
    var attributeName: String? { attributes["name"] }
}

extension String {
    var removingPercentEscapes: String {
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
