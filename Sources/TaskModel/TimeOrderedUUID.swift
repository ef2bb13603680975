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
            return UUIDText.format(high: high, low: low)
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
