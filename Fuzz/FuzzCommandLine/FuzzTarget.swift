// The libFuzzer target for FuzzEntry.commandLine (scripts/fuzz); built plainly, it replays files.
import FuzzDriver
import TaskCLI

@main
struct FuzzTarget {
    static func main() { runFuzzTarget(FuzzEntry.commandLine) }
}
