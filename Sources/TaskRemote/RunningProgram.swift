#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The program running now, as the kernel knows it (`/proc/self/exe`): where its helper
/// `tasks-postgres` is looked for first, and what `tasks ui` runs `tasks sync` with.
public enum RunningProgram {
    /// Its absolute path; nil where the system does not say.
    public static var path: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
