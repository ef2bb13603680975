@testable import TaskRemote
import Testing

/// What a server's href may name: a path on the remote's own origin, inside it (issue 50).
@Suite("CalDAV hrefs from a server") struct CalDAVHrefTests {
    let origin = "http://127.0.0.1:5232"

    @Test func pathsOnTheSameOriginAreKeptAsPaths() {
        #expect(CalDAVHref.path("/alice/tasks/a.ics", origin: origin) == "/alice/tasks/a.ics")
        #expect(CalDAVHref.path(" /alice/tasks/ ", origin: origin) == "/alice/tasks/")
        #expect(CalDAVHref.path("http://127.0.0.1:5232/alice/x.ics", origin: origin) == "/alice/x.ics")
        #expect(CalDAVHref.path("HTTP://127.0.0.1:5232", origin: origin) == "/")
        #expect(CalDAVHref.path("https://cloud.example.com/dav/", origin: "https://cloud.example.com:443") == "/dav/")
        #expect(CalDAVHref.path("https://cloud.example.com:443/dav/", origin: "https://cloud.example.com") == "/dav/")
        // An @ inside a path is a path (Nextcloud and SOGo name principals by e-mail address).
        #expect(CalDAVHref.path("/dav/calendars/me@example.com/tasks/", origin: origin) == "/dav/calendars/me@example.com/tasks/")
        #expect(CalDAVHref.path("/alice/./tasks/../tasks/a.ics", origin: origin) == "/alice/tasks/a.ics")
        #expect(CalDAVHref.path("/alice/tasks/a.ics#part", origin: origin) == "/alice/tasks/a.ics")
    }

    @Test func hrefsThatLeaveTheServerAreRefused() {
        for href in ["@evil.example/alice/a.ics", "@127.0.0.1:9/alice/a.ics", "//evil.example/a.ics", "alice/a.ics",
                     "http://evil.example/alice/a.ics", "http://127.0.0.1:5233/alice/a.ics", "https://127.0.0.1:5232/alice/a.ics",
                     "http://alice:pw@127.0.0.1:5232/alice/a.ics", "http://127.0.0.1:5232@evil.example/a.ics",
                     "/alice/../../etc/passwd", "/%2e%2e/secret", "/alice/%2E%2e/%2e%2E/x", "/a\\b", "/a\u{1B}[2J", "/a\nb", ""] {
            #expect(CalDAVHref.path(href, origin: origin) == nil, "\(href)")
        }
    }
}

@Suite("WebDAV XML from a server") struct DAVXMLBoundsTests {
    @Test func nestingBeyondTheBoundIsRefusedNotRecursedInto() throws {
        func nested(_ depth: Int) -> String { String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth) }
        #expect(throws: DAVXMLError.self) { try DAVXML.parse(nested(100_000)) }
        #expect(throws: DAVXMLError(description: "elements nested more than 256 deep")) { try DAVXML.parse(nested(DAVXML.maximumDepth + 1)) }
        let deepest = try DAVXML.parse(nested(DAVXML.maximumDepth))
        #expect(deepest.name == "x")
    }
}
