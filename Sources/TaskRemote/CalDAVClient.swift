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
    /// argument or the environment), or none for ~/.netrc; `ca`, a certificate file, or none.
    init(helper: String, name: String, user: String?, password: String?, ca: String?) throws(TaskServiceError) {
        self.name = name
        process = try HelperProcess.start(helper, remote: name)
        writer = WireWriter(descriptor: process.toHelper)
        reader = WireReader(descriptor: process.fromHelper)
        guard writer.send(["auth", user ?? "", password ?? "", ca ?? ""]) else { throw gone() }
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
        var sent = 0
        while responses.count < requests.count {
            while sent < requests.count && sent - responses.count < Self.window {
                let request = requests[sent]
                nextID += 1
                guard writer.send(["request", String(nextID), request.method, request.url, request.depth, request.ifMatch, request.ifNoneMatch, request.body])
                else { throw gone() }
                sent += 1
            }
            guard writer.flush() else { throw gone() }
            responses.append(try receive())
        }
        return responses
    }

    private func receive() throws(TaskServiceError) -> Response {
        guard let line = reader.readLine() else { throw gone() }
        let fields = WireLine.decode(line)
        if fields.first == "response", fields.count == 6, let status = Int(fields[2]) {
            return Response(status: status, etag: fields[3], location: fields[4], body: fields[5])
        }
        if fields.first == "error", fields.count == 4 {
            switch fields[2] {
            case "unreachable", "timeout": throw .remote(.unreachable(fields[3]), remote: name)
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
