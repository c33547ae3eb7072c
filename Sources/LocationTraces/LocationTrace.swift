import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import OffgridCore

/// One position report of a moving device.
public struct LocationFix: Equatable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z (or since any origin, for traces given in seconds).
    public var time: Double
    public var lon: Double
    public var lat: Double
    /// Horizontal accuracy radius, metres; nil when unknown.
    public var accuracy: Double?
    /// Direction of travel, degrees clockwise from north in 0 ..< 360; nil when unknown.
    public var course: Double?

    public init(time: Double, lon: Double, lat: Double, accuracy: Double? = nil, course: Double? = nil) {
        self.time = time
        self.lon = lon
        self.lat = lat
        self.accuracy = accuracy
        self.course = course
    }
}

/// Reads location traces: CSV with a header, or GPX 1.1 track points.
///
/// CSV: columns in any order, named (case-insensitively) `time`/`timestamp`, `lon`/`lng`/
/// `longitude`, `lat`/`latitude`, and optionally `accuracy` and `course`/`bearing`/`heading`;
/// other columns are ignored. Separator `,` (or `;` / tab when the header has no comma); blank
/// lines and lines starting with `#` are skipped. Times are ISO 8601 (UTC unless an offset is
/// given) or plain seconds. As in CoreLocation, a negative accuracy or course means unknown.
/// Fixes must be in time order. Errors name the file and line: `trace.csv: line 7: latitude
/// 123 out of range`.
public enum LocationTrace {
    /// Reads a trace file: GPX when it ends in `.gpx` or starts with `<`, CSV otherwise.
    public static func read(path: String) throws -> [LocationFix] {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError(file: path, "cannot read the trace file") }
        let firstByte = data.first { !(UInt8(ascii: " ") == $0 || (9...13).contains($0)) }
        if path.lowercased().hasSuffix(".gpx") || firstByte == UInt8(ascii: "<") { return try parseGPX(data, file: path) }
        guard let text = String(data: data, encoding: .utf8) else { throw InputError(file: path, "trace is not UTF-8 text") }
        return try parseCSV(text, file: path)
    }

    // MARK: - CSV

    enum Column: CaseIterable {
        case time, lon, lat, accuracy, course
        var names: [String] {
            switch self {
            case .time: return ["time", "timestamp", "datetime"]
            case .lon: return ["lon", "lng", "long", "longitude"]
            case .lat: return ["lat", "latitude"]
            case .accuracy: return ["accuracy", "acc", "horizontal_accuracy", "horizontalaccuracy", "hacc"]
            case .course: return ["course", "bearing", "heading"]
            }
        }
    }

    public static func parseCSV(_ text: String, file: String) throws -> [LocationFix] {
        var columns: [Column: Int]?
        var separator: Character = ","
        var fixes: [LocationFix] = []
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so it is a separator of its own.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            func fail(_ message: String) -> InputError { InputError(file: file, "line \(lineNumber): \(message)") }
            guard let header = columns else {
                if !line.contains(","), let other = [";", "\t"].first(where: { line.contains($0) }) { separator = Character(other) }
                columns = try headerColumns(splitFields(line, separator), fail)
                continue
            }
            let fields = splitFields(line, separator)
            // Optional columns at the end may be left off a line.
            let needed = max(header[.time]!, header[.lon]!, header[.lat]!) + 1
            guard fields.count >= needed else { throw fail("expected at least \(needed) fields, found \(fields.count)") }
            func optional(_ c: Column) -> String? { header[c].flatMap { $0 < fields.count ? fields[$0] : nil } }
            let fix = try makeFix(time: fields[header[.time]!], lon: fields[header[.lon]!], lat: fields[header[.lat]!],
                                  accuracy: optional(.accuracy), course: optional(.course), fail)
            if let last = fixes.last, fix.time < last.time { throw fail("time \(fields[header[.time]!]) is before the previous fix") }
            fixes.append(fix)
        }
        guard columns != nil else { throw InputError(file: file, "empty trace (no header, no fixes)") }
        guard !fixes.isEmpty else { throw InputError(file: file, "no location fixes after the header") }
        return fixes
    }

    static func headerColumns(_ names: [String], _ fail: (String) -> InputError) throws -> [Column: Int] {
        var found: [Column: Int] = [:]
        for (i, raw) in names.enumerated() {
            let name = raw.lowercased()
            guard let column = Column.allCases.first(where: { $0.names.contains(name) }) else { continue }
            guard found[column] == nil else { throw fail("two \(column) columns (\(names[found[column]!]) and \(raw))") }
            found[column] = i
        }
        for column in [Column.time, .lon, .lat] where found[column] == nil {
            throw fail("no \(column) column in the header (expected one of: \(column.names.joined(separator: ", ")))")
        }
        return found
    }

    /// Fields of one line; a field may be quoted (`"…"`, with `""` for a quote).
    static func splitFields<S: StringProtocol>(_ line: S, _ separator: Character) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var iterator = line.makeIterator()
        while let c = iterator.next() {
            if quoted {
                if c == "\"" {
                    var lookahead = iterator
                    if lookahead.next() == "\"" { current.append("\""); iterator = lookahead } else { quoted = false }
                } else {
                    current.append(c)
                }
            } else if c == "\"" && current.allSatisfy(\.isWhitespace) {
                current = ""
                quoted = true
            } else if c == separator {
                fields.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(c)
            }
        }
        fields.append(current.trimmingCharacters(in: .whitespaces))
        return fields
    }

    /// A checked fix from field texts (nil or empty optional fields are unknown).
    static func makeFix(time: String, lon: String, lat: String, accuracy: String?, course: String?,
                        _ fail: (String) -> InputError) throws -> LocationFix {
        guard let t = parseTime(time) else { throw fail("time \(time.debugDescription) is neither ISO 8601 nor seconds") }
        func number(_ text: String, _ what: String) throws -> Double {
            guard let v = Double(text), v.isFinite else { throw fail("\(what) \(text.debugDescription) is not a number") }
            return v
        }
        let latitude = try number(lat, "latitude"), longitude = try number(lon, "longitude")
        guard abs(latitude) <= 90 else { throw fail("latitude \(lat) out of range") }
        guard abs(longitude) <= 180 else { throw fail("longitude \(lon) out of range") }
        var fix = LocationFix(time: t, lon: longitude, lat: latitude)
        if let accuracy, !accuracy.isEmpty {
            let a = try number(accuracy, "accuracy")
            fix.accuracy = a < 0 ? nil : a
        }
        if let course, !course.isEmpty {
            let c = try number(course, "course")
            guard c <= 360 else { throw fail("course \(course) out of range") }
            fix.course = c < 0 ? nil : c.truncatingRemainder(dividingBy: 360)
        }
        return fix
    }

    // MARK: - Time

    /// Seconds since the epoch from ISO 8601 (`2024-05-01T12:00:00Z`, `…T12:00:00.25+02:00`,
    /// a space instead of `T`, no zone = UTC) or from a plain number of seconds.
    public static func parseTime(_ text: String) -> Double? {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(s) { return seconds.isFinite ? seconds : nil }
        return parseISO8601(Array(s.utf8))
    }

    static func parseISO8601(_ b: [UInt8]) -> Double? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard b[k] >= 48 && b[k] <= 57 else { return nil }
                v = v * 10 + Int(b[k] - 48)
            }
            i += n
            return v
        }
        func skip(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), skip("-"), let month = digits(2), skip("-"), let day = digits(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month) else { return nil }
        guard i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = digits(2), skip(":"), let minute = digits(2), hour <= 23, minute <= 59 else { return nil }
        var second = 0.0
        if skip(":") {
            guard let whole = digits(2), whole <= 60 else { return nil }
            second = Double(whole)
            if skip(".") || skip(",") {
                var scale = 0.1
                let start = i
                while i < b.count, b[i] >= 48 && b[i] <= 57 { second += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
                guard i > start else { return nil }
            }
        }
        var offset = 0
        if skip("Z") || skip("z") {
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2), oh <= 23 else { return nil }
            _ = skip(":")
            let om = i < b.count ? digits(2) : 0
            guard let om, om <= 59 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year, month, day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
    }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: - GPX

    /// Track points (`<trk><trkseg><trkpt lat lon>`) with `<time>`, in document order.
    /// Accuracy comes from an `accuracy`/`hacc` element (any namespace, e.g. in
    /// `<extensions>`), else from `<hdop>` × 5 m (hdop is a dilution factor, not metres; 5 m
    /// is a typical consumer GPS range error). Course from `<course>` (GPX 1.0 or extension).
    public static func parseGPX(_ data: Data, file: String) throws -> [LocationFix] {
        guard !data.allSatisfy({ $0 == 32 || (9...13).contains($0) }) else { throw InputError(file: file, "empty trace") }
        // Foundation's XMLParser traps (SIGILL) on an element name that is not UTF-8 (found by
        // fuzz-location-trace, docs/TESTING.md): GPX is UTF-8, so anything else is refused first.
        if let offset = firstInvalidUTF8(data) {
            throw InputError(file: file, offset: offset, "not UTF-8 text (a GPX file is UTF-8)")
        }
        let reader = GPXTrackReader(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldProcessNamespaces = false
        let ok = parser.parse()
        if let error = reader.error { throw error }
        guard ok else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw InputError(file: file, "line \(parser.lineNumber): not valid XML (\(reason))")
        }
        // Some XMLParser builds accept a document cut off inside an element.
        if let open = reader.openElements.last {
            throw InputError(file: file, "line \(parser.lineNumber): not valid XML (the file ends inside <\(open)>)")
        }
        guard !reader.fixes.isEmpty else { throw InputError(file: file, "no track points (<trkpt>) in the GPX file") }
        return reader.fixes
    }

    /// The byte offset of the first byte that does not start a valid UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ data: Data) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

/// XMLParser delegate collecting GPX track points.
private final class GPXTrackReader: NSObject, XMLParserDelegate {
    let file: String
    var fixes: [LocationFix] = []
    var error: InputError?
    private var point: (lat: String?, lon: String?, line: Int)?
    private var fields: [String: String] = [:]
    private var text = ""
    private(set) var openElements: [String] = []

    init(file: String) { self.file = file }

    private static func localName(_ name: String) -> String {
        String(name.split(separator: ":").last ?? Substring(name)).lowercased()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        openElements.append(elementName)
        let name = Self.localName(elementName)
        if name == "trkpt" {
            point = (attributes["lat"], attributes["lon"], parser.lineNumber)
            fields = [:]
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = openElements.popLast()
        guard let p = point else { return }
        let name = Self.localName(elementName)
        guard name == "trkpt" else {
            fields[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
            text = ""
            return
        }
        point = nil
        let fail = { (message: String) in InputError(file: self.file, "line \(p.line): \(message)") }
        do {
            guard let lat = p.lat, let lon = p.lon else { throw fail("<trkpt> without lat and lon attributes") }
            guard let time = fields["time"] else { throw fail("<trkpt> without <time>") }
            var accuracy = fields["accuracy"] ?? fields["hacc"] ?? fields["horizontal_accuracy"]
            if accuracy == nil, let hdop = fields["hdop"], let h = Double(hdop), h.isFinite { accuracy = String(h * 5) }
            let fix = try LocationTrace.makeFix(time: time, lon: lon, lat: lat, accuracy: accuracy, course: fields["course"], fail)
            if let last = fixes.last, fix.time < last.time { throw fail("time \(time) is before the previous fix") }
            fixes.append(fix)
        } catch let e as InputError {
            error = e
            parser.abortParsing()
        } catch {}
    }
}
