#if canImport(Glibc)
import Glibc
#endif
import TaskModel
import TextFormats
import _TestSupport
import Testing

/// Issue 55: every picture as `--format svg`, a standalone SVG of the same chart — drawn by a
/// real renderer (`rsvg-convert`, Debian's librsvg2-bin) to PNG and checked for its bars'
/// colours, and its labels present as text.
@Suite("--format svg")
struct SVGTests {
    /// The document: cells on a grid, backgrounds as rectangles, wide characters alone,
    /// markup and controls escaped.
    @Test func terminalTextBecomesADocument() {
        let mark = TerminalText.Mark.self
        let svg = TerminalSVG.document("ab " + mark.onRed.text + "  " + mark.defaultBackground.text + " 한<&>\u{7}\n", title: "T & t")
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""))
        #expect(svg.contains("<title>T &amp; t</title>"))
        #expect(svg.contains("<rect x=\"33.2\" y=\"8\" width=\"16.8\" height=\"18\" fill=\"#d9534f\"/>"), "\(svg)")
        #expect(svg.contains("<text x=\"8\" y=\"22\">ab</text>") && svg.contains(">한</text>") && svg.contains(">&lt;&amp;&gt;?</text>"), "\(svg)")
        // ab, a space, two coloured, a space, 한 (two cells), <&>, the bell: 12 cells.
        #expect(svg.contains("width=\"116.8\" height=\"34\"") && !svg.contains("\u{7}"), "\(svg)")
    }

    /// Each picture, rendered by rsvg-convert: a PNG of the SVG's size, the bars' colours in
    /// it, its labels in the document; a picture's words elsewhere are refused.
    @Test(.enabled(if: tasksBinary != nil && access("/usr/bin/rsvg-convert", X_OK) == 0, "needs the tasks binary and rsvg-convert"))
    func eachPictureRendersWithItsBarsAndLabels() throws {
        let folder = TemporaryFolder()
        writeBytes(folder.file("charts.json"), Array(ChartTests.fixture().utf8))
        writeBytes(folder.file("colours.py"), Array("""
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat = 8, b''
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + length]; pos += 12 + length
                if kind == b'IHDR': width, height, depth, colour = struct.unpack('>IIBB', body[:10])
                if kind == b'IDAT': idat += body
            assert depth == 8 and colour in (2, 6)
            size = 4 if colour == 6 else 3
            raw, rows, previous = zlib.decompress(idat), [], bytearray(width * size)
            for y in range(height):
                line = raw[y * (width * size + 1):(y + 1) * (width * size + 1)]; kind, row = line[0], bytearray(line[1:])
                for i in range(len(row)):
                    a = row[i - size] if i >= size else 0; b = previous[i]; c = previous[i - size] if i >= size else 0
                    if kind == 1: row[i] = (row[i] + a) & 255
                    elif kind == 2: row[i] = (row[i] + b) & 255
                    elif kind == 3: row[i] = (row[i] + (a + b) // 2) & 255
                    elif kind == 4:
                        p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                rows.append(row); previous = row
            wanted = {'red': (217, 83, 79), 'green': (92, 184, 92), 'yellow': (240, 173, 78), 'blue': (51, 122, 183), 'ink': (34, 34, 34)}
            found = {name: 0 for name in wanted}
            for row in rows:
                for x in range(width):
                    pixel = tuple(row[x * size:x * size + 3])
                    for name, rgb in wanted.items():
                        if all(abs(p - q) <= 2 for p, q in zip(pixel, rgb)): found[name] += 1
            print(width, height, ' '.join(name for name in wanted if found[name] > 0))
            """.utf8))
        let result = try tasksShell("""
            export HOME="$PWD" TASKS_DB="$PWD/tasks.db"
            tasks import --format taskwarrior charts.json > /dev/null || exit 9
            id=$(tasks add "할 일 🎉 선물 사기" --due 2026-12-24) && tasks start "$id" > /dev/null || exit 8
            for picture in "burndown daily" "ghistory" "history --graph weekly" "ghistory --numbers" "calendar" "stats" "timesheet"; do
                tasks $picture --format svg > picture.svg || { echo "FAILED $picture"; continue; }
                rsvg-convert -f png -o picture.png picture.svg || { echo "UNRENDERED $picture"; continue; }
                size=$(sed -n 's/.*<svg [^>]*width="\\([0-9.]*\\)" height="\\([0-9.]*\\)".*/\\1 \\2/p' picture.svg | awk '{ printf "%d %d", $1 + 0.999, $2 + 0.999 }')
                echo "$picture: $(python3 colours.py picture.png) | svg $size | $(grep -c '<text' picture.svg) texts"
            done
            grep -q '>할</text>' picture.svg && echo "Hangul alone in its cells"
            tasks list --format svg; echo "list: $?"
            tasks history --format svg; echo "history: $?"
            tasks calendar --details --format svg; echo "details: $?"
            """, in: folder)
        #expect(result.status == 0 && !result.stdout.contains("FAILED") && !result.stdout.contains("UNRENDERED"), "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func line(_ name: String) -> String { lines.first { $0.hasPrefix(name + ":") } ?? "" }
        // The PNG is the SVG's size; the bars are there in their colours, and the text.
        for name in ["burndown daily", "ghistory", "history --graph weekly", "ghistory --numbers", "calendar", "stats", "timesheet"] {
            let parts = line(name).split(separator: "|").map { String($0).trimmingWhitespace }
            let png = parts.first?.split(separator: ":").last?.split(separator: " ").prefix(2).joined(separator: " ") ?? ""
            #expect(parts.count == 3 && "svg " + png == parts[1] && parts[0].contains("ink"), "\(name): \(line(name))")
        }
        #expect(line("burndown daily").contains("red") && line("burndown daily").contains("green") && line("burndown daily").contains("yellow"), "\(result)")
        #expect(line("ghistory").contains("red") && line("ghistory").contains("green") && line("ghistory").contains("yellow"), "\(result)")
        #expect(line("calendar").contains("blue") || line("calendar").contains("red"), "\(result)")
        #expect(result.stdout.contains("Hangul alone in its cells"), "\(result)")
        #expect(result.stdout.contains("list: 2\n") && result.stdout.contains("history: 2\n") && result.stdout.contains("details: 2\n"), "\(result)")
    }
}
