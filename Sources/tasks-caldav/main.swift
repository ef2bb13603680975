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
// given, several at once on kept-alive connections (libcurl's multi interface: at most
// `Limits.connections` to the server, HTTP/2 streams on one where the server speaks it), and
// answers each in the order they came, in the lines of `SyncWire`:
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
// holding it for ever. Nor does the helper ask more of a server than its answers permit: a
// 429 or 503 is asked again after its Retry-After (three times at most, within the deadline),
// and from then on one request at a time.

signal(SIGPIPE, SIG_IGN)
_ = tasks_refuse_core_dumps()
guard curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else { exit(1) }
CalDAVHelper().run()


/// The helper: requests read from the pipe, run on libcurl's multi interface, answered in order.
final class CalDAVHelper {
    let input = WireReader(descriptor: 0)
    let output = WireWriter(descriptor: 1)
    let multi = curl_multi_init()
    var settings = Settings()
    /// The requests read and not yet answered on the pipe, in the order they came.
    var queue: [Transfer] = []
    /// The transfers libcurl is running, by their handle; handles done with, kept for the next.
    var running: [UnsafeMutableRawPointer: Transfer] = [:]
    var idle: [UnsafeMutableRawPointer] = []
    /// How many requests run at once: `Limits.connections`, one once the server has asked for less.
    var parallel = Limits.connections
    var inputOpen = true

    init() {
        tasks_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, Limits.connections)
        tasks_curl_multi_set_long(multi, CURLMOPT_PIPELINING, 2 /* CURLPIPE_MULTIPLEX */)
    }

    func run() {
        guard multi != nil else {
            while let line = input.readLine() {
                _ = output.send(["error", WireLine.decode(line).dropFirst().first ?? "", "failed", "libcurl could not start"])
                output.flush()
            }
            return
        }
        while true {
            // What the client sent: waited for when nothing is pending, else only what is here.
            while inputOpen && (queue.isEmpty || input.hasBufferedLine || Self.readable(0)) {
                guard let line = input.readLine() else { inputOpen = false; break }
                take(WireLine.decode(line))
            }
            if queue.isEmpty {
                if inputOpen { continue } else { break }
            }
            start()
            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            finish()
            if answer() { continue }
            // Nothing to say yet: sleep until a transfer or the pipe has something, or a retry is due.
            let now = monotonicMilliseconds()
            let due = queue.filter { $0.handle == nil && $0.answer == nil && $0.notBefore > now }.map(\.notBefore).min() ?? now + 1000
            let wait = Int32(clamping: max(0, min(1000, due - now)))
            var pipe = curl_waitfd(fd: 0, events: Int16(CURL_WAIT_POLLIN), revents: 0)
            curl_multi_poll(multi, &pipe, inputOpen ? 1 : 0, wait, nil)
        }
        output.flush()
    }

    /// One line from `tasks`.
    func take(_ fields: [String]) {
        switch (fields.first, fields.count) {
        case ("auth", 4):
            settings.user = fields[1]
            settings.password = fields[2]
            settings.ca = fields[3]
        case ("deadline", 3):
            settings.deadline = Int64(fields[1]) ?? Int64.max
            settings.timeout = fields[2]
        case ("request", 8):
            queue.append(Transfer(id: fields[1], method: fields[2], url: fields[3], depth: fields[4], ifMatch: fields[5], ifNoneMatch: fields[6], body: fields[7]))
        default:
            let unread = Transfer(id: "", method: "", url: "", depth: "", ifMatch: "", ifNoneMatch: "", body: "")
            unread.answer = ["error", "", "failed", "the helper cannot read: \(fields.first ?? "")"]
            queue.append(unread)
        }
    }

    /// Starts the requests waiting, in their order, while fewer than `parallel` run.
    func start() {
        let now = monotonicMilliseconds()
        for transfer in queue where running.count < parallel && transfer.handle == nil && transfer.answer == nil && transfer.notBefore <= now {
            guard now < settings.deadline else {
                transfer.answer = ["error", transfer.id, "timeout", settings.timedOut]
                continue
            }
            guard let handle = idle.popLast() ?? curl_easy_init() else {
                transfer.answer = ["error", transfer.id, "failed", "libcurl could not start"]
                continue
            }
            transfer.configure(handle, settings)
            guard curl_multi_add_handle(multi, handle) == CURLM_OK else {
                transfer.answer = ["error", transfer.id, "failed", "libcurl could not start the request"]
                idle.append(handle)
                continue
            }
            transfer.handle = handle
            running[handle] = transfer
        }
    }

    /// Takes each transfer libcurl has finished: answered, or (a redirect followed, a busy
    /// server asked again) made to wait for `start`.
    func finish() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let transfer = running.removeValue(forKey: handle) else { continue }
            let result = message.pointee.data.result
            curl_multi_remove_handle(multi, handle)
            let outcome = transfer.finished(handle, result: result, settings: settings)
            transfer.handle = nil
            idle.append(handle)
            if outcome.oneAtATime { parallel = 1 }
        }
    }

    /// Sends the answers that are next in order; whether it sent any.
    func answer() -> Bool {
        var sent = 0
        while let first = queue.first, let answer = first.answer {
            _ = output.send(answer)
            queue.removeFirst()
            sent += 1
        }
        if sent > 0 { output.flush() }
        return sent > 0
    }

    /// Whether `tasks` has written something not yet read, within `milliseconds`.
    static func readable(_ milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }
}
