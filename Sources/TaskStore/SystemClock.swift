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
    /// A new random UUID from the system's generator (a system call per draw; services use
    /// `TimeOrderedUUID`, which draws from a seeded xoshiro256**), e.g. `1b4e28ba-2fa1-41d2-883f-0016d3cca427`.
    @Sendable public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return format(high: generator.next(), low: generator.next())
    }

    static func format(high: UInt64, low: UInt64, setVersion: Bool = true) -> String {
        guard setVersion else { return UUIDText.format(high: high, low: low) }
        return UUIDText.format(high: (high & ~0xF000) | 0x4000, low: (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000)
    }
}

/// Time-ordered (version 7, RFC 9562) UUIDs: 48 bits of Unix milliseconds, a 12-bit counter
/// that keeps them increasing within a millisecond, and 62 random bits. Consecutive tasks get
/// neighbouring keys, so the `uuid` index grows at its end instead of at random places — a
/// batch import's largest cost after the rows themselves.
public enum TimeOrderedUUID {
    /// A source of increasing UUIDs for one owner, reading the time from `now`.
    public static func generator(now: @escaping () -> Timestamp) -> () -> String {
        var random = Xoshiro256StarStar()
        var lastMilliseconds: Int64 = -1
        var counter: UInt64 = 0
        return {
            var milliseconds = max(0, now().millisecondsSince1970)
            if milliseconds <= lastMilliseconds {
                // Same (or an earlier) millisecond: count up; past 4,095, borrow the next one.
                milliseconds = lastMilliseconds
                counter += 1
                if counter > 0xFFF {
                    milliseconds += 1
                    counter = random.next() & 0x1FF
                }
            } else {
                // A fresh millisecond starts its counter low and random, leaving room to count.
                counter = random.next() & 0x1FF
            }
            lastMilliseconds = milliseconds
            let high = (UInt64(milliseconds) & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | counter
            let low = (random.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
            return RandomUUID.format(high: high, low: low, setVersion: false)
        }
    }
}

/// xoshiro256** (Blackman and Vigna): fast, 256 bits of state, seeded from the system.
struct Xoshiro256StarStar: RandomNumberGenerator {
    private var s0, s1, s2, s3: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        repeat {
            s0 = system.next()
            s1 = system.next()
            s2 = system.next()
            s3 = system.next()
        } while s0 | s1 | s2 | s3 == 0
    }

    mutating func next() -> UInt64 {
        let result = rotate(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotate(s3, 45)
        return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
