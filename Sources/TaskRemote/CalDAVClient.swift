#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncWire
import TaskModel

/// HTTP through the helper `tasks-caldav` (which alone links libcurl): requests in, answers
/// out, in `SyncWire` lines over two pipes. Several requests sent together are answered in
/// order; the helper keeps its connection alive between them.
final class CalDAVClient {
    struct Request {
        var method: String
        var url: String
        var depth = ""
        var ifMatch = ""
        var ifNoneMatch = ""
        var body = ""
    }

    struct Response {
        var status: Int
        var etag: String
        var location: String
        var body: String

        var isSuccess: Bool { (200..<300).contains(status) }
    }

    let name: String
    private let process: HelperProcess
    private let writer: WireWriter
    private let reader: WireReader
    private var nextID = 0
    private var isClosed = false
    /// How many requests go out before their answers are read: enough to keep the helper
    /// busy, few enough that neither pipe fills while the other side waits.
    static let window = 16

    /// Starts the helper and gives it the credentials: `user` and `password` (never in an
    /// argument or the environment), or none for ~/.netrc; `ca`, a certificate file, or none;
    /// and the moment, `timeout` seconds from now, by which every request of this sync ends
    /// (the system's monotonic clock, which the helper reads too).
    init(helper: String, name: String, user: String?, password: String?, ca: String?, timeout: Int) throws(TaskServiceError) {
        self.name = name
        process = try HelperProcess.start(helper, remote: name)
        writer = WireWriter(descriptor: process.toHelper)
        reader = WireReader(descriptor: process.fromHelper)
        var now = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &now)
        let (deadline, overflow) = (Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000).addingReportingOverflow(Int64(timeout) * 1000)
        guard writer.send(["auth", user ?? "", password ?? "", ca ?? ""]),
              writer.send(["deadline", overflow ? String(Int64.max) : String(deadline), String(timeout)]) else { throw gone() }
    }

    deinit { close() }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(process.toHelper)
        Glibc.close(process.fromHelper)
        var status: Int32 = 0
        while waitpid(process.pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// One request's answer; a failure to reach the server throws.
    func send(_ request: Request) throws(TaskServiceError) -> Response {
        try send([request])[0]
    }

    /// The answers to `requests`, in their order.
    func send(_ requests: [Request]) throws(TaskServiceError) -> [Response] {
        var responses: [Response] = []
        responses.reserveCapacity(requests.count)
        try send(requests) { (response: Response) throws(TaskServiceError) in responses.append(response) }
        return responses
    }

    /// Each answer to `requests`, in their order, handed to `body` as it arrives and let go
    /// after: eight multiget answers of a large calendar were all held at once (1.3 GB).
    func send(_ requests: [Request], each body: (Response) throws(TaskServiceError) -> Void) throws(TaskServiceError) {
        var received = 0
        var sent = 0
        while received < requests.count {
            while sent < requests.count && sent - received < Self.window {
                let request = requests[sent]
                nextID += 1
                guard writer.send(["request", String(nextID), request.method, request.url, request.depth, request.ifMatch, request.ifNoneMatch, request.body])
                else { throw gone() }
                sent += 1
            }
            guard writer.flush() else { throw gone() }
            let response = try receive()
            received += 1
            try body(response)
        }
    }

    private func receive() throws(TaskServiceError) -> Response {
        guard let line = reader.readLine() else { throw gone() }
        let fields = WireLine.decode(line)
        if fields.first == "response", fields.count == 6, let status = Int(fields[2]) {
            return Response(status: status, etag: fields[3], location: fields[4], body: fields[5])
        }
        if fields.first == "error", fields.count == 4 {
            switch fields[2] {
            case "unreachable": throw .remote(.unreachable(fields[3]), remote: name)
            case "tls": throw .remote(.untrusted(fields[3]), remote: name)
            default: throw .remote(.failed(fields[3]), remote: name)
            }
        }
        throw .remote(.failed("the helper tasks-caldav said: \(line)"), remote: name)
    }

    private func gone() -> TaskServiceError {
        .remote(.failed("the helper tasks-caldav ended unexpectedly"), remote: name)
    }
}
