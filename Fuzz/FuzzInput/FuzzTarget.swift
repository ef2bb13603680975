// The libFuzzer target for FuzzEntry.input (scripts/fuzz); built plainly, it replays files.
import FuzzDriver
import TaskCLI

@main
struct FuzzTarget {
    static func main() { runFuzzTarget(FuzzEntry.input) }
}
