#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file of state kept for the user between runs (the active context): read whole,
/// written whole by a rename, its folders made private.
enum StateFile {
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return Input.readAll(descriptor: descriptor)
    }

    /// Writes `text` to `path` (making its folders, 0700), or removes it for nil; the reason
    /// it failed, or nil. A `path` that is a symbolic link is written through to the file it
    /// names, as git writes its configuration (a dotfiles checkout links `~/.config/tasks/config`
    /// into a repository; a rename onto the link replaced it with a plain file).
    static func write(_ text: String?, to link: String) -> String? {
        let path = text == nil ? link : target(of: link)
        var folder = ""
        for part in path.split(separator: "/").dropLast() {
            folder += "/" + part
            if mkdir(folder, 0o700) != 0 && errno != EEXIST { return "cannot make \(folder): \(String(cString: strerror(errno)))" }
        }
        guard let text else {
            if unlink(path) != 0 && errno != ENOENT { return "cannot remove \(path): \(String(cString: strerror(errno)))" }
            return nil
        }
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return "cannot write \(temporary): \(String(cString: strerror(errno)))" }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot write \(path): \(reason)"
        }
        return nil
    }

    /// The file `path` names once its symbolic links are followed (40 at most, as the kernel
    /// follows them); `path` itself when it is none.
    static func target(of path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: 4097)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let link = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else {
                current = (current.lastIndex(of: "/").map { String(current[...$0]) } ?? "") + link
            }
        }
        return current
    }
}
