#if canImport(Glibc)
import Glibc
#endif
import _TestSupport
import TaskModel
@testable import TaskRemote
import Testing

/// `ZoneInfo` reads the system's zone database the way the C library does: compared with
/// `date` (glibc, `TZ=` each zone) at moments from 1900 to 2100 — past the files' last
/// transitions, where the footer's rule decides — in zones north and south, with half hours,
/// a 45-minute offset and Dublin's negative daylight saving time. And an iCalendar TZID that
/// comes without its VTIMEZONE is read in its zone (issue 54).
@Suite("The system's zone database, read as glibc reads it", .enabled(if: access("/usr/share/zoneinfo/America/Chicago", R_OK) == 0, "needs tzdata"))
struct ZoneInfoTests {
    static let zones = ["America/Chicago", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham",
                        "Europe/Dublin", "America/Sao_Paulo", "Asia/Tokyo", "UTC"]

    @Test(arguments: zones)
    func offsetsAreGlibcs(zone name: String) throws {
        let zone = try #require(ZoneInfo.named(name), "\(name) is read")
        // Moments from 1900 to 2100, spread, and either side of this year's changes.
        var moments: [Int64] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 { moments.append(Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)) }
        for hour in stride(from: Int64(1_774_000_000), to: 1_798_000_000, by: 3600 * 37) { moments.append(hour) }
        let folder = TemporaryFolder()
        writeBytes(folder.file("moments"), Array(moments.map { "@\($0)" }.joined(separator: "\n").utf8))
        let result = runShell("TZ=\(name) date -f moments +%z", in: folder)
        try #require(result.status == 0, "\(result)")
        let theirs = result.stdout.split(separator: "\n").map { line -> Int in
            let sign = line.hasPrefix("-") ? -1 : 1
            let digits = line.dropFirst()
            return sign * ((Int(digits.prefix(2)) ?? 0) * 3600 + (Int(digits.dropFirst(2).prefix(2)) ?? 0) * 60)
        }
        try #require(theirs.count == moments.count)
        var differing: [String] = []
        for (moment, their) in zip(moments, theirs) where zone.offset(atUTC: moment) != their {
            // date prints whole minutes: an offset with seconds (before 1900-ish LMT) is cut.
            if abs(zone.offset(atUTC: moment) - their) < 60 { continue }
            differing.append("@\(moment): ours \(zone.offset(atUTC: moment)), glibc's \(their)")
        }
        #expect(differing.isEmpty, "\(name): \(differing.prefix(5))")
    }

    @Test func aLocalReadingIsTheMomentMktimeGives() throws {
        let chicago = try #require(ZoneInfo.named("America/Chicago"))
        let day = try #require(CalendarDay(year: 2026, month: 12, day: 7))
        let wall = Int64(day.daysSince1970) * 86_400 + 14 * 3600
        #expect(chicago.offset(atLocal: wall) == -6 * 3600)
        let summer = try #require(CalendarDay(year: 2026, month: 7, day: 1))
        #expect(chicago.offset(atLocal: Int64(summer.daysSince1970) * 86_400 + 9 * 3600) == -5 * 3600)
        // 02:30 on the day the clock skips it is read in the time before the change (as mktime).
        let spring = try #require(CalendarDay(year: 2026, month: 3, day: 8))
        #expect(chicago.offset(atLocal: Int64(spring.daysSince1970) * 86_400 + 2 * 3600 + 1800) == -6 * 3600)
        let local = chicago.localTime
        #expect(local.name == "America/Chicago")
        #expect(local.moment(day, 14 * 3600).millisecondsSince1970 == (wall + 6 * 3600) * 1000)
    }

    @Test func namesThatAreNotZonesAndFilesThatAreNotTZifMakeNone() {
        for name in ["", "/etc/passwd", "../../etc/passwd", "Europe/../../etc/passwd", "Europe//Berlin", "Mars/Olympus_Mons", "Europe/Berlin\u{0}x"] {
            #expect(ZoneInfo.named(name) == nil, "\(name)")
        }
        var generator = SystemRandomNumberGenerator()
        let real = readBytes("/usr/share/zoneinfo/Europe/Berlin")
        #expect(ZoneInfo.parse(real, name: "x") != nil)
        for cut in stride(from: 0, to: real.count - 1, by: 97) {
            // Cut short anywhere before its footer's end: none, and never a trap.
            if cut < real.count - 30 { #expect(ZoneInfo.parse(Array(real[0..<cut]), name: "x") == nil, "cut at \(cut)") }
        }
        for _ in 0..<200 {
            var bytes = real
            for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = ZoneInfo.parse(bytes, name: "x")  // any answer but a crash
        }
        #expect(ZoneInfo.parse(Array("TZif2".utf8) + [UInt8](repeating: 0xFF, count: 60), name: "x") == nil, "counts past the file")
    }

    @Test func aTZIDWithoutItsVTIMEZONEIsReadInItsZone() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:x\r\nSUMMARY:Call\r\nDUE;TZID=America/Chicago:20261207T140000\r\n"
            + "DTSTART;TZID=/mozilla.org/20050126_1/Europe/Berlin:20261207T090000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let fields = VTodoMapping.fields(of: ICalendar(text), zone: LocalTime.fixed(offsetSeconds: 3600))
        #expect(fields["due"] == .text("2026-12-07T14:00:00-06:00[America/Chicago]"))
        #expect(fields["wait"] == .text("2026-12-07T09:00:00+01:00[Europe/Berlin]"))
    }

    /// Moments and readings at the ends of Int64, and dates at the ends of what an item can
    /// say, answer without a trap (a value a server or a file sent may be anything).
    @Test func extremeMomentsAndReadingsAnswerWithoutATrap() throws {
        for name in ["America/Chicago", "Australia/Sydney", "UTC"] {
            let zone = try #require(ZoneInfo.named(name))
            for moment in [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 0] {
                #expect(abs(zone.offset(atUTC: moment)) < 86_400)
                #expect(abs(zone.offset(atLocal: moment)) < 86_400)
                let local = zone.localTime
                _ = local.clock(Timestamp(millisecondsSince1970: moment))
                _ = local.day(Timestamp(millisecondsSince1970: moment))
            }
            for day in [CalendarDay(year: 1, month: 1, day: 1), CalendarDay(year: 9999, month: 12, day: 31)].compactMap({ $0 }) {
                _ = zone.localTime.moment(day, 86_399)
                _ = zone.localTime.moment(day, Int.max)
                _ = zone.localTime.moment(day, Int.min)
            }
        }
        #expect(ZoneInfo.sum(.max, 1) == .max && ZoneInfo.sum(.min, -1) == .min && ZoneInfo.sum(1, 2) == 3)
        let epoch = try #require(CalendarDay(year: 1970, month: 1, day: 1))
        #expect(ZoneInfo.wall(epoch, Int.max) == .max && ZoneInfo.wall(epoch, Int.min + 1) == Int64(Int.min + 1))
        // Items at the ends of what iCalendar's digits say, and a start of Int64.max.
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:x\r\nSUMMARY:Far\r\nSTATUS:IN-PROCESS\r\n"
            + "X-TASKS-START:9223372036854775807\r\nLAST-MODIFIED:99991231T235959Z\r\n"
            + "DUE;TZID=America/Chicago:99991231T235959\r\nDTSTART;TZID=Australia/Sydney:00010101T000000\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        var calendar = ICalendar(text)
        let fields = VTodoMapping.fields(of: calendar, zone: LocalTime.fixed(offsetSeconds: 3600))
        #expect(fields["start"] == .integer(Int64.max))
        #expect(fields["due"]?.text?.hasPrefix("9999-12-31T23:59:59-06:00") == true, "\(String(describing: fields["due"]))")
        VTodoMapping.write(["title": .text("Far, renamed")], into: &calendar, now: Timestamp(millisecondsSince1970: 0))
        #expect(calendar.text.contains("X-TASKS-START:9223372036854775807"))
        // Without a start of its own: the one read from LAST-MODIFIED is written as it was read.
        var late = ICalendar(text.replacingOccurrences("X-TASKS-START:9223372036854775807\r\n", ""))
        VTodoMapping.write(["title": .text("Late")], into: &late, now: Timestamp(millisecondsSince1970: 0))
        #expect(late.text.contains("X-TASKS-START:253402300799000"))
    }
}
