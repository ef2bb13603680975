import TaskModel
import Testing
@testable import TaskInterchange

@Suite struct SyncFieldsJSONTests {
    /// The fields read by position (each key compared in place with the one `jsonb` prints
    /// next) are the fields read by name, however the keys come: in `jsonb`'s order with its
    /// spaces, in another order without them, written with escapes, unknown, or `deleted`.
    @Test func readByPositionAsByName() throws {
        let names = SyncFieldsJSON.jsonbOrder.map(\.name)
        #expect(Set(names) == Set(SyncField.all))
        func value(_ place: Int) -> String { place % 3 == 0 ? "null" : place % 3 == 1 ? "\"v\(place) 한\"" : "\(place - 40)" }
        let inputs = [
            "{" + names.enumerated().map { "\"\($1)\": \(value($0))" }.joined(separator: ", ") + "}",
            "{" + names.reversed().enumerated().map { "\"\($1)\":\(value($0))" }.joined(separator: ",") + ",\"deleted\":1,\"other\":\"x\"}",
            #"{"ti\u0074le": "t", "list": "L", "deleted": null}"#,
            "{ \"title\" :  \"a\" ,\n\"title\": \"b\" }",
            "{}",
        ]
        for input in inputs {
            let byName = try SyncFieldsJSON.decode(input)
            let (values, deleted) = try SyncFieldsJSON.decodeIndexed(Array(input.utf8))
            for (place, name) in SyncField.all.enumerated() {
                #expect(values[place] == byName[name], "\(name) in \(input)")
            }
            #expect(deleted == byName[SyncField.deleted], "deleted in \(input)")
        }
        let both = try SyncFieldsJSON.decodeIndexed(Array(inputs[2].utf8))
        let title = try #require(SyncField.all.firstIndex(of: "title"))
        #expect(both.values[title] == .text("t"))
        #expect(both.deleted == .null)
        for bad in ["{\"title\": 1.5}", "{\"title\": \"a\"} x", "{\"title\" \"a\"}", "[]"] {
            #expect(throws: SyncFieldsError.self, "\(bad)") { try SyncFieldsJSON.decodeIndexed(Array(bad.utf8)) }
        }
    }
}
