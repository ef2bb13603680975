#if canImport(Glibc)
import Glibc
#endif
import CFuzzerDriver

/// The `main` of a fuzz target. Built with `-DFUZZING` (scripts/fuzz) it hands `body` to
/// libFuzzer's driver; built plainly it runs each file named on the command line through
/// `body` once — to replay a crash or a corpus.
public func runFuzzTarget(_ body: @escaping ([UInt8]) -> Void) -> Never {
    #if FUZZING
    target = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        target?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
    #else
    for path in CommandLine.arguments.dropFirst() {
        guard let file = fopen(path, "rb") else { continue }
        var bytes: [UInt8] = []
        while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
        fclose(file)
        body(bytes)
        print("ran \(path)")
    }
    exit(0)
    #endif
}

#if FUZZING
/// The target's body, for libFuzzer's C callback (which cannot capture); set once, before fuzzing.
nonisolated(unsafe) private var target: (([UInt8]) -> Void)?
#endif
