import Foundation

/// Reads and validates profile JSON (the format of `profiles/car.json`). Strict: every field
/// must be present with a value in range, and unknown fields are errors, so a typo never
/// silently leaves a default in place. Highway classes are the exception: a class left out of
/// `highwaySpeedsKmh` is simply not drivable.
struct ProfileJSONReader {
    let source: String

    private func fail(_ message: String) -> ProfileError { ProfileError(file: source, message) }

    func read(_ bytes: [UInt8]) throws -> CarProfileSettings {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            let ns = error as NSError
            let reason = ns.userInfo[NSDebugDescriptionErrorKey] as? String ?? ns.localizedDescription
            throw fail("profile is not valid JSON: \(reason)")
        }
        guard let top = root as? [String: Any] else { throw fail("profile must be a JSON object") }
        try onlyKnownKeys(top, ["name", "highwaySpeedsKmh", "maxspeedFactor", "deniedAccessValues",
                                "nodeDelaysSeconds", "turns"], in: nil)

        guard let name = try field(top, "name", in: nil) as? String, !name.isEmpty else {
            throw fail("name must be a non-empty string")
        }

        let speedsObject = try object(top, "highwaySpeedsKmh", in: nil)
        var speeds: [RoadClass: Double] = [:]
        for (key, value) in speedsObject {
            guard let roadClass = RoadClass(highway: key) else {
                throw fail("unknown highway class \"\(key)\" in highwaySpeedsKmh (known: \(RoadClass.allCases.map(\.osmValue).joined(separator: ", ")))")
            }
            speeds[roadClass] = try number(value, at: "highwaySpeedsKmh.\(key)", unit: "km/h",
                                           minimum: 0, minimumIncluded: false, maximum: 300)
        }
        guard !speeds.isEmpty else { throw fail("highwaySpeedsKmh must name at least one highway class") }

        let factor = try number(field(top, "maxspeedFactor", in: nil), at: "maxspeedFactor", unit: "",
                                minimum: 0, minimumIncluded: false, maximum: 2)

        guard let deniedList = try field(top, "deniedAccessValues", in: nil) as? [Any],
              let denied = deniedList as? [String], denied.allSatisfy({ !$0.isEmpty }) else {
            throw fail("deniedAccessValues must be an array of non-empty strings")
        }

        let delays = try object(top, "nodeDelaysSeconds", in: nil)
        try onlyKnownKeys(delays, ["trafficSignals", "stop", "giveWay"], in: "nodeDelaysSeconds")
        func delay(_ key: String) throws -> Double {
            try number(field(delays, key, in: "nodeDelaysSeconds"), at: "nodeDelaysSeconds.\(key)", unit: "s",
                       minimum: 0, minimumIncluded: true, maximum: 600)
        }

        let turns = try object(top, "turns", in: nil)
        try onlyKnownKeys(turns, ["turnPenalty", "turnBias", "uTurnPenalty", "drivingSide"], in: "turns")
        let sideValue = try field(turns, "drivingSide", in: "turns")
        guard let sideName = sideValue as? String, let side = DrivingSide(rawValue: sideName) else {
            throw fail("turns.drivingSide must be \"right\" or \"left\", got \(display(sideValue))")
        }

        return CarProfileSettings(
            name: name, highwaySpeedsKmh: speeds, maxspeedFactor: factor, deniedAccessValues: Set(denied),
            trafficSignalsDelaySeconds: try delay("trafficSignals"), stopDelaySeconds: try delay("stop"),
            giveWayDelaySeconds: try delay("giveWay"),
            turnPenaltySeconds: try number(field(turns, "turnPenalty", in: "turns"), at: "turns.turnPenalty", unit: "s",
                                           minimum: 0, minimumIncluded: true, maximum: 600),
            turnBias: try number(field(turns, "turnBias", in: "turns"), at: "turns.turnBias", unit: "",
                                 minimum: 0, minimumIncluded: false, maximum: 10),
            uTurnPenaltySeconds: try number(field(turns, "uTurnPenalty", in: "turns"), at: "turns.uTurnPenalty", unit: "s",
                                            minimum: 0, minimumIncluded: true, maximum: 3600),
            drivingSide: side)
    }

    private func path(_ key: String, _ parent: String?) -> String { parent.map { "\($0).\(key)" } ?? key }

    private func field(_ object: [String: Any], _ key: String, in parent: String?) throws -> Any {
        guard let value = object[key] else { throw fail("missing field \"\(path(key, parent))\"") }
        return value
    }

    private func object(_ parent: [String: Any], _ key: String, in parentPath: String?) throws -> [String: Any] {
        guard let value = try field(parent, key, in: parentPath) as? [String: Any] else {
            throw fail("\(path(key, parentPath)) must be a JSON object")
        }
        return value
    }

    private func onlyKnownKeys(_ object: [String: Any], _ known: [String], in parent: String?) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("unknown field \"\(path(unknown, parent))\" (known: \(known.joined(separator: ", ")))")
        }
    }

    private func number(_ value: Any, at fieldPath: String, unit: String, minimum: Double, minimumIncluded: Bool,
                        maximum: Double) throws -> Double {
        let range = "\(minimumIncluded ? "[" : "(")\(plain(minimum)), \(plain(maximum))]"
        let what = unit.isEmpty ? "a number in \(range)" : "a number of \(unit) in \(range)"
        // JSON true/false also arrive as NSNumber, with Objective-C type "c".
        guard let n = value as? NSNumber, String(cString: n.objCType) != "c" else {
            throw fail("\(fieldPath) must be \(what), got \(display(value))")
        }
        let v = n.doubleValue
        guard v.isFinite, minimumIncluded ? v >= minimum : v > minimum, v <= maximum else {
            throw fail("\(fieldPath) must be \(what), got \(display(value))")
        }
        return v
    }

    private func plain(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : v.description
    }

    /// A JSON value as it would appear in the file, for messages.
    private func display(_ value: Any) -> String {
        switch value {
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return n.boolValue ? "true" : "false" }
            return n.stringValue
        case let s as String: return jsonString(s)
        case is NSNull: return "null"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(value)"
        }
    }
}
