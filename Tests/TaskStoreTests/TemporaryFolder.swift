#if canImport(Glibc)
import Glibc
#endif

/// A fresh folder under /tmp for one test, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/tasks-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        path = made ?? "/tmp/tasks-test-fallback-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        if made == nil { mkdir(path, 0o700) }
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        _ = system("rm -rf '\(path)'")
    }
}

func readBytes(_ path: String) -> [UInt8] {
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

func writeBytes(_ path: String, _ bytes: [UInt8]) {
    guard let file = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

func fileMode(_ path: String) -> UInt32 {
    var info = stat()
    stat(path, &info)
    return UInt32(info.st_mode) & 0o777
}
