import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import OffgridCore
@testable import RouteQuery
import TestSupport
import XCTest

/// Voice and banner instructions on real routes of the Liechtenstein sample: the exact English
/// for each maneuver type the sample has (roundabouts with exits, an on-ramp, forks, turns,
/// end of road, a U-turn, arrival left and right), the distance rules, banner components,
/// well-formed SSML, unchanged JSON when not asked.
final class InstructionsTests: XCTestCase {
    static var shared: RouteService?
    func service() throws -> RouteService {
        if let s = Self.shared { return s }
        Self.shared = try RouteService(data: try RoutingData(path: try SampleGraphFixture.graphPath()))
        return Self.shared!
    }

    func steps(_ from: (Double, Double), _ to: (Double, Double)) throws -> [RouteStepResponse] {
        var request = RouteRequest(coordinates: [(from.0, from.1), (to.0, to.1)])
        request.steps = true
        request.voiceInstructions = true
        request.bannerInstructions = true
        return try service().routes(request).routes[0].legs[0].steps
    }

    func announcements(_ steps: [RouteStepResponse]) -> [[String]] { steps.map { ($0.voiceInstructions ?? []).map(\.announcement) } }

    func testRoundaboutWithThirdExitEndOfRoadAndArriveLeft() throws {
        let s = try steps((9.5075, 47.0968), (9.5112, 47.1088))
        // The steps osrm-routed gives on the sample, to the last: Dröschistrasse goes on
        // through a junction where it is not the obvious road (`turn straight`).
        XCTAssertEqual(s.map(\.maneuver.type), ["depart", "end of road", "roundabout", "exit roundabout", "turn", "arrive"])
        XCTAssertEqual(announcements(s), [
            ["Head east on Im Arg.", "Turn left at the end of the road onto Landstrasse."],
            ["In 700 meters, enter the roundabout and take the 3rd exit onto Dröschistrasse.",
             "In 150 meters, enter the roundabout and take the 3rd exit onto Dröschistrasse.",
             "Enter the roundabout and take the 3rd exit onto Dröschistrasse."],
            ["Exit the roundabout onto Dröschistrasse."],
            ["In 200 meters, go straight onto Dröschistrasse.", "Go straight onto Dröschistrasse, then your destination will be on the left."],
            ["In 50 meters, your destination will be on the left.", "You have arrived at your destination, on the left."],
            [],
        ])
        // Early and near announcements fire at the distance they speak.
        XCTAssertEqual(s[1].voiceInstructions?.map(\.distanceAlongGeometry).prefix(2), [700, 150])
        let banner = try XCTUnwrap(s[1].bannerInstructions?.first)
        XCTAssertEqual(banner.distanceAlongGeometry, s[1].distance, "the banner shows for the whole step")
        XCTAssertEqual(banner.primary, BannerText(
            text: "Exit 3 Dröschistrasse",
            components: [.init(text: "Exit", type: .exit), .init(text: "3", type: .exitNumber), .init(text: "Dröschistrasse", type: .text)],
            type: "roundabout", modifier: "left", degrees: 245, drivingSide: "right"))
        XCTAssertNil(banner.secondary, "the sample's ways carry no destination tags")
        XCTAssertEqual(s[4].bannerInstructions?.first?.primary.type, "arrive")
        XCTAssertEqual(s[4].bannerInstructions?.first?.primary.modifier, "left")
        XCTAssertEqual(s[5].bannerInstructions, [], "nothing follows the arrival")
    }

    func testRefShieldAndShortStepsChained() throws {
        let s = try steps((9.5083, 47.1654), (9.5149, 47.1729))
        // osrm-routed on the sample: depart, turn left Landstrasse, turn left Poststrasse (the
        // primary link is no ramp: only motorway and trunk links are), turn right Im Bretscha,
        // turn right In der Specki, turn slight left Im Äscherle, arrive. Offgrid agrees but for
        // Landstrasse's modifier (straight) and the short piece of Im Bretscha, which it folds into the
        // turn onto In der Specki.
        XCTAssertEqual(s.map(\.maneuver.type), ["depart", "turn", "turn", "turn", "turn", "arrive"])
        XCTAssertEqual(s.map(\.name), ["Steckergass", "Landstrasse", "Poststrasse", "In der Specki", "Im Äscherle", "Im Äscherle"])
        XCTAssertEqual(announcements(s)[1], ["In 200 meters, turn left onto Poststrasse.",
                                             "Turn left onto Poststrasse, then turn sharp right onto In der Specki."])
        XCTAssertEqual(announcements(s)[4], ["In 400 meters, your destination will be on the left.", "In 100 meters, your destination will be on the left.",
                                             "You have arrived at your destination, on the left."])
        // The banner of the turn onto Poststrasse shows its ref as a shield.
        let turn = try XCTUnwrap(s[1].bannerInstructions?.first?.primary)
        XCTAssertEqual(turn.type, "turn")
        XCTAssertEqual(turn.modifier, "left")
        XCTAssertEqual(turn.components, [.init(text: "16", type: .icon), .init(text: "/", type: .delimiter), .init(text: "Poststrasse", type: .text)])
        XCTAssertEqual(turn.text, "16 / Poststrasse")
    }

    func testTurnAndArriveRight() throws {
        let s = try steps((9.5642, 47.1196), (9.5714, 47.1123))
        // Not a fork (OSRM's findFork wants two roads of like class and angle; osrm-routed on the
        // sample says `turn right` here too).
        XCTAssertEqual(s.map(\.maneuver.type), ["depart", "turn", "arrive"])
        // The start snaps onto the Gnalp–Steg tunnel's portal on Sückastrasse (an edge end since
        // graph format 12 keeps tunnels apart for --exclude tunnel): the first segment from it
        // heads 158°, south (until then the edge's leaving bearing, 135°, southeast).
        XCTAssertEqual(announcements(s), [
            ["Head south on Sückastrasse.", "In 300 meters, turn right onto Valünastrasse.",
             "Turn right onto Valünastrasse, then your destination will be on the right."],
            ["You have arrived at your destination, on the right."],
            [],
        ])
        XCTAssertEqual(s[0].bannerInstructions?.first?.primary.type, "turn")
        XCTAssertEqual(s[0].bannerInstructions?.first?.primary.modifier, "right")
        XCTAssertEqual(s[1].bannerInstructions?.first?.primary.modifier, "right")
        // The same place as a via point: the first leg arrives at "your 1st destination".
        var request = RouteRequest(coordinates: [(9.5642, 47.1196), (9.5714, 47.1123), (9.5753, 47.137)])
        request.steps = true
        request.voiceInstructions = true
        let legs = try service().routes(request).routes[0].legs
        XCTAssertEqual(legs[0].steps[1].voiceInstructions?.map(\.announcement), ["You have arrived at your 1st destination, on the right."])
        XCTAssertEqual(legs[1].steps.last?.voiceInstructions, [])
        XCTAssertNil(legs[1].steps[0].bannerInstructions, "banners were not asked for")
    }

    func testUTurnForkLeftAndSecondExit() throws {
        let s = try steps((9.5211, 47.1332), (9.5147, 47.1255))
        // A turn, not an end of road: the departure passes no intersection before it (OSRM's
        // buildIntersections; osrm-routed on the sample says `turn right` there too).
        // Rheindamm: osrm-routed says `new name straight` (its obvious road, the divided road's two
        // halves merged into one); Offgrid, which does not merge them, a slight left turn.
        XCTAssertEqual(s.map(\.maneuver.type), ["depart", "turn", "roundabout", "exit roundabout", "turn", "turn", "arrive"])
        XCTAssertEqual(announcements(s), [
            ["Head south on Thönysbünt.", "Turn right onto Zollstrasse."],
            ["In 200 meters, enter the roundabout and take the 2nd exit onto Zollstrasse.", "Enter the roundabout and take the 2nd exit onto Zollstrasse."],
            ["Exit the roundabout onto Zollstrasse."],
            ["Turn slight left onto Rheindamm."],
            ["In 200 meters, turn sharp left onto Neugutweg.", "Turn sharp left onto Neugutweg, then your destination will be on the left."],
            ["You have arrived at your destination, on the left."],
            [],
        ])
        XCTAssertEqual(s[1].bannerInstructions?.first?.primary.degrees, 300)
        // OSRM's bands: a turn short of straight back is sharp, not a U-turn.
        XCTAssertEqual(s[4].bannerInstructions?.first?.primary.modifier, "sharp left")
    }

    func testATurnOntoTheSameNameAndLongStretches() throws {
        // A right turn that stays on Grosssteg: osrm-routed on the sample says `turn right` here,
        // not `continue`, and so does Offgrid now that it classifies turns as OSRM does.
        let named = try steps((9.5798, 47.1131), (9.577, 47.1175))
        XCTAssertEqual(named.map(\.maneuver.type), ["depart", "turn", "arrive"])
        XCTAssertEqual(announcements(named), [
            ["Head west on Grosssteg.", "Turn right onto Grosssteg."],
            ["Continue on Grosssteg for 500 meters.", "In 200 meters, your destination will be on the right.",
             "In 50 meters, your destination will be on the right.", "You have arrived at your destination, on the right."],
            [],
        ])
        // A slow unnamed road (about 15 km/h): a minute ahead is 250 m, 15 s ahead 50 m; the
        // banner, with no road to name, says what to do.
        let unnamed = try steps((9.5772, 47.0794), (9.5689, 47.0776))
        XCTAssertEqual(announcements(unnamed)[0], ["Head northwest.", "In 250 meters, turn sharp left.", "In 50 meters, turn sharp left.",
                                                   "Turn sharp left."])
        XCTAssertEqual(announcements(unnamed)[1].first, "Continue for 500 meters.")
        XCTAssertEqual(unnamed[0].bannerInstructions?.first?.primary.components, [.init(text: "Turn sharp left", type: .text)])
        XCTAssertEqual(unnamed[1].bannerInstructions?.first?.primary.text, "Your destination")
    }

    func testUnnamedRoundabout() throws {
        let s = try steps((9.5053, 47.0725), (9.4928, 47.0674))
        // The destination lies at the exit: the zero-length exit step is trimmed (OSRM), so the
        // roundabout is only entered, with no exit to take.
        XCTAssertNil(s[1].maneuver.exit)
        XCTAssertEqual(announcements(s)[0], ["Head southwest on Gagoz.", "In 200 meters, enter the roundabout.",
                                             "Enter the roundabout."])
        XCTAssertEqual(s[0].bannerInstructions?.first?.primary.text, "Enter the roundabout")
    }

    /// Every maneuver type and modifier on 600 random routes: announcements ordered, within the
    /// step, the last one about the next maneuver; SSML parses as XML and says the same words.
    func testEveryStepOfRandomRoutesIsAnnouncedInOrderWithWellFormedSSML() throws {
        var rng = FixtureRandom(seed: 21)
        var seen = Set<String>()
        var routes = 0
        for _ in 0..<600 {
            let a = (9.48 + Double(rng.next() % 10_000) / 10_000 * 0.14, 47.06 + Double(rng.next() % 10_000) / 10_000 * 0.18)
            let b = (a.0 + (Double(rng.next() % 10_000) / 10_000 - 0.5) * 0.04, a.1 + (Double(rng.next() % 10_000) / 10_000 - 0.5) * 0.04)
            guard let s = try? steps(a, b) else { continue }
            routes += 1
            for (i, step) in s.enumerated() {
                seen.insert(step.maneuver.type + "/" + (step.maneuver.modifier ?? ""))
                let voice = try XCTUnwrap(step.voiceInstructions)
                let banners = try XCTUnwrap(step.bannerInstructions)
                if i == s.count - 1 { XCTAssertEqual(voice, []); XCTAssertEqual(banners, []); continue }
                XCTAssertFalse(voice.isEmpty, "step \(i) of \(a) → \(b) has no announcement")
                let d = voice.map(\.distanceAlongGeometry)
                XCTAssertEqual(d, d.sorted(by: >), "\(a) → \(b) step \(i)")
                XCTAssertEqual(Set(d).count, d.count)
                XCTAssertTrue(d.allSatisfy { $0 >= 0 && $0 <= step.distance }, "\(d) outside 0…\(step.distance)")
                XCTAssertEqual(banners.count, 1)
                XCTAssertEqual(banners[0].distanceAlongGeometry, step.distance)
                XCTAssertEqual(banners[0].primary.type, s[i + 1].maneuver.type)
                XCTAssertEqual(banners[0].primary.text, banners[0].primary.components.map(\.text).joined(separator: " "))
                for v in voice {
                    XCTAssertFalse(v.announcement.contains("{"), v.announcement)
                    XCTAssertEqual(try SSMLText.plain(v.ssmlAnnouncement), v.announcement)
                }
            }
        }
        XCTAssertGreaterThan(routes, 400)
        for expected in ["depart/", "arrive/", "turn/left", "turn/right", "turn/slight left", "turn/slight right", "turn/sharp left",
                         "turn/sharp right", "new name/straight", "continue/left", "continue/right", "end of road/left",
                         "end of road/right", "fork/slight left", "fork/slight right",
                         "roundabout/slight right", "exit roundabout/slight right", "exit roundabout/straight"] {
            XCTAssertTrue(seen.contains(expected), "no \(expected) among \(seen.sorted())")
        }
    }

    func testSSMLEscapesNamesAndEveryPhraseRowFills() throws {
        let hostile = "A & B <x> \"q\" 'y'"
        var p = ManeuverPhrase(type: .turn, modifier: .right, road: hostile, towards: nil, exit: nil, compassBearing: 0,
                               side: nil, goal: "your destination")
        let ssml = SSML.speak(p.now.ssml + ".")
        XCTAssertEqual(ssml, "<speak><prosody rate=\"1.08\">Turn right onto <say-as interpret-as=\"address\">"
                       + "A &amp; B &lt;x&gt; &quot;q&quot; &apos;y&apos;</say-as>.</prosody></speak>")
        XCTAssertEqual(try SSMLText.plain(ssml), "Turn right onto \(hostile).")
        let modifiers: [ManeuverModifier?] = [nil, .uturn, .sharpRight, .right, .slightRight, .straight, .slightLeft, .left, .sharpLeft]
        for type in [ManeuverType.depart, .arrive, .turn, .newName, .continue, .merge, .onRamp, .offRamp, .fork, .endOfRoad,
                     .roundabout, .exitRoundabout] {
            for m in modifiers {
                for road in ["", "Landstrasse"] {
                    p.type = type; p.modifier = m; p.road = road; p.exit = 2
                    for text in [p.now.plain, p.announced(inMeters: 500).plain] {
                        XCTAssertFalse(text.isEmpty || text.contains("{") || text.contains("  "), "\(type) \(String(describing: m)): \(text)")
                        if type != .arrive { XCTAssertEqual(text.contains("Landstrasse"), !road.isEmpty, text) }
                    }
                    XCTAssertEqual(try SSMLText.plain(SSML.speak(p.now.ssml)), p.now.plain)
                }
            }
        }
        XCTAssertEqual([50, 149, 999, 1000, 1499, 1500, 2999, 3000, 12_345].map { SpokenDistance.roundedDown($0).map(SpokenDistance.text) },
                       ["50 meters", "100 meters", "900 meters", "1 kilometer", "1 kilometer", "1.5 kilometers", "2 kilometers",
                        "3 kilometers", "12 kilometers"])
        XCTAssertNil(SpokenDistance.roundedDown(49))
    }

    /// Off: the same bytes as before the options existed (no keys); on: the batch writer's bytes
    /// equal the generic encoder's, and without the instruction fields the response is the same.
    func testJSONUnchangedWhenOffAndBatchWriterAgrees() throws {
        var request = RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])
        request.steps = true
        let plain = try service().routes(request)
        let plainText = try JSONEncoding.string(plain, pretty: false)
        XCTAssertFalse(plainText.contains("Instructions"))
        request.voiceInstructions = true
        request.bannerInstructions = true
        var with = try service().routes(request)
        var written = ""
        with.writeJSON(to: &written)
        XCTAssertEqual(written, try JSONEncoding.string(with, pretty: false))
        XCTAssertTrue(written.contains("\"voiceInstructions\":[{\"announcement\":\"Head west on Städtle"), String(written.prefix(3000)))
        for r in with.routes.indices { for l in with.routes[r].legs.indices { for s in with.routes[r].legs[l].steps.indices {
            with.routes[r].legs[l].steps[s].voiceInstructions = nil
            with.routes[r].legs[l].steps[s].bannerInstructions = nil
        } } }
        XCTAssertEqual(try JSONEncoding.string(with, pretty: false), plainText)
        request.steps = false
        XCTAssertEqual(try service().route(request).code, "InvalidInput", "instructions need steps")
    }

    func testTraceEventsCarryTheInstructionDue() throws {
        let graph = try SampleGraphFixture.graphPath()
        let route = try TestTools.run("route-query", ["route", "--graph", graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660",
                                                      "--overview", "full", "--voice-instructions", "--banner-instructions"])
        XCTAssertEqual(route.status, 0, route.stderr)
        let routeFile = FileManager.default.temporaryDirectory.appendingPathComponent("instructed-route-\(getpid()).json")
        try Data(route.stdout.utf8).write(to: routeFile)
        defer { try? FileManager.default.removeItem(at: routeFile) }
        let trace = SampleGraphFixture.repositoryRoot.appendingPathComponent("samples/detour-trace.csv").path
        let r = try TestTools.run("route-query", ["trace", "--graph", graph, "--route", routeFile.path, "--trace", trace,
                                                  "--voice-instructions", "--banner-instructions"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = try r.stdout.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        let rerouteAt = try XCTUnwrap(events.firstIndex { $0["event"] == "reroute" })
        let spoken = events.compactMap { $0["voiceInstruction"]?["announcement"]?.stringValue }
        XCTAssertEqual(events[0]["voiceInstruction"]?["announcement"]?.stringValue,
                       "Head west on Städtle, then enter the roundabout and take the 3rd exit onto Äulestrasse.")
        XCTAssertNotNil(events[0]["bannerInstruction"]?["primary"]?["text"])
        XCTAssertEqual(spoken.last, "You have arrived at your destination.", "the reroute's instructions take over")
        XCTAssertTrue(events[rerouteAt...].contains { $0["voiceInstruction"] != nil })
        // Before the detour, each announcement of the planned route is said once, in route order.
        let planned = try JSONReader.parse(route.stdout)["routes"]?[0]?["legs"]?[0]?["steps"]?.arrayValue ?? []
        let order = planned.flatMap { ($0["voiceInstructions"]?.arrayValue ?? []).compactMap { $0["announcement"]?.stringValue } }
        let before = events[..<rerouteAt].compactMap { $0["voiceInstruction"]?["announcement"]?.stringValue }
        XCTAssertGreaterThan(before.count, 5)
        var cursor = order.startIndex
        for said in before {
            let found = try XCTUnwrap(order[cursor...].firstIndex(of: said), "\(said) out of order")
            cursor = found + 1
        }
        // Without instructions in the route file the events keep their old shape.
        let plainRoute = try TestTools.run("route-query", ["route", "--graph", graph, "--from", "9.5215,47.1410", "--to", "9.4990,47.0660", "--overview", "full"])
        try Data(plainRoute.stdout.utf8).write(to: routeFile)
        let plain = try TestTools.run("route-query", ["trace", "--graph", graph, "--route", routeFile.path, "--trace", trace])
        XCTAssertFalse(plain.stdout.contains("Instruction"))
    }

    func testRerouteFlagsAddInstructions() throws {
        let graph = try SampleGraphFixture.graphPath()
        let r = try TestTools.run("route-query", ["reroute", "--graph", graph, "--at", "9.5210,47.1400", "--heading", "180",
                                                  "--to", "9.5095,47.0613", "--voice-instructions", "--banner-instructions"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let step = try XCTUnwrap(JSONReader.parse(r.stdout)["routes"]?[0]?["legs"]?[0]?["steps"]?[0])
        XCTAssertNotNil(step["voiceInstructions"]?[0]?["ssmlAnnouncement"]?.stringValue)
        XCTAssertNotNil(step["bannerInstructions"]?[0]?["primary"]?["components"]?[0]?["type"]?.stringValue)
    }
}

/// Reads SSML with a real XML parser and returns its text content (so a test fails on
/// anything not well-formed, such as an unescaped `&`).
final class SSMLText: NSObject, XMLParserDelegate {
    var text = ""
    var failure: Error?

    static func plain(_ ssml: String) throws -> String {
        let parser = XMLParser(data: Data(ssml.utf8))
        let reader = SSMLText()
        parser.delegate = reader
        guard parser.parse(), reader.failure == nil else {
            throw InputError(file: "ssml", "not well-formed: \(parser.parserError.map { "\($0)" } ?? "") in \(ssml)")
        }
        return reader.text
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failure = parseError }
}
