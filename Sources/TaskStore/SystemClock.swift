#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TaskKit

/// The wall clock, as the service's default `now`.
public enum SystemClock {
    /// The current time, to the millisecond.
    @Sendable public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(millisecondsSince1970: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}

/// Random (version 4) UUIDs in their usual lower-case text form.
public enum RandomUUID {
    /// A new random UUID, e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427`.
    @Sendable public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = Array("0123456789abcdef")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0f)])
        }
        return text
    }
}
