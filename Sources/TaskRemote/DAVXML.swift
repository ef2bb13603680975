/// The XML of WebDAV answers (`multistatus`), read into a tree of elements whose names carry
/// their namespace: `DAV:href`, `urn:ietf:params:xml:ns:caldav:calendar-data`.
///
/// Our own, small reader rather than FoundationXML: `TaskRemote` is linked into the static
/// `tasks`, and FoundationXML would bring libxml2 and Foundation into it for the few element
/// kinds a CalDAV answer holds (docs/architecture.md, "CalDAV"). It reads what servers send —
/// namespaces by prefix and by default, attributes, entities and character references, CDATA,
/// comments, processing instructions, a doctype — and refuses what is not well-formed.
public struct DAVElement: Equatable, Sendable {
    /// The namespace and the local name joined: `DAV:response`.
    public var name: String
    public var children: [DAVElement] = []
    /// The text directly inside, entities resolved.
    public var text: String = ""
    /// Its attributes by name as written (`name` of `<c:comp name="VTODO"/>`), namespace
    /// declarations left out.
    public var attributes: [String: String] = [:]

    public init(name: String, children: [DAVElement] = [], text: String = "") {
        self.name = name
        self.children = children
        self.text = text
    }

    /// The first child named `name`.
    public func child(_ name: String) -> DAVElement? { children.first { $0.name == name } }

    /// The children named `name`.
    public func all(_ name: String) -> [DAVElement] { children.filter { $0.name == name } }

    /// The first element named `name` at any depth below (this one excluded).
    public func find(_ name: String) -> DAVElement? {
        for child in children {
            if child.name == name { return child }
            if let found = child.find(name) { return found }
        }
        return nil
    }

    /// The text of this element and everything below it, in order.
    public var allText: String { text + children.map(\.allText).joined() }
}

public enum DAV {
    public static let dav = "DAV:"
    public static let caldav = "urn:ietf:params:xml:ns:caldav"
    public static let calendarServer = "http://calendarserver.org/ns/"
    public static let apple = "http://apple.com/ns/ical/"
}

public struct DAVXMLError: Error, Equatable, CustomStringConvertible {
    public var description: String
}

public enum DAVXML {
    /// The deepest nesting read: a real answer is about eight deep; a document deeper than this
    /// is refused rather than read (every level is a frame of the reader and of the tree's
    /// teardown, and 100,000 of them overflow the stack).
    public static let maximumDepth = 256

    /// The document's root element.
    public static func parse(_ text: String) throws(DAVXMLError) -> DAVElement {
        var reader = Reader(bytes: Array(text.utf8))
        return try reader.document()
    }

    /// `text` with `&`, `<`, `>` and `"` written as entities, for an XML body we send.
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func document() throws(DAVXMLError) -> DAVElement {
            while true {
                skipSpace()
                guard index < bytes.count else { throw DAVXMLError(description: "no element in the answer") }
                if starts("<?") { try skip(past: "?>") } else if starts("<!--") { try skip(past: "-->") } else if starts("<!") { try skip(past: ">") } else { break }
            }
            guard starts("<") else { throw DAVXMLError(description: "text before the first element") }
            return try element(namespaces: ["xml": "http://www.w3.org/XML/1998/namespace"], depth: 1)
        }

        /// An element starting at `<`, with the namespaces in scope around it, `depth` levels
        /// down from the root (the root is 1).
        mutating func element(namespaces outer: [String: String], depth: Int) throws(DAVXMLError) -> DAVElement {
            guard depth <= DAVXML.maximumDepth else {
                throw DAVXMLError(description: "elements nested more than \(DAVXML.maximumDepth) deep")
            }
            index += 1
            let qualified = name()
            guard !qualified.isEmpty else { throw DAVXMLError(description: "an element without a name") }
            var namespaces = outer
            var attributes: [String: String] = [:]
            var selfClosing = false
            while true {
                skipSpace()
                guard index < bytes.count else { throw DAVXMLError(description: "the answer ends inside <\(qualified)>") }
                if bytes[index] == UInt8(ascii: ">") { index += 1; break }
                if starts("/>") { index += 2; selfClosing = true; break }
                let attribute = name()
                skipSpace()
                guard !attribute.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw DAVXMLError(description: "a broken attribute in <\(qualified)>") }
                index += 1
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { throw DAVXMLError(description: "an unquoted attribute in <\(qualified)>") }
                let quote = bytes[index]
                index += 1
                let start = index
                while index < bytes.count && bytes[index] != quote { index += 1 }
                guard index < bytes.count else { throw DAVXMLError(description: "an unclosed attribute in <\(qualified)>") }
                let value = try resolve(bytes[start..<index])
                index += 1
                if attribute == "xmlns" {
                    namespaces[""] = value
                } else if attribute.hasPrefix("xmlns:") {
                    namespaces[String(attribute.dropFirst(6))] = value
                } else {
                    attributes[attribute] = value
                }
            }
            var result = DAVElement(name: try resolved(qualified, namespaces))
            result.attributes = attributes
            if selfClosing { return result }
            var textStart = index
            while true {
                guard index < bytes.count else { throw DAVXMLError(description: "<\(qualified)> is never closed") }
                if bytes[index] != UInt8(ascii: "<") { index += 1; continue }
                result.text += try resolve(bytes[textStart..<index])
                if starts("</") {
                    index += 2
                    let closing = name()
                    skipSpace()
                    guard closing == qualified, index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                        throw DAVXMLError(description: "<\(qualified)> closed by </\(closing)>")
                    }
                    index += 1
                    return result
                } else if starts("<![CDATA[") {
                    index += 9
                    let start = index
                    try skip(past: "]]>")
                    // Kept as it is: an entity inside CDATA is text.
                    result.text += String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
                } else if starts("<!--") {
                    try skip(past: "-->")
                } else if starts("<?") {
                    try skip(past: "?>")
                } else {
                    result.children.append(try element(namespaces: namespaces, depth: depth + 1))
                }
                textStart = index
            }
        }

        func resolved(_ qualified: String, _ namespaces: [String: String]) throws(DAVXMLError) -> String {
            if let colon = qualified.firstIndex(of: ":") {
                let prefix = String(qualified[..<colon])
                guard let namespace = namespaces[prefix] else { throw DAVXMLError(description: "the prefix \(prefix) is not declared") }
                return namespace + qualified[qualified.index(after: colon)...]
            }
            return (namespaces[""] ?? "") + qualified
        }

        mutating func name() -> String {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") { break }
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        }

        func starts(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return text.withUTF8Buffer { prefix in
                for offset in 0..<count where bytes[index + offset] != prefix[offset] { return false }
                return true
            }
        }

        mutating func skip(past end: StaticString) throws(DAVXMLError) {
            while index < bytes.count {
                if starts(end) { index += end.utf8CodeUnitCount; return }
                index += 1
            }
            throw DAVXMLError(description: "the answer ends inside a comment or declaration")
        }

        /// Text with its entities and character references resolved.
        func resolve(_ raw: ArraySlice<UInt8>) throws(DAVXMLError) -> String {
            guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
            var result = ""
            var position = raw.startIndex
            while position < raw.endIndex {
                guard let ampersand = raw[position...].firstIndex(of: UInt8(ascii: "&")) else {
                    result += String(decoding: raw[position...], as: UTF8.self)
                    break
                }
                result += String(decoding: raw[position..<ampersand], as: UTF8.self)
                guard let semicolon = raw[ampersand...].firstIndex(of: UInt8(ascii: ";")), semicolon - ampersand <= 10 else {
                    throw DAVXMLError(description: "an unfinished entity")
                }
                let entity = String(decoding: raw[(ampersand + 1)..<semicolon], as: UTF8.self)
                switch entity {
                case "amp": result += "&"
                case "lt": result += "<"
                case "gt": result += ">"
                case "quot": result += "\""
                case "apos": result += "'"
                default:
                    let scalar: UInt32?
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") { scalar = UInt32(entity.dropFirst(2), radix: 16) } else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst()) } else { scalar = nil }
                    guard let scalar, let character = Unicode.Scalar(scalar) else { throw DAVXMLError(description: "an unknown entity &\(entity);") }
                    result.unicodeScalars.append(character)
                }
                position = semicolon + 1
            }
            return result
        }
    }
}
