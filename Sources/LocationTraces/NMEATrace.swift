import Foundation
import OffgridCore

/// NMEA 0183 logs as GPS receivers write them: `$GPRMC` / `$GNRMC` (date, time, position,
/// course, status) and `$GPGGA` (time, position, fix quality, HDOP), any talker.
///
/// Sentences with the same time of day make one fix: position from either, course from RMC,
/// accuracy from GGA's HDOP × 5 m (as for GPX). A sentence saying there is no fix (RMC status
/// `V`, GGA quality 0, empty position) makes a fix without a position (NaN), kept in its place
/// so a matcher reports it unmatched. GGA carries no date: it takes the last RMC's date (or
/// counts from day 0), and a time of day going backwards is the next day. Other sentences are
/// skipped; a checksum (`*hh`), when present, must agree; a line that is no sentence, a bad
/// checksum or a bad field fails naming the file and line.
public enum NMEATrace {
    public static func parse(_ text: String, file: String) throws -> [LocationFix] {
        var fixes: [LocationFix] = []
        var dayStart: Double?          // seconds of the last RMC date's midnight
        var lastSecondOfDay = -1.0
        var dayOffset = 0.0            // days added since the last date for rollover
        var lineNumber = 0
        var sawSentence = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            func fail(_ m: String) -> InputError { InputError(file: file, "line \(lineNumber): \(m)") }
            guard line.hasPrefix("$") || line.hasPrefix("!") else { throw fail("not an NMEA sentence (it must start with $)") }
            let body = try checkedBody(Substring(line.dropFirst()), fail)
            let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let kind = fields.first, kind.utf8.count >= 5, kind.utf8.count <= 6,
                  kind.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }) else { throw fail("no sentence type") }
            let type = kind.suffix(3)
            guard type == "RMC" || type == "GGA" else { continue }
            sawSentence = true
            func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
            guard let secondOfDay = timeOfDay(field(1)) else { throw fail("\(type) time \(field(1).debugDescription) is not hhmmss") }
            var valid: Bool
            var course: Double?
            let position: (lon: Double, lat: Double)?
            if type == "RMC" {
                valid = field(2) == "A"
                position = try coordinates(field(3), field(4), field(5), field(6), fail)
                if let c = Double(field(8)), c.isFinite, c >= 0, c <= 360 { course = c.truncatingRemainder(dividingBy: 360) }
                if !field(9).isEmpty {
                    guard let day = date(field(9)) else { throw fail("RMC date \(field(9).debugDescription) is not ddmmyy") }
                    if dayStart != day { dayOffset = 0; lastSecondOfDay = -1 }
                    dayStart = day
                }
            } else {
                valid = (Int(field(6)) ?? 0) > 0
                position = try coordinates(field(2), field(3), field(4), field(5), fail)
            }
            if secondOfDay < lastSecondOfDay - 1e-6 { dayOffset += 86_400 }
            lastSecondOfDay = secondOfDay
            let time = (dayStart ?? 0) + dayOffset + secondOfDay
            if position == nil { valid = false }
            var fix = LocationFix(time: time, lon: valid ? position!.lon : .nan, lat: valid ? position!.lat : .nan)
            fix.course = course
            if type == "GGA", let hdop = Double(field(8)), hdop.isFinite, hdop > 0 { fix.accuracy = hdop * 5 }
            // The same instant as the previous sentence: one fix, completed.
            if let last = fixes.last, abs(last.time - time) < 1e-6 {
                var merged = last
                if merged.lat.isNaN && valid { merged.lat = fix.lat; merged.lon = fix.lon }
                merged.course = merged.course ?? fix.course
                merged.accuracy = merged.accuracy ?? fix.accuracy
                fixes[fixes.count - 1] = merged
            } else {
                fixes.append(fix)
            }
        }
        guard sawSentence else {
            throw InputError(file: file, lineNumber == 0 || text.allSatisfy(\.isWhitespace) ? "empty trace" : "no RMC or GGA sentences")
        }
        return fixes
    }

    /// The sentence between `$` and `*`, its checksum (XOR of those bytes) checked when given.
    static func checkedBody(_ s: Substring, _ fail: (String) -> InputError) throws -> Substring {
        guard let star = s.lastIndex(of: "*") else { return s }
        let body = s[..<star], given = s[s.index(after: star)...]
        guard given.count == 2, let value = UInt8(given, radix: 16) else { throw fail("checksum \(String(given).debugDescription) is not two hex digits") }
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        guard sum == value else { throw fail("checksum \(given) does not match the sentence (\(String(format: "%02X", sum)))") }
        return body
    }

    /// hhmmss(.sss) → seconds of the day.
    static func timeOfDay(_ t: String) -> Double? {
        let b = Array(t.utf8)
        guard b.count >= 6, b[0..<6].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func two(_ i: Int) -> Int { Int(b[i] - 48) * 10 + Int(b[i + 1] - 48) }
        let h = two(0), m = two(2)
        guard h <= 23, m <= 59, let s = Double(String(decoding: b[4...], as: UTF8.self)), s >= 0, s < 61 else { return nil }
        return Double(h * 3600 + m * 60) + s
    }

    /// ddmmyy → seconds of that date's midnight (years 80–99 are 1900s).
    static func date(_ d: String) -> Double? {
        let b = Array(d.utf8)
        guard b.count == 6, b.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func two(_ i: Int) -> Int { Int(b[i] - 48) * 10 + Int(b[i + 1] - 48) }
        let day = two(0), month = two(2), yy = two(4)
        let year = yy >= 80 ? 1900 + yy : 2000 + yy
        guard (1...12).contains(month), day >= 1, day <= LocationTrace.daysInMonth(year, month) else { return nil }
        return Double(LocationTrace.daysFromCivil(year, month, day) * 86_400)
    }

    /// ddmm.mmmm,N|S and dddmm.mmmm,E|W → degrees; nil when empty (no fix), an error when malformed.
    static func coordinates(_ lat: String, _ ns: String, _ lon: String, _ ew: String,
                            _ fail: (String) -> InputError) throws -> (lon: Double, lat: Double)? {
        if lat.isEmpty && lon.isEmpty { return nil }
        func degrees(_ text: String, _ degreeDigits: Int, _ what: String) throws -> Double {
            guard text.count > degreeDigits, let d = Int(text.prefix(degreeDigits)), let m = Double(text.dropFirst(degreeDigits)),
                  m.isFinite, m >= 0, m < 60 else { throw fail("\(what) \(text.debugDescription) is not d(d)dmm.mmmm") }
            return Double(d) + m / 60
        }
        var la = try degrees(lat, 2, "latitude"), lo = try degrees(lon, 3, "longitude")
        switch ns { case "N": break; case "S": la = -la; default: throw fail("latitude hemisphere \(ns.debugDescription) is not N or S") }
        switch ew { case "E": break; case "W": lo = -lo; default: throw fail("longitude hemisphere \(ew.debugDescription) is not E or W") }
        guard la <= 90, lo <= 180, la >= -90, lo >= -180 else { throw fail("position \(lat),\(lon) out of range") }
        return (lo, la)
    }
}
