import Testing
import TextFormats

struct JoiningTests {
    @Test(arguments: [[], [""], ["a"], ["a", "b"], ["", "", ""], ["할 일", "🥛", "x y"]] as [[String]])
    func concatenatedIsWhatJoinedGives(parts: [String]) {
        #expect(parts.concatenated(separator: ", ") == parts.joined(separator: ", "))
        #expect(parts.concatenated(separator: "") == parts.joined())
    }
}
