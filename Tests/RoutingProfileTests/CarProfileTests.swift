import Foundation
import XCTest
@testable import RoutingProfile

final class CarProfileTests: XCTestCase {
    /// profiles/car.json of this checkout, found from this file's location.
    private var repositoryProfilePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("profiles/car.json").path
    }

    private var temporaryDirectory: URL!

    override func setUpWithError() throws {
        temporaryDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: temporaryDirectory)
    }

    private func write(_ text: String, name: String = "car.json") throws -> String {
        let url = temporaryDirectory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func loadError(_ text: String) -> String {
        do {
            let path = try write(text)
            _ = try CarProfile.load(path: path)
            return "no error"
        } catch let error as ProfileError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    func testFileAndEmbeddedDefaultAreEqual() throws {
        let file = try CarProfile.load(path: repositoryProfilePath)
        XCTAssertEqual(file, CarProfile.embeddedDefault)
        XCTAssertEqual(file.hash, CarProfile.embeddedDefault.hash)
        XCTAssertEqual(file.source, repositoryProfilePath)
        XCTAssertEqual(CarProfile.embeddedDefault.source, CarProfile.embeddedSource)
        XCTAssertEqual(file.name, "car")
    }

    func testDefaultValues() {
        let s = CarProfile.embeddedDefault.settings
        XCTAssertEqual(s.highwaySpeedsKmh.count, 14)
        XCTAssertEqual(s.highwaySpeedsKmh[.motorway], 110)
        XCTAssertEqual(s.highwaySpeedsKmh[.livingStreet], 10)
        XCTAssertEqual(s.maxspeedFactor, 1)
        XCTAssertTrue(s.deniedAccessValues.isSuperset(of: ["no", "private"]))
        XCTAssertEqual(s.trafficSignalsDelaySeconds, 2)
        XCTAssertEqual(s.stopDelaySeconds, 2)
        XCTAssertEqual(s.giveWayDelaySeconds, 1)
        XCTAssertEqual(s.turnPenaltySeconds, 7.5)
        XCTAssertEqual(s.turnBias, 1.075)
        XCTAssertEqual(s.uTurnPenaltySeconds, 20)
        XCTAssertEqual(s.drivingSide, .right)
    }

    /// Tiles record this hash; changing the default profile (or the tag rules version) changes
    /// it on purpose. Update the value here when that is intended.
    func testDefaultHashIsPinned() {
        XCTAssertEqual(CarProfile.embeddedDefault.hash.count, 64)
        XCTAssertEqual(CarProfile.embeddedDefault.settings.canonicalJSON,
                       "{\"rules\":1,\"deniedAccessValues\":[\"agricultural\",\"emergency\",\"forestry\",\"no\",\"private\",\"psv\"],"
                       + "\"drivingSide\":\"right\",\"highwaySpeedsKmh\":{\"motorway\":110,\"motorway_link\":110,\"trunk\":90,"
                       + "\"trunk_link\":90,\"primary\":70,\"primary_link\":70,\"secondary\":60,\"secondary_link\":60,"
                       + "\"tertiary\":50,\"tertiary_link\":50,\"unclassified\":40,\"residential\":30,\"living_street\":10,"
                       + "\"service\":15},\"maxspeedFactor\":1,\"name\":\"car\",\"nodeDelaysSeconds\":{\"giveWay\":1,\"stop\":2,"
                       + "\"trafficSignals\":2},\"turns\":{\"turnBias\":1.075,\"turnPenalty\":7.5,\"uTurnPenalty\":20}}")
    }

    func testHashIgnoresFormattingAndKeyOrder() throws {
        let reformatted = """
        {"turns":{"drivingSide":"right","uTurnPenalty":20.0,"turnBias":1.0750,"turnPenalty":7.5},
         "nodeDelaysSeconds":{"giveWay":1,"stop":2e0,"trafficSignals":2},
         "deniedAccessValues":["psv","emergency","forestry","agricultural","private","no","no"],
         "maxspeedFactor":1.0,
         "highwaySpeedsKmh":{"service":15,"living_street":10,"residential":30,"unclassified":40,"tertiary_link":50,
           "tertiary":50,"secondary_link":60,"secondary":60,"primary_link":70,"primary":70,"trunk_link":90,"trunk":90,
           "motorway_link":110,"motorway":110.0},
         "name":"car"}
        """
        let p = try CarProfile.load(path: try write(reformatted))
        XCTAssertEqual(p.hash, CarProfile.embeddedDefault.hash)
        XCTAssertEqual(p, CarProfile.embeddedDefault)
    }

    func testHashChangesWithAnyValue() throws {
        let base = CarProfile.embeddedDefault
        var hashes: Set<String> = [base.hash]
        var edits: [CarProfileSettings] = []
        var s = base.settings; s.highwaySpeedsKmh[.primary] = 71; edits.append(s)
        s = base.settings; s.highwaySpeedsKmh[.service] = nil; edits.append(s)
        s = base.settings; s.maxspeedFactor = 0.8; edits.append(s)
        s = base.settings; s.deniedAccessValues.insert("delivery"); edits.append(s)
        s = base.settings; s.trafficSignalsDelaySeconds = 3; edits.append(s)
        s = base.settings; s.stopDelaySeconds = 3; edits.append(s)
        s = base.settings; s.giveWayDelaySeconds = 3; edits.append(s)
        s = base.settings; s.turnPenaltySeconds = 8; edits.append(s)
        s = base.settings; s.turnBias = 1.1; edits.append(s)
        s = base.settings; s.uTurnPenaltySeconds = 30; edits.append(s)
        s = base.settings; s.drivingSide = .left; edits.append(s)
        s = base.settings; s.name = "car-fast"; edits.append(s)
        for edit in edits { hashes.insert(CarProfile(settings: edit).hash) }
        XCTAssertEqual(hashes.count, edits.count + 1)

        let edited = CarProfile.embeddedDefaultJSON.replacingOccurrences(of: "\"primary\": 70", with: "\"primary\": 75")
        XCTAssertNotEqual(edited, CarProfile.embeddedDefaultJSON)
        XCTAssertNotEqual(try CarProfile.load(path: try write(edited)).hash, base.hash)
    }

    func testLoadWithoutPathPrefersProfilesDirectoryThenEmbedded() throws {
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(temporaryDirectory.path))
        let embedded = try CarProfile.load(path: nil)
        XCTAssertEqual(embedded.source, CarProfile.embeddedSource)

        try FileManager.default.createDirectory(at: temporaryDirectory.appendingPathComponent("profiles"), withIntermediateDirectories: true)
        let custom = CarProfile.embeddedDefaultJSON.replacingOccurrences(of: "\"service\": 15", with: "\"service\": 20")
        try Data(custom.utf8).write(to: temporaryDirectory.appendingPathComponent("profiles/car.json"))
        let fromDirectory = try CarProfile.load(path: nil)
        XCTAssertEqual(fromDirectory.source, "profiles/car.json")
        XCTAssertEqual(fromDirectory.settings.highwaySpeedsKmh[.service], 20)

        try Data("{".utf8).write(to: temporaryDirectory.appendingPathComponent("profiles/car.json"))
        XCTAssertThrowsError(try CarProfile.load(path: nil), "a broken default file is an error, not silently replaced")
    }

    func testUnreadableFile() {
        let missing = temporaryDirectory.appendingPathComponent("nope.json").path
        XCTAssertThrowsError(try CarProfile.load(path: missing)) { error in
            let e = error as? ProfileError
            XCTAssertEqual(e?.file, missing)
            XCTAssertTrue(e?.message.hasPrefix("cannot read profile") ?? false, "\(error)")
            XCTAssertTrue("\(error)".hasPrefix(missing + ": "))
        }
        XCTAssertThrowsError(try CarProfile.load(path: temporaryDirectory.path), "a directory is not a profile")
    }

    func testBadFilesNameTheField() {
        let base = CarProfile.embeddedDefaultJSON
        func edit(_ old: String, _ new: String) -> String {
            let edited = base.replacingOccurrences(of: old, with: new)
            XCTAssertNotEqual(edited, base, "edit \(old) did not apply")
            return edited
        }
        XCTAssertTrue(loadError("{\"name\": ").hasPrefix("profile is not valid JSON"))
        XCTAssertEqual(loadError("[1]"), "profile must be a JSON object")
        XCTAssertEqual(loadError(edit("\"motorway\": 110,", "\"motorwya\": 110,")),
                       "unknown highway class \"motorwya\" in highwaySpeedsKmh (known: motorway, motorway_link, trunk, trunk_link, primary, primary_link, secondary, secondary_link, tertiary, tertiary_link, unclassified, residential, living_street, service)")
        XCTAssertEqual(loadError(edit("\"primary\": 70", "\"primary\": -5")),
                       "highwaySpeedsKmh.primary must be a number of km/h in (0, 300], got -5")
        XCTAssertEqual(loadError(edit("\"primary\": 70", "\"primary\": 0")),
                       "highwaySpeedsKmh.primary must be a number of km/h in (0, 300], got 0")
        XCTAssertEqual(loadError(edit("\"primary\": 70", "\"primary\": \"70\"")),
                       "highwaySpeedsKmh.primary must be a number of km/h in (0, 300], got \"70\"")
        XCTAssertEqual(loadError(edit("\"primary\": 70", "\"primary\": true")),
                       "highwaySpeedsKmh.primary must be a number of km/h in (0, 300], got true")
        XCTAssertEqual(loadError(edit("\"stop\": 2", "\"stop\": -1")),
                       "nodeDelaysSeconds.stop must be a number of s in [0, 600], got -1")
        XCTAssertEqual(loadError(edit("\"turnBias\": 1.075", "\"turnBias\": 0")),
                       "turns.turnBias must be a number in (0, 10], got 0")
        XCTAssertEqual(loadError(edit("\"drivingSide\": \"right\"", "\"drivingSide\": \"middle\"")),
                       "turns.drivingSide must be \"right\" or \"left\", got \"middle\"")
        XCTAssertEqual(loadError(edit("\"turnBias\": 1.075,", "\"turnBias\": 1.075, \"turnBais\": 1,")),
                       "unknown field \"turns.turnBais\" (known: turnPenalty, turnBias, uTurnPenalty, drivingSide)")
        XCTAssertEqual(loadError(edit("\"turnBias\": 1.075,", "")), "missing field \"turns.turnBias\"")
        XCTAssertEqual(loadError(edit("\"maxspeedFactor\": 1,", "")), "missing field \"maxspeedFactor\"")
        XCTAssertEqual(loadError(edit("\"maxspeedFactor\": 1,", "\"maxspeedFactor\": 1, \"extra\": 2,")),
                       "unknown field \"extra\" (known: name, highwaySpeedsKmh, maxspeedFactor, deniedAccessValues, nodeDelaysSeconds, turns)")
        XCTAssertEqual(loadError(edit("\"maxspeedFactor\": 1,", "\"maxspeedFactor\": 3,")),
                       "maxspeedFactor must be a number in (0, 2], got 3")
        XCTAssertEqual(loadError(edit("[\"no\",", "[1,")), "deniedAccessValues must be an array of non-empty strings")
        XCTAssertEqual(loadError(edit("\"name\": \"car\"", "\"name\": \"\"")), "name must be a non-empty string")
        XCTAssertEqual(loadError(edit("\"turns\": {", "\"turns\": 5, \"x\": {")), "unknown field \"x\" (known: name, highwaySpeedsKmh, maxspeedFactor, deniedAccessValues, nodeDelaysSeconds, turns)")
    }
}
