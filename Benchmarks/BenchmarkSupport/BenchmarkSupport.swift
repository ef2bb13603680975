#if canImport(Glibc)
import Glibc
#endif

/// What the benchmark executables share: number formatting and progress lines on stderr.
public enum BenchmarkSupport {
    /// `1234567` as `1,234,567`.
    public static func grouped(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    /// A duration in nanoseconds.
    public static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    /// Writes one line to stderr, so that stdout holds only the Markdown table.
    public static func progress(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
