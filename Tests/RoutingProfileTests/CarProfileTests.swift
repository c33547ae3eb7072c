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
            _ = try TravelProfile.load(path: path)
            return "no error"
        } catch let error as ProfileError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    func testFileAndEmbeddedDefaultAreEqual() throws {
        let file = try TravelProfile.load(path: repositoryProfilePath)
        XCTAssertEqual(file, TravelProfile.embeddedDefault)
        XCTAssertEqual(file.hash, TravelProfile.embeddedDefault.hash)
        XCTAssertEqual(file.source, repositoryProfilePath)
        XCTAssertEqual(TravelProfile.embeddedDefault.source, TravelProfile.embeddedSource)
        XCTAssertEqual(file.name, "car")
    }

    func testDefaultValues() {
        let s = TravelProfile.embeddedDefault.settings
        XCTAssertEqual(s.highwaySpeedsKmh.count, 16)
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
        XCTAssertEqual(TravelProfile.embeddedDefault.hash.count, 64)
        XCTAssertEqual(TravelProfile.embeddedDefault.settings.canonicalJSON,
                       "{\"rules\":4,\"deniedAccessValues\":[\"agricultural\",\"bus\",\"customers\",\"delivery\",\"destination\","
                       + "\"emergency\",\"emergency_vehicle\",\"foot\",\"forestry\",\"military\",\"minibus\",\"no\",\"official\","
                       + "\"private\",\"psv\",\"restricted\",\"share_taxi\",\"taxi\"],\"drivingSide\":\"right\","
                       + "\"highwaySpeedsKmh\":{\"motorway\":110,\"motorway_link\":55,\"trunk\":90,\"trunk_link\":45,\"primary\":70,"
                       + "\"primary_link\":35,\"secondary\":60,\"secondary_link\":30,\"tertiary\":50,\"tertiary_link\":25,"
                       + "\"unclassified\":40,\"residential\":30,\"living_street\":10,\"service\":15,\"winter_road\":20,\"ice_road\":15},\"maxspeedFactor\":1,"
                       + "\"mode\":\"car\",\"name\":\"car\",\"nodeDelaysSeconds\":{\"giveWay\":1,\"stop\":2,\"trafficSignals\":2},"
                       + "\"turns\":{\"turnBias\":1.075,\"turnPenalty\":7.5,\"uTurnPenalty\":20,\"uTurns\":\"notAtIntersections\"},"
                       + "\"allowedAccessValues\":[\"designated\",\"hov\",\"motor_vehicle\",\"motorcar\",\"permissive\",\"vehicle\",\"yes\"],"
                       + "\"restrictedAccessValues\":[\"customers\",\"delivery\",\"destination\",\"private\"],"
                       + "\"restrictedAccessPenaltySeconds\":600,\"otherHighwaySpeedKmh\":10,"
                       + "\"routeSpeedsKmh\":{\"ferry\":5,\"shuttle_train\":10},"
                       + "\"passableBarriers\":[\"border_control\",\"cattle_grid\",\"entrance\",\"gate\",\"height_restrictor\","
                       + "\"lift_gate\",\"no\",\"sally_port\",\"toll_booth\"],\"blockingBarriers\":[],"
                       + "\"vehicle\":{\"heightM\":2,\"lengthM\":4.8,\"weightKg\":2000,\"widthM\":1.9},"
                       + "\"surfaceSpeedsKmh\":{\"bricks\":60,\"cement\":80,\"clay\":30,\"cobblestone\":30,\"compacted\":80,"
                       + "\"dirt\":40,\"earth\":20,\"fine_gravel\":80,\"grass\":40,\"grass_paver\":40,\"gravel\":40,\"ground\":40,"
                       + "\"metal\":60,\"mud\":10,\"paving_stones\":60,\"pebblestone\":40,\"rocky\":20,\"sand\":20,\"sett\":40,"
                       + "\"stone\":20,\"tartan\":40,\"unpaved\":40,\"wood\":40},"
                       + "\"tracktypeSpeedsKmh\":{\"grade1\":60,\"grade2\":40,\"grade3\":30,\"grade4\":25,\"grade5\":20},"
                       + "\"smoothnessSpeedsKmh\":{\"bad\":40,\"horrible\":10,\"impassable\":0,\"intermediate\":80,"
                       + "\"very_bad\":20,\"very_horrible\":5}}")
    }

    func testHashIgnoresFormattingAndKeyOrder() throws {
        // The default file, keys sorted, whitespace gone, lists shuffled and repeated, 20 as 20.0.
        let object = try JSONSerialization.jsonObject(with: Data(TravelProfile.embeddedDefaultJSON.utf8)) as! [String: Any]
        var reordered = object
        reordered["deniedAccessValues"] = Array((object["deniedAccessValues"] as! [String]).reversed()) + ["no"]
        reordered["passableBarriers"] = Array((object["passableBarriers"] as! [String]).reversed())
        let compact = String(decoding: try JSONSerialization.data(withJSONObject: reordered, options: [.sortedKeys]), as: UTF8.self)
            .replacingOccurrences(of: "\"uTurnPenalty\":20", with: "\"uTurnPenalty\":20.0")
        XCTAssertNotEqual(compact, TravelProfile.embeddedDefaultJSON)
        let p = try TravelProfile.load(path: try write(compact))
        XCTAssertEqual(p.hash, TravelProfile.embeddedDefault.hash)
        XCTAssertEqual(p, TravelProfile.embeddedDefault)
    }

    func testHashChangesWithAnyValue() throws {
        let base = TravelProfile.embeddedDefault
        var hashes: Set<String> = [base.hash]
        var edits: [ProfileSettings] = []
        var s = base.settings; s.highwaySpeedsKmh[.primary] = 71; edits.append(s)
        s = base.settings; s.highwaySpeedsKmh[.service] = nil; edits.append(s)
        s = base.settings; s.maxspeedFactor = 0.8; edits.append(s)
        s = base.settings; s.deniedAccessValues.insert("permit"); edits.append(s)
        s = base.settings; s.trafficSignalsDelaySeconds = 3; edits.append(s)
        s = base.settings; s.stopDelaySeconds = 3; edits.append(s)
        s = base.settings; s.giveWayDelaySeconds = 3; edits.append(s)
        s = base.settings; s.turnPenaltySeconds = 8; edits.append(s)
        s = base.settings; s.turnBias = 1.1; edits.append(s)
        s = base.settings; s.uTurnPenaltySeconds = 30; edits.append(s)
        s = base.settings; s.drivingSide = .left; edits.append(s)
        s = base.settings; s.name = "car-fast"; edits.append(s)
        s = base.settings; s.uTurns = .deadEnds; edits.append(s)
        s = base.settings; s.passableBarriers.remove("gate"); edits.append(s)
        s = base.settings; s.restrictedAccessPenaltySeconds = 60; edits.append(s)
        s = base.settings; s.vehicleHeightM = 3; edits.append(s)
        s = base.settings; s.surfaceSpeedsKmh["mud"] = 5; edits.append(s)
        s = base.settings; s.ferrySpeedKmh = 6; edits.append(s)
        for edit in edits { hashes.insert(TravelProfile(settings: edit).hash) }
        XCTAssertEqual(hashes.count, edits.count + 1)

        let edited = TravelProfile.embeddedDefaultJSON.replacingOccurrences(of: "\"primary\": 70", with: "\"primary\": 75")
        XCTAssertNotEqual(edited, TravelProfile.embeddedDefaultJSON)
        XCTAssertNotEqual(try TravelProfile.load(path: try write(edited)).hash, base.hash)
    }

    func testLoadWithoutPathPrefersProfilesDirectoryThenEmbedded() throws {
        let previous = FileManager.default.currentDirectoryPath
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(temporaryDirectory.path))
        let embedded = try TravelProfile.load(path: nil)
        XCTAssertEqual(embedded.source, TravelProfile.embeddedSource)

        try FileManager.default.createDirectory(at: temporaryDirectory.appendingPathComponent("profiles"), withIntermediateDirectories: true)
        let custom = TravelProfile.embeddedDefaultJSON.replacingOccurrences(of: "\"service\": 15", with: "\"service\": 20")
        try Data(custom.utf8).write(to: temporaryDirectory.appendingPathComponent("profiles/car.json"))
        let fromDirectory = try TravelProfile.load(path: nil)
        XCTAssertEqual(fromDirectory.source, "profiles/car.json")
        XCTAssertEqual(fromDirectory.settings.highwaySpeedsKmh[.service], 20)

        try Data("{".utf8).write(to: temporaryDirectory.appendingPathComponent("profiles/car.json"))
        XCTAssertThrowsError(try TravelProfile.load(path: nil), "a broken default file is an error, not silently replaced")
    }

    func testUnreadableFile() {
        let missing = temporaryDirectory.appendingPathComponent("nope.json").path
        XCTAssertThrowsError(try TravelProfile.load(path: missing)) { error in
            let e = error as? ProfileError
            XCTAssertEqual(e?.file, missing)
            XCTAssertTrue(e?.message.hasPrefix("cannot read profile") ?? false, "\(error)")
            XCTAssertTrue("\(error)".hasPrefix(missing + ": "))
        }
        XCTAssertThrowsError(try TravelProfile.load(path: temporaryDirectory.path), "a directory is not a profile")
    }

    func testBadFilesNameTheField() {
        let base = TravelProfile.embeddedDefaultJSON
        func edit(_ old: String, _ new: String) -> String {
            let edited = base.replacingOccurrences(of: old, with: new)
            XCTAssertNotEqual(edited, base, "edit \(old) did not apply")
            return edited
        }
        XCTAssertTrue(loadError("{\"name\": ").hasPrefix("profile is not valid JSON"))
        XCTAssertEqual(loadError("[1]"), "profile must be a JSON object")
        XCTAssertEqual(loadError(edit("\"motorway\": 110,", "\"motorwya\": 110,")),
                       "unknown highway class \"motorwya\" in highwaySpeedsKmh (known: motorway, motorway_link, trunk, trunk_link, primary, primary_link, secondary, secondary_link, tertiary, tertiary_link, unclassified, residential, living_street, service, winter_road, ice_road, track, path, cycleway, footway, pedestrian, steps, bridleway, platform, pier)")
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
                       "unknown field \"turns.turnBais\" (known: turnPenalty, turnBias, uTurnPenalty, uTurns, drivingSide)")
        XCTAssertEqual(loadError(edit("\"turnBias\": 1.075,", "")), "missing field \"turns.turnBias\"")
        XCTAssertEqual(loadError(edit("\"maxspeedFactor\": 1,", "")), "missing field \"maxspeedFactor\"")
        XCTAssertEqual(loadError(edit("\"maxspeedFactor\": 1,", "\"maxspeedFactor\": 1, \"extra\": 2,")),
                       "unknown field \"extra\" (known: name, mode, highwaySpeedsKmh, otherHighwaySpeedKmh, routeSpeedsKmh, maxspeedFactor, allowedAccessValues, deniedAccessValues, restrictedAccessValues, restrictedAccessPenaltySeconds, passableBarriers, blockingBarriers, vehicle, surfaceSpeedsKmh, tracktypeSpeedsKmh, smoothnessSpeedsKmh, nodeDelaysSeconds, turns)")
        XCTAssertEqual(loadError(edit("\"maxspeedFactor\": 1,", "\"maxspeedFactor\": 3,")),
                       "maxspeedFactor must be a number in (0, 2], got 3")
        XCTAssertEqual(loadError(edit("[\"no\",", "[1,")), "deniedAccessValues must be an array of non-empty strings")
        XCTAssertEqual(loadError(edit("\"uTurns\": \"notAtIntersections\"", "\"uTurns\": \"never\"")),
                       "turns.uTurns must be \"notAtIntersections\", \"anywhere\" or \"deadEnds\", got \"never\"")
        XCTAssertEqual(loadError(edit("\"heightM\": 2.0", "\"heightM\": -1")), "vehicle.heightM must be a number of m in [0, 20], got -1")
        XCTAssertEqual(loadError(edit("\"mud\": 10", "\"mud\": 400")), "surfaceSpeedsKmh.mud must be a number of km/h in [0, 300], got 400")
        XCTAssertEqual(loadError(edit("\"ferry\": 5,", "")), "missing field \"routeSpeedsKmh.ferry\"")
        XCTAssertEqual(loadError(edit("\"name\": \"car\"", "\"name\": \"\"")), "name must be a non-empty string")
        XCTAssertEqual(loadError(edit("\"turns\": {", "\"turns\": 5, \"x\": {")), "unknown field \"x\" (known: name, mode, highwaySpeedsKmh, otherHighwaySpeedKmh, routeSpeedsKmh, maxspeedFactor, allowedAccessValues, deniedAccessValues, restrictedAccessValues, restrictedAccessPenaltySeconds, passableBarriers, blockingBarriers, vehicle, surfaceSpeedsKmh, tracktypeSpeedsKmh, smoothnessSpeedsKmh, nodeDelaysSeconds, turns)")
    }
}
