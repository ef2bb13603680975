#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A reading of the system's monotonic clock (`CLOCK_MONOTONIC`): a time that never goes
/// back, for schedulers, the event loop and traces.
///
/// It does `ContinuousClock`'s job here because `ContinuousClock` lives in the concurrency
/// runtime: one use of it links that runtime and libdispatch into a statically linked
/// program, whose start-up code then runs on every command (63 more page faults and about
/// 0.3 ms per run, measured in docs/benchmark-notes.md, "Start-up without the concurrency
/// runtime"). Tests/StructureTests keeps the concurrency runtime's names out of Sources.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    /// The time since the clock's unspecified origin (the machine's boot, on Linux).
    public let sinceOrigin: Duration

    public init(sinceOrigin: Duration) {
        self.sinceOrigin = sinceOrigin
    }

    /// The clock's reading now.
    public static var now: MonotonicInstant {
        var time = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(sinceOrigin: .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec)))
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.sinceOrigin < rhs.sinceOrigin
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        lhs.sinceOrigin - rhs.sinceOrigin
    }

    /// The instant `duration` after `instant`.
    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        MonotonicInstant(sinceOrigin: instant.sinceOrigin + duration)
    }

    /// Blocks the calling thread until the clock reads `self` or later.
    public func sleepUntil() {
        while true {
            let remaining = self - .now
            if remaining <= .zero { return }
            let (seconds, attoseconds) = remaining.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var left = timespec()
            _ = nanosleep(&request, &left)
        }
    }
}
