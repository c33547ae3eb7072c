import Foundation
import LocationTraces
import OffgridCore
import TestSupport
import XCTest

/// NMEA 0183 logs: RMC and GGA merged per instant, checksums, no-fix sentences, bad lines.
final class NMEATraceTests: XCTestCase {
    /// `$body*hh` with the right checksum.
    static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        return "$" + body + "*" + String(format: "%02X", sum)
    }

    func testRMCAndGGAOfOneInstantMakeOneFix() throws {
        let text = [
            Self.sentence("GPRMC,120000.00,A,4708.4600,N,00931.2540,E,20.5,87.5,030524,,,A"),
            Self.sentence("GPGGA,120000.00,4708.4600,N,00931.2540,E,1,08,1.2,455.0,M,47.0,M,,"),
            Self.sentence("GPGSV,3,1,12,01,40,083,46"),
            Self.sentence("GNRMC,120001.00,A,4708.4650,N,00931.2600,E,20.5,88.0,030524,,,A"),
        ].joined(separator: "\r\n")
        let fixes = try NMEATrace.parse(text, file: "drive.nmea")
        XCTAssertEqual(fixes.count, 2)
        XCTAssertEqual(fixes[0].lat, 47 + 8.46 / 60, accuracy: 1e-9)
        XCTAssertEqual(fixes[0].lon, 9 + 31.254 / 60, accuracy: 1e-9)
        XCTAssertEqual(fixes[0].course, 87.5)
        XCTAssertEqual(fixes[0].accuracy, 6.0)
        XCTAssertEqual(fixes[0].time, try XCTUnwrap(LocationTrace.parseTime("2024-05-03T12:00:00Z")))
        XCTAssertEqual(fixes[1].time - fixes[0].time, 1)
        XCTAssertNil(fixes[1].accuracy)
    }

    func testSouthWestAndMidnightRollover() throws {
        let text = [
            Self.sentence("GPGGA,235959,3352.0000,S,15112.0000,W,1,05,2.0,10,M,,M,,"),
            Self.sentence("GPGGA,000001,3352.0010,S,15112.0010,W,1,05,2.0,10,M,,M,,"),
        ].joined(separator: "\n")
        let fixes = try NMEATrace.parse(text, file: "t.nmea")
        XCTAssertEqual(fixes.count, 2)
        XCTAssertLessThan(fixes[0].lat, 0)
        XCTAssertLessThan(fixes[0].lon, 0)
        XCTAssertEqual(fixes[1].time - fixes[0].time, 2)
    }

    func testNoFixSentencesStayInPlaceWithoutPosition() throws {
        let text = [
            Self.sentence("GPRMC,120000,A,4708.4600,N,00931.2540,E,0,0,030524,,"),
            Self.sentence("GPRMC,120001,V,,,,,,,030524,,"),
            Self.sentence("GPGGA,120002,4708.4600,N,00931.2540,E,0,00,,,M,,M,,"),
            Self.sentence("GPRMC,120003,A,4708.4700,N,00931.2540,E,0,0,030524,,"),
        ].joined(separator: "\n")
        let fixes = try NMEATrace.parse(text, file: "t.nmea")
        XCTAssertEqual(fixes.count, 4)
        XCTAssertTrue(fixes[1].lat.isNaN)
        XCTAssertTrue(fixes[2].lat.isNaN, "GGA quality 0 is no fix")
        XCTAssertFalse(fixes[3].lat.isNaN)
    }

    func testBadChecksumNamesFileAndLine() {
        let good = Self.sentence("GPRMC,120000,A,4708.4600,N,00931.2540,E,0,0,030524,,")
        let bad = "$GPRMC,120001,A,4708.4600,N,00931.2540,E,0,0,030524,,*00"
        XCTAssertThrowsError(try NMEATrace.parse(good + "\n" + bad, file: "t.nmea")) { error in
            XCTAssertTrue("\(error)".hasPrefix("t.nmea: line 2: checksum 00 does not match"), "\(error)")
        }
    }

    func testTruncatedSentenceIsRefused() {
        let cut = String(Self.sentence("GPRMC,120000,A,4708.4600,N,00931.2540,E,0,0,030524,,").prefix(22))
        XCTAssertThrowsError(try NMEATrace.parse(cut, file: "cut.nmea")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cut.nmea: line 1: "), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
    }

    func testHostileLinesFailWithOneLine() {
        for (text, expected) in [
            ("hello", "not an NMEA sentence"),
            ("$GPRMC,99x000,A,4708.46,N,00931.25,E,0,0,030524,,", "time"),
            ("$GPRMC,120000,A,4708.46,Q,00931.25,E,0,0,030524,,", "hemisphere"),
            ("$GPRMC,120000,A,9908.46,N,00931.25,E,0,0,030524,,", "out of range"),
            ("$GPRMC,120000,A,47xx.46,N,00931.25,E,0,0,030524,,", "latitude"),
            ("$GPRMC,120000,A,4708.46,N,00931.25,E,0,0,310224,,", "date"),
            ("$GPRMC,120000*ZZ", "checksum"),
            (String(repeating: "$", count: 10_000), "no sentence type"),
        ] {
            XCTAssertThrowsError(try NMEATrace.parse(text, file: "h.nmea"), text) { error in
                let line = "\(error)"
                XCTAssertTrue(line.hasPrefix("h.nmea: line 1: ") && line.contains(expected), line)
                XCTAssertFalse(line.contains("\n"))
            }
        }
    }

    /// Seeded mutations of a valid log (bytes flipped, cut, repeated): each parses or fails
    /// with one line, never a crash; the NDJSON batch reader likewise.
    func testMutatedLogsParseOrFailWithOneLine() {
        let valid = Array([
            Self.sentence("GPRMC,120000.00,A,4708.4600,N,00931.2540,E,20.5,87.5,030524,,,A"),
            Self.sentence("GPGGA,120000.00,4708.4600,N,00931.2540,E,1,08,1.2,455.0,M,47.0,M,,"),
            Self.sentence("GPRMC,120001.00,V,,,,,,,030524,,,N"),
        ].joined(separator: "\n").utf8)
        var random = SplitMix64(seed: 530)
        var failures = 0
        for _ in 0..<2_000 {
            var bytes = valid
            for _ in 0..<random.int(1, 6) {
                switch random.below(3) {
                case 0: bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
                default: if !bytes.isEmpty { bytes.insert(bytes[random.below(bytes.count)], at: random.below(bytes.count)) }
                }
                if bytes.isEmpty { bytes = valid }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do { _ = try NMEATrace.parse(text, file: "m.nmea") } catch {
                failures += 1
                XCTAssertFalse("\(error)".contains("\n"), "\(error)")
                XCTAssertTrue("\(error)".hasPrefix("m.nmea: "), "\(error)")
            }
            do { _ = try TraceBatch.parse(text, file: "m.ndjson") } catch { XCTAssertFalse("\(error)".contains("\n")) }
        }
        XCTAssertGreaterThan(failures, 500, "most mutations are caught")
    }

    func testEmptyAndSentenceFreeFilesAreRefused() {
        XCTAssertThrowsError(try NMEATrace.parse("", file: "e.nmea")) { XCTAssertEqual("\($0)", "e.nmea: empty trace") }
        XCTAssertThrowsError(try NMEATrace.parse(Self.sentence("GPGSV,1,1,00"), file: "g.nmea")) {
            XCTAssertEqual("\($0)", "g.nmea: no RMC or GGA sentences")
        }
    }
}
