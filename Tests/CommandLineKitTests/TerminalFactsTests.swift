import Testing
import CommandLineKit

@Suite("Terminal facts")
struct TerminalFactsTests {
    @Test func colourOnlyOnATerminalAndNeverWithNoColor() {
        let terminal = TerminalFacts(stdoutIsTerminal: true, stderrIsTerminal: true, width: 80)
        let pipe = TerminalFacts(stdoutIsTerminal: false, stderrIsTerminal: false, width: nil)
        #expect(terminal.usesColor(.auto, environment: [:]))
        #expect(!pipe.usesColor(.auto, environment: [:]))
        #expect(!terminal.usesColor(.auto, environment: ["NO_COLOR": "1"]))
        #expect(!terminal.usesColor(.always, environment: ["NO_COLOR": ""]), "NO_COLOR set to anything wins")
        #expect(!terminal.usesColor(.never, environment: [:]))
        #expect(pipe.usesColor(.always, environment: [:]))
        #expect(!terminal.usesColor(.auto, environment: ["TERM": "dumb"]))
    }
}
