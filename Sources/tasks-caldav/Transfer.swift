#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl
import TextFormats

/// What every request of the sync shares: the credentials and the deadline.
struct Settings {
    var user = ""
    var password = ""
    var ca = ""
    /// When every request must be done (monotonic milliseconds), and the seconds that is after
    /// the sync's start, for the message.
    var deadline = Int64.max
    var timeout = ""

    var timedOut: String { "the sync took longer than its \(timeout) s (the remote's timeout setting)" }
}

/// What one request's callbacks collect.
final class Exchange {
    var body: [UInt8] = []
    var etag = ""
    var location = ""
    var retryAfter = ""
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
    /// Connections to the server at once: what a browser opens to one host (docs/architecture.md).
    static let connections = 6
    /// How often a request a server answered 429 or 503 is asked again, and the longest wait.
    static let retries = 3
    static let longestWait: Int64 = 30_000
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

/// One request from `tasks`, from when it is read until it is answered: its own headers and
/// body, the address it has got to (after redirects), and its answer once there is one.
final class Transfer {
    let id: String
    let method: String
    var url: String
    let body: [UInt8]
    /// The origin of the address `tasks` gave: where a read's redirect may lead.
    let startOrigin: String?
    private var headers: UnsafeMutablePointer<curl_slist>?
    var exchange = Exchange()
    var redirects = 0
    var retries = 0
    /// When it may start (after a Retry-After), monotonic milliseconds.
    var notBefore: Int64 = 0
    /// The handle running it, while it runs.
    var handle: UnsafeMutableRawPointer?
    /// The line that answers it, once there is one.
    var answer: [String]?

    init(id: String, method: String, url: String, depth: String, ifMatch: String, ifNoneMatch: String, body: String) {
        self.id = id
        self.method = method
        self.url = url
        self.body = Array(body.utf8)
        startOrigin = origin(of: url)?.origin
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
    }

    deinit { curl_slist_free_all(headers) }

    /// What a finished transfer leaves the helper to do.
    struct Outcome { var oneAtATime = false }

    /// Takes libcurl's end of the transfer: the answer made, or the transfer made to run again
    /// (a read's redirect to the same origin; a 429 or 503 after its Retry-After).
    func finished(_ handle: UnsafeMutableRawPointer, result: CURLcode, settings: Settings) -> Outcome {
        var outcome = Outcome()
        var status = 0
        tasks_curl_response_code(handle, &status)
        let now = monotonicMilliseconds()
        if result == CURLE_OK, (300..<400).contains(status), Limits.readMethods.contains(method), redirects < Limits.redirects {
            // A read redirected: followed only to the same origin, with no user in the address.
            var target: UnsafeMutablePointer<CChar>?
            if tasks_curl_redirect_url(handle, &target) == CURLE_OK, let target, let startOrigin,
               let found = origin(of: String(cString: target)), found.origin == startOrigin, !found.hasUser {
                url = String(cString: target)
                redirects += 1
                exchange = Exchange()
                return outcome
            }
        }
        if result == CURLE_OK, status == 429 || status == 503, retries < Limits.retries {
            // The server is busy: asked again when it says, and from now on one at a time.
            outcome.oneAtATime = true
            let wait = Int64(exchange.retryAfter).map { min(max($0, 0), Limits.longestWait / 1000) * 1000 } ?? 1000
            if now + wait < settings.deadline {
                retries += 1
                notBefore = now + wait
                exchange = Exchange()
                return outcome
            }
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
            if result == CURLE_OPERATION_TIMEDOUT && now >= settings.deadline {
                message = settings.timedOut
                kind = "timeout"
            }
            answer = ["error", id, kind, message]
            return outcome
        }
        answer = ["response", id, String(status), exchange.etag, exchange.location, String(decoding: exchange.body, as: UTF8.self)]
        exchange = Exchange()
        return outcome
    }

    /// Sets `handle` up to run this request to `url`; no redirect followed (`finished` does that).
    func configure(_ handle: UnsafeMutableRawPointer, _ settings: Settings) {
        curl_easy_reset(handle)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        tasks_curl_set_string(handle, CURLOPT_URL, url)
        tasks_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
        tasks_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        tasks_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        tasks_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, 15)
        // A server that sends nothing for 60 s is gone; a slow but living one is not.
        tasks_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
        tasks_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, 60)
        tasks_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        // What is left of the sync's time (at least a millisecond: 0 would mean no limit).
        let left = settings.deadline == Int64.max ? 0 : max(1, settings.deadline &- monotonicMilliseconds())
        tasks_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(clamping: left))
        tasks_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        tasks_curl_set_string(handle, CURLOPT_USERAGENT, "tasks-caldav")
        tasks_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")  // gzip and deflate when offered
        if !settings.ca.isEmpty { tasks_curl_set_string(handle, CURLOPT_CAINFO, settings.ca) }
        if settings.password.isEmpty {
            // ~/.netrc gives the password: for the user named in the address, which libcurl
            // looks up there only when the user is in the URL itself.
            tasks_curl_set_long(handle, CURLOPT_NETRC, Int(CURL_NETRC_OPTIONAL.rawValue))
            if !settings.user.isEmpty, let scheme = url.firstRange(of: "://") {
                tasks_curl_set_string(handle, CURLOPT_URL, String(url[..<scheme.upperBound]) + percentEncoded(settings.user) + "@" + url[scheme.upperBound...])
            }
        } else {
            tasks_curl_set_string(handle, CURLOPT_USERNAME, settings.user)
            tasks_curl_set_string(handle, CURLOPT_PASSWORD, settings.password)
        }
        tasks_curl_set_long(handle, CURLOPT_HTTPAUTH, 1 /* CURLAUTH_BASIC: a macro of a cast Swift cannot import */)
        if method == "HEAD" {
            tasks_curl_set_long(handle, CURLOPT_NOBODY, 1)
        } else if !body.isEmpty || method == "PUT" {
            // libcurl keeps its own copy: the transfer may outlive this call.
            tasks_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
            let bytes = body.isEmpty ? [0] : body  // an empty body still needs an address
            _ = bytes.withUnsafeBufferPointer { buffer in
                tasks_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress))
            }
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
                exchange.retryAfter = ""
            }
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = String(line[line.index(after: colon)...]).trimmingWhitespace
                switch name {
                case "etag": exchange.etag = value
                case "location": exchange.location = value
                case "retry-after": exchange.retryAfter = value
                default: break
                }
            }
            return length
        }
        tasks_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
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
