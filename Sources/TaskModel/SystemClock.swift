#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wall clock, as the service's default `now`.
public enum SystemClock {
    /// The current time, to the millisecond.
    @Sendable public static func now() -> Timestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Timestamp(millisecondsSince1970: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
    }
}

extension SystemClock {
    /// Today in the C library's time zone (`TZ`, else /etc/localtime): what `today`, `+3d`,
    /// `--overdue` and waiting count from.
    @Sendable public static func today() -> CalendarDay { LocalTime.system.day(now()) }
}

extension SystemClock {
    /// This machine's name (what a sync's report says a change came from), or `this machine`.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this machine" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this machine" : name
    }
}
