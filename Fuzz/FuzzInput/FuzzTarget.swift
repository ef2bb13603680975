// The libFuzzer target for FuzzEntry.input. `scripts/fuzz` builds it with
// -sanitize=fuzzer,address -DFUZZING and main hands over to libFuzzer's driver; built
// plainly (swift build), it runs the files it is given through the same function once each —
// to replay a crash.
#if canImport(Glibc)
import Glibc
#endif
import CFuzzerDriver
import TaskCLI

@main
struct FuzzTarget {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzEntry.input(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
            return 0
        })
        #else
        for path in CommandLine.arguments.dropFirst() {
            guard let file = fopen(path, "rb") else { continue }
            var bytes: [UInt8] = []
            while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
            fclose(file)
            FuzzEntry.input(bytes)
            print("ran \(path)")
        }
        #endif
    }
}
