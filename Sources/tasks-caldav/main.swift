#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl
import SyncWire
import TextFormats

// `tasks-caldav`: the helper `tasks sync` runs to talk HTTP to a CalDAV server, as
// `tasks-postgres` talks to PostgreSQL. It alone links libcurl (and through it OpenSSL), so
// `tasks` stays one static executable. It knows nothing of CalDAV: it runs the requests it is
// given on one libcurl handle (one kept-alive connection) and answers each, in the lines of
// `SyncWire`:
//
//     tasks → helper                                       helper → tasks
//     auth USER PASSWORD CA                                (nothing)
//     deadline MILLISECONDS SECONDS                        (nothing)
//     request ID METHOD URL DEPTH IF-MATCH IF-NONE-MATCH BODY
//                                                          response ID STATUS ETAG LOCATION BODY
//                                                          | error ID KIND MESSAGE
//
// PASSWORD empty: it comes from ~/.netrc (libcurl reads it), for USER if one is named. The password
// arrives on the pipe only: never in an argument, the environment or a file. CA names a file
// of certificates for a server whose certificate no system CA signed; empty: the system's.
// KIND: unreachable (no connection, or nothing for 60 s), tls (the certificate or handshake), timeout
// (the sync's deadline passed), failed.
// MILLISECONDS: the moment on CLOCK_MONOTONIC by which every request ends (the sync's deadline,
// SECONDS after its start: the remote's `timeout`); a request not done by then fails as timeout.
//
// What a server answers is not obeyed blindly: no redirect is followed on a write (PUT, DELETE,
// MKCALENDAR, PROPPATCH: the 3xx goes back as the answer, and the write does not count); on a
// read, one is followed only to the same origin (scheme, host and port) with no user in it,
// five at most. So neither an item's text nor the password goes to a host the user did not
// name. The sync has a deadline: a server that trickles a byte a second fails it instead of
// holding it for ever.

signal(SIGPIPE, SIG_IGN)
_ = tasks_refuse_core_dumps()
guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else { exit(1) }
CalDAVHelper().run()

/// What one request's callbacks collect.
final class Exchange {
    var body: [UInt8] = []
    var etag = ""
    var location = ""
    var tooLarge = false
    /// A response larger than this is refused (a collection of 100,000 tasks is about 60 MB).
    static let limit = 512 << 20
}

/// The rules of what a server may ask (static members: a global of main.swift would be set only
/// after the helper had run).
enum Limits {
    /// The methods that change nothing on the server: the only ones a redirect is followed for.
    static let readMethods: Set<String> = ["GET", "HEAD", "PROPFIND", "REPORT", "OPTIONS"]
    /// The redirects a read follows, at most.
    static let redirects = 5
}

/// Milliseconds on the system's monotonic clock (the one `tasks` gives the deadline on).
func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

/// The scheme, host and port of `url` as libcurl reads it (the default port made explicit),
/// and whether it names a user: nil when libcurl cannot read it.
func origin(of url: String) -> (origin: String, hasUser: Bool)? {
    guard let parsed = curl_url() else { return nil }
    defer { curl_url_cleanup(parsed) }
    guard curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK else { return nil }
    func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(parsed, which, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
    guard let scheme = part(CURLUPART_SCHEME), let host = part(CURLUPART_HOST),
          let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)) else { return nil }
    return (scheme.lowercased() + "://" + host.lowercased() + ":" + port, part(CURLUPART_USER) != nil || part(CURLUPART_PASSWORD) != nil)
}

final class CalDAVHelper {
    let input = WireReader(descriptor: 0)
    let output = WireWriter(descriptor: 1)
    let handle: UnsafeMutableRawPointer?
    var user = ""
    var password = ""
    var ca = ""
    /// When every request must be done (monotonic milliseconds), and the seconds that is after
    /// the sync's start, for the message.
    var deadline = Int64.max
    var timeout = ""

    init() {
        handle = curl_easy_init()
    }

    func run() {
        while let line = input.readLine() {
            let fields = WireLine.decode(line)
            switch (fields.first, fields.count) {
            case ("auth", 4):
                user = fields[1]
                password = fields[2]
                ca = fields[3]
            case ("deadline", 3):
                deadline = Int64(fields[1]) ?? Int64.max
                timeout = fields[2]
            case ("request", 8):
                perform(id: fields[1], method: fields[2], url: fields[3], depth: fields[4], ifMatch: fields[5], ifNoneMatch: fields[6], body: fields[7])
            default:
                _ = output.send(["error", "", "failed", "the helper cannot read: \(fields.first ?? "")"])
            }
            output.flush()
        }
        output.flush()
    }

    func perform(id: String, method: String, url: String, depth: String, ifMatch: String, ifNoneMatch: String, body: String) {
        guard let handle else {
            _ = output.send(["error", id, "failed", "libcurl could not start"])
            return
        }
        guard monotonicMilliseconds() < deadline else {
            _ = output.send(["error", id, "timeout", "the sync took longer than its \(timeout) s (the remote's timeout setting)"])
            return
        }
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        func header(_ text: String) { headers = curl_slist_append(headers, text) }
        switch method {
        case "PUT": header("Content-Type: text/calendar; charset=utf-8")
        case "PROPFIND", "REPORT", "MKCALENDAR", "PROPPATCH": header("Content-Type: application/xml; charset=utf-8")
        default: break
        }
        if !depth.isEmpty { header("Depth: \(depth)") }
        if !ifMatch.isEmpty { header("If-Match: \(ifMatch)") }
        if !ifNoneMatch.isEmpty { header("If-None-Match: \(ifNoneMatch)") }
        header("Expect:")  // no 100-continue round trip before a body
        let bytes = Array(body.utf8)
        let start = origin(of: url)?.origin
        var address = url
        var exchange = Exchange()
        var result = CURLE_OK
        for redirect in 0...Limits.redirects {
            exchange = Exchange()
            result = perform(handle, exchange, method: method, url: address, headers: headers, body: bytes)
            var status = 0
            tasks_curl_response_code(handle, &status)
            guard result == CURLE_OK, (300..<400).contains(status), Limits.readMethods.contains(method), redirect < Limits.redirects else { break }
            // A read redirected: followed only to the same origin, with no user in the address.
            var target: UnsafeMutablePointer<CChar>?
            guard tasks_curl_redirect_url(handle, &target) == CURLE_OK, let target else { break }
            let next = String(cString: target)
            guard let start, let found = origin(of: next), found.origin == start, !found.hasUser else { break }
            address = next
        }
        guard result == CURLE_OK else {
            var kind: String
            switch result {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
                kind = "unreachable"
            case CURLE_OPERATION_TIMEDOUT: kind = "unreachable"  // no connection, or nothing sent for 60 s
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM: kind = "tls"
            default: kind = "failed"
            }
            var message = exchange.tooLarge ? "the server's answer is larger than 512 MB" : String(cString: curl_easy_strerror(result))
            if result == CURLE_OPERATION_TIMEDOUT && monotonicMilliseconds() >= deadline {
                message = "the sync took longer than its \(timeout) s (the remote's timeout setting)"
                kind = "timeout"
            }
            _ = output.send(["error", id, kind, message])
            return
        }
        var status = 0
        tasks_curl_response_code(handle, &status)
        _ = output.send(["response", id, String(status), exchange.etag, exchange.location, String(decoding: exchange.body, as: UTF8.self)])
    }
}

extension CalDAVHelper {
    /// One request on `handle`, its answer collected in `exchange`; no redirect followed.
    func perform(_ handle: UnsafeMutableRawPointer, _ exchange: Exchange, method: String, url: String,
                 headers: UnsafeMutablePointer<curl_slist>?, body bytes: [UInt8]) -> CURLcode {
        curl_easy_reset(handle)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        return bytes.withUnsafeBufferPointer { buffer in
            tasks_curl_set_string(handle, CURLOPT_URL, url)
            tasks_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
            tasks_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
            tasks_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            tasks_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, 15)
            // A server that sends nothing for 60 s is gone; a slow but living one is not.
            tasks_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            tasks_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, 60)
            // Redirects are followed by `perform(id:…)` itself, where it is safe (see the top).
            tasks_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            // What is left of the sync's time (at least a millisecond: 0 would mean no limit).
            let left = deadline == Int64.max ? 0 : max(1, deadline &- monotonicMilliseconds())
            tasks_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(clamping: left))
            tasks_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            tasks_curl_set_string(handle, CURLOPT_USERAGENT, "tasks-caldav")
            tasks_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // gzip and deflate when offered
            if !ca.isEmpty { tasks_curl_set_string(handle, CURLOPT_CAINFO, ca) }
            if password.isEmpty {
                // ~/.netrc gives the password: for the user named in the address, which libcurl
                // looks up there only when the user is in the URL itself.
                tasks_curl_set_long(handle, CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
                if !user.isEmpty, let scheme = url.firstRange(of: "://") {
                    tasks_curl_set_string(handle, CURLOPT_URL, String(url[..<scheme.upperBound]) + percentEncoded(user) + "@" + url[scheme.upperBound...])
                }
            } else {
                tasks_curl_set_string(handle, CURLOPT_USERNAME, user)
                tasks_curl_set_string(handle, CURLOPT_PASSWORD, password)
            }
            tasks_curl_set_long(handle, CURLOPT_HTTPAUTH, 1 /* CURLAUTH_BASIC: a macro of a cast Swift cannot import */)
            if method == "HEAD" {
                tasks_curl_set_long(handle, CURLOPT_NOBODY, 1)
            } else if !bytes.isEmpty || method == "PUT" {
                tasks_curl_set_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
                tasks_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, buffer.count)
                tasks_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
            }
            tasks_curl_set_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                if exchange.body.count + length > Exchange.limit {
                    exchange.tooLarge = true
                    return 0
                }
                data.withMemoryRebound(to: UInt8.self, capacity: length) { exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
                return length
            }
            tasks_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            tasks_curl_set_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
                // A redirect's headers come first: each new status line starts the answer again.
                if line.hasPrefix("HTTP/") {
                    exchange.etag = ""
                    exchange.location = ""
                }
                if let colon = line.firstIndex(of: ":") {
                    let name = line[..<colon].lowercased()
                    let value = String(line[line.index(after: colon)...]).trimmingWhitespace
                    if name == "etag" { exchange.etag = value }
                    if name == "location" { exchange.location = value }
                }
                return length
            }
            tasks_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            return curl_easy_perform(handle)
        }
    }
}

/// `text` with every byte but letters, digits and `-._~` as `%XX`, for the user part of a URL.
func percentEncoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
        if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || "-._~".utf8.contains(byte) {
            result.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            let hex = String(byte, radix: 16, uppercase: true)
            result += "%" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
    return result
}
