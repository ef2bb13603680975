import TaskCLI
import _TestSupport
import Testing

/// Every input libFuzzer kept (scripts/fuzz), and any crash it ever wrote, run again through
/// the same entry points: what once crashed stays fixed.
@Suite("Fuzz corpus replay")
struct FuzzCorpusTests {
    @Test func commandLineCorpus() {
        let inputs = files(in: fixturesFolder() + "/Fuzz/commandline")
        #expect(inputs.count >= 9, "the seed corpus is there")
        for path in inputs { FuzzEntry.commandLine(readBytes(path)) }
    }

    @Test func inputCorpus() {
        let inputs = files(in: fixturesFolder() + "/Fuzz/input")
        #expect(inputs.count >= 5, "the seed corpus is there")
        for path in inputs { FuzzEntry.input(readBytes(path)) }
    }

    @Test func keptCrashes() {
        for path in files(in: fixturesFolder() + "/Fuzz/crashes") {
            if path.contains("commandline-") { FuzzEntry.commandLine(readBytes(path)) } else { FuzzEntry.input(readBytes(path)) }
        }
    }
}
