#if canImport(Glibc)
import Glibc
#endif
import CTerminalSupport

/// The files of one folder being written, created, deleted or moved, as the kernel reports
/// them (inotify): how a screen learns at once that another process committed to a
/// database, without polling.
public final class FolderWatch {
    public struct Change: Equatable, Sendable {
        public var name: String
        /// The file was deleted or moved away.
        public var isGone: Bool
    }

    /// Readable when changes wait (watch it on an `EventLoop`).
    public let descriptor: Int32

    /// A watch on `folder`, or nil where the system has no inotify (or too many watches).
    public init?(folder: String) {
        let descriptor = cterminal_watch_folder(folder)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The changes waiting, read without blocking.
    public func drain() -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return changes }
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            var offset = 0
            while offset + 16 <= count {
                func word(_ at: Int) -> UInt32 {
                    UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16 | UInt32(buffer[at + 3]) << 24
                }
                let mask = word(offset + 4)
                let length = Int(word(offset + 12))
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let gone = mask & (0x200 | 0x40) != 0  // IN_DELETE, IN_MOVED_FROM
                changes.append(Change(name: String(decoding: nameBytes, as: UTF8.self), isGone: gone))
                offset += 16 + length
            }
        }
    }
}
