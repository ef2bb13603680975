import QueryLanguage
import Testing
@testable import TaskModel

/// The filter grammar's words, trees and refusals (what they select is in TaskStoreTests'
/// FilterSQLTests, evaluated both in SQL and in Swift).
@Suite("The filter grammar")
struct FilterParserTests {
    static let today = CalendarDay(year: 2026, month: 12, day: 2) ?? .unixEpoch  // a Wednesday
    let parser = FilterParser(settings: FilterSettings(
        dates: DateContext(now: Timestamp(millisecondsSince1970: Int64(today.daysSince1970) * 86_400_000), today: today, zone: .fixed(offsetSeconds: 0)),
        customFields: ["estimate": CustomField(name: "estimate", kind: .duration)]))

    func tree(_ text: String) throws -> String {
        try parser.parse(try FilterParser.words(of: text)).filter?.explained().joined(separator: "\n") ?? "(none)"
    }

    func refusal(_ text: String) -> String {
        do {
            _ = try parser.parse(try FilterParser.words(of: text))
            return "(read)"
        } catch {
            return error.description
        }
    }

    @Test func eachFormReadsAsItsTerm() throws {
        #expect(try tree("+bills") == "+bills")
        #expect(try tree("-bills") == "not\n  +bills")
        #expect(try tree("project:Work") == "list:Work (and Work.*)")
        #expect(try tree("list.is:Work") == "list.is:Work")
        #expect(try tree("pri:H") == "priority:H", "a name shortened to where only one field starts so")
        #expect(try tree("priority:") == "priority: (none)")
        #expect(try tree("priority.above:L") == "priority.after:L")
        #expect(try tree("due.before:eow") == "due.before:2026-12-06")
        #expect(try tree("due.by:2026-12-04T17:00") == "due.by:2026-12-04T17:00:00+00:00")
        #expect(try tree("due:") == "due: (none)")
        #expect(try tree("+TODAY") == "+TODAY (due:2026-12-02)")
        #expect(try tree("+WEEK") == "+WEEK (due from 2026-11-30 through 2026-12-06)")
        #expect(try tree("status:completed") == "status:done")
        #expect(try tree("1-3,5") == "id 1-3,5")
        #expect(try tree("01a23702") == "uuid 01a23702…")
        #expect(try tree("deadbeef") == "text contains \"deadbeef\"", "hex letters alone are a word")
        #expect(try tree("\"Oat Milk\"") == "text contains \"oat milk\"")
        #expect(try tree("estimate.after:90min") == "estimate.after:5400s")
        #expect(try tree("limit:5") == "(none)")
        #expect(try parser.parse(["limit:5"]).limit == 5)
    }

    @Test func andBindsTighterThanOrAndParenthesesGroup() throws {
        #expect(try tree("+a or +b +c") == "or\n  +a\n  and\n    +b\n    +c")
        #expect(try tree("(+a or +b) +c") == "and\n  or\n    +a\n    +b\n  +c")
        #expect(try tree("not +a and +b") == "and\n  not\n    +a\n  +b")
        #expect(try tree("+a xor +b") == "xor\n  +a\n  +b")
        #expect(try tree("((+a))") == "+a")
    }

    @Test func aWordThatNamesNothingIsRefusedWithItsPlaceAndTheClosestSpelling() {
        #expect(refusal("+a due:tomorow").hasPrefix("filter word 2 'due:tomorow': 'tomorow' is not a date"))
        #expect(refusal("+a due:tomorow").hasSuffix("did you mean 'due:tomorrow'?"))
        #expect(refusal("prioroty:H").hasSuffix("did you mean 'priority:H'?"))
        #expect(refusal("due.befor:fri") == "filter word 1 'due.befor:fri': no modifier 'befor'; 'due' takes .is, .not, .before, .after, .by, .none, .any; did you mean 'due.before:fri'?")
        #expect(refusal("(+a or +b") == "filter word 1 '(': this parenthesis is not closed")
        #expect(refusal("+a )") == "filter word 2 ')': this parenthesis closes nothing")
        #expect(refusal("+a or") == "filter word 2 'or': 'or' needs a word after it")
        #expect(refusal("and +a") == "filter word 1 'and': 'and' needs a word before it")
        #expect(refusal("()") == "filter word 1 '()': empty parentheses")
        #expect(refusal("+OVERDU") == "filter word 1 '+OVERDU': 'OVERDU' is no virtual tag (a tag in capitals that is one letter off one is taken for a typo); did you mean '+OVERDUE'?")
        #expect(refusal("3-1") == "filter word 1 '3-1': the range 3-1 runs backwards; did you mean '1-3'?")
        #expect(refusal("-4").hasPrefix("filter word 1 '-4': '-4' is not a task id"))
        #expect(refusal("status:gone").hasPrefix("filter word 1 'status:gone': 'gone' is not a status"))
        #expect(refusal("priority:X") == "filter word 1 'priority:X': 'X' is not a priority; use H, M or L")
        #expect(refusal("/[a/").hasPrefix("filter word 1 '/[a/': not a regular expression"))
        #expect(refusal("estimate:soon").hasPrefix("filter word 1 'estimate:soon': 'soon' is not a length of time"))
        #expect(refusal("title.before:x") == "filter word 1 'title.before:x': 'title' takes .is, .not, .contains, .startswith, .endswith, .none, .any, not .before")
        #expect(refusal("\"open") == "filter word 1 'open': a quote is not closed")
        #expect(refusal("+URGENT") == "(read)", "capitals far from every virtual tag are a tag")
    }
}
