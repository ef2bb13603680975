#if canImport(Glibc)
import Glibc
#endif

/// The project's `Fixtures` folder, found from a test file's `#filePath`
/// (`Tests/SomeTests/File.swift` → `Fixtures`).
public func fixturesFolder(file: String = #filePath) -> String {
    var parts = file.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/Fixtures"
}

/// Compares `text` with the golden file `Fixtures/NAME`; with `RECORD_GOLDEN=1` in the
/// environment it writes the file instead. Returns what is wrong, or `nil` when they agree.
public func goldenMismatch(_ text: String, named name: String, file: String = #filePath) -> String? {
    let path = fixturesFolder(file: file) + "/" + name
    if getenv("RECORD_GOLDEN") != nil {
        writeBytes(path, Array(text.utf8))
        return nil
    }
    guard access(path, R_OK) == 0 else { return "no golden file \(path); run with RECORD_GOLDEN=1 to make it" }
    let expected = String(decoding: readBytes(path), as: UTF8.self)
    if expected == text { return nil }
    return "output differs from \(path):\n--- expected\n\(expected)--- actual\n\(text)"
}

/// The paths of the regular files in `folder`, sorted (none when it cannot be read).
public func files(in folder: String) -> [String] {
    directoryEntries(folder).map { folder + "/" + $0 }.filter { !isDirectory($0) }
}
