#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in `folder` (not `.` and `..`), sorted; none when it cannot be read.
public func directoryEntries(_ folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        // Read the name in place: a dirent is only as long as its name, so copying the whole
        // 256-byte d_name field can read past the end of the buffer (AddressSanitizer saw it).
        let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
            field.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Whether `path` is a folder.
public func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
