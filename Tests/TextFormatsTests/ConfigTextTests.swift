import Testing
import TextFormats

/// The configuration file's TOML subset: what it reads, and each error with its line.
@Suite("ConfigText: the configuration's TOML subset")
struct ConfigTextTests {
    @Test func readsKeysTablesStringsArraysAndBareWords() throws {
        let config = try ConfigText("""
            # custom fields
            uda.estimate.type = duration   # a bare word is its text
            uda.note.label = "Say \\"hi\\"\\tthere"

            [uda.size]
            type = 'string'
            values = ["S", "M", 'L']
            """)
        #expect(config.entries.map(\.key) == ["uda.estimate.type", "uda.note.label", "uda.size.type", "uda.size.values"])
        #expect(config["uda.estimate.type"]?.value == "duration")
        #expect(config["uda.note.label"]?.value == "Say \"hi\"\tthere")
        #expect(config["uda.size.values"]?.values == ["S", "M", "L"] && config["uda.size.values"]?.isArray == true)
        #expect(config["uda.size.values"]?.line == 7)
        #expect(try ConfigText("\n\n").entries.isEmpty)
    }

    @Test func eachErrorNamesItsLine() {
        let cases: [(String, Int, String)] = [
            ("a = 1\na = 2", 2, "'a' is set twice"),
            ("[uda\nx = 1", 1, "a table header needs its ']'"),
            ("just words", 1, "expected 'key = value', a [table] or a # comment"),
            ("a b = 1", 1, "'a b' is not a key (dotted words of letters, digits, - and _)"),
            ("a =", 1, "a value is missing after '='"),
            ("a = \"open", 1, "a string needs its closing \" on the same line"),
            ("a = [\"x\" \"y\"]", 1, "an array needs ',' between its values and ']' at its end, on one line"),
            ("a = 1 2", 1, "unexpected '2' after the value"),
            ("a = \"\\q\"", 1, "'\\q' is no escape here; use \\\" \\\\ \\t or \\n"),
        ]
        for (text, line, reason) in cases {
            #expect(throws: ConfigText.Failure(line: line, reason: reason), "\(text)") { try ConfigText(text) }
        }
    }
}
