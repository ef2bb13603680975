#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import TextFormats

enum TerminalTextProbe {
    /// The terminal cells before the first `marker` in `line`.
    static func cells(before marker: String, in line: String) -> Int {
        var prefix = Substring(line)
        while !prefix.isEmpty && !prefix.hasSuffix(marker) { prefix = prefix.dropLast() }
        guard !prefix.isEmpty else { return -1 }
        return TerminalText.displayWidth(prefix.dropLast(marker.count))
    }

    static func width(_ line: String) -> Int { TerminalText.displayWidth(line) }
}

enum PrivateFileProbe {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
