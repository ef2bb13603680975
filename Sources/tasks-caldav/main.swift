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
//     request ID METHOD URL DEPTH IF-MATCH IF-NONE-MATCH BODY
//                                                          response ID STATUS ETAG LOCATION BODY
//                                                          | error ID KIND MESSAGE
//
// PASSWORD empty: it comes from ~/.netrc (libcurl reads it), for USER if one is named. The password
// arrives on the pipe only: never in an argument, the environment or a file. CA names a file
// of certificates for a server whose certificate no system CA signed; empty: the system's.
// KIND: unreachable (no connection), tls (the certificate or handshake), timeout, failed.

signal(SIGPIPE, SIG_IGN)
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

final class CalDAVHelper {
    let input = WireReader(descriptor: 0)
    let output = WireWriter(descriptor: 1)
    let handle: UnsafeMutableRawPointer?
    var user = ""
    var password = ""
    var ca = ""

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
        curl_easy_reset(handle)
        let exchange = Exchange()
        let context = Unmanaged.passUnretained(exchange).toOpaque()
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
        let result: CURLcode = bytes.withUnsafeBufferPointer { buffer in
            tasks_curl_set_string(handle, CURLOPT_URL, url)
            tasks_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method)
            tasks_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
            tasks_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            tasks_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, 15)
            // A server that sends nothing for 60 s is gone; a slow but living one is not.
            tasks_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            tasks_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, 60)
            tasks_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            tasks_curl_set_long(handle, CURLOPT_MAXREDIRS, 5)
            tasks_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            tasks_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
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
        guard result == CURLE_OK else {
            let kind: String
            switch result {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
                kind = "unreachable"
            case CURLE_OPERATION_TIMEDOUT: kind = "timeout"
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM: kind = "tls"
            default: kind = "failed"
            }
            let message = exchange.tooLarge ? "the server's answer is larger than 512 MB" : String(cString: curl_easy_strerror(result))
            _ = output.send(["error", id, kind, message])
            return
        }
        var status = 0
        tasks_curl_response_code(handle, &status)
        _ = output.send(["response", id, String(status), exchange.etag, exchange.location, String(decoding: exchange.body, as: UTF8.self)])
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
