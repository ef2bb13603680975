#if canImport(Glibc)
import Glibc
#endif

/// A fresh folder under /tmp for one test, removed when the value goes away.
public final class TemporaryFolder {
    /// The folder's path.
    public let path: String

    /// Makes the folder.
    public init() {
        var template = Array("/tmp/tasks-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        path = made ?? "/tmp/tasks-test-fallback-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        if made == nil { mkdir(path, 0o700) }
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    deinit {
        _ = system("rm -rf '\(path)'")
    }
}

/// The bytes of the file at `path` (empty when it cannot be read).
public func readBytes(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

/// Writes `bytes` to the file at `path`, replacing it.
public func writeBytes(_ path: String, _ bytes: [UInt8]) {
    guard let file = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

/// The permission bits of `path`.
public func fileMode(_ path: String) -> UInt32 {
    var info = stat()
    stat(path, &info)
    return UInt32(info.st_mode) & 0o777
}
