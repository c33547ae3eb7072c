import OffgridCore

/// Reads and validates profile JSON (the format of `profiles/car.json`). Strict: every field
/// must be present with a value in range, and unknown fields are errors, so a typo never
/// silently leaves a default in place. Highway classes are the exception: a class left out of
/// `highwaySpeedsKmh` is simply not drivable.
struct ProfileJSONReader {
    let source: String

    private func fail(_ message: String) -> ProfileError { ProfileError(file: source, message) }

    func read(_ bytes: [UInt8]) throws -> CarProfileSettings {
        let root: JSONValue
        do {
            root = try JSONReader.parse(bytes)
        } catch let e as JSONReader.ParseError {
            throw fail("profile is not valid JSON: \(e.message) at byte \(e.offset)")
        }
        guard let top = root.objectValue else { throw fail("profile must be a JSON object") }
        try onlyKnownKeys(top, ["name", "highwaySpeedsKmh", "maxspeedFactor", "deniedAccessValues",
                                "nodeDelaysSeconds", "turns"], in: nil)

        guard let name = try field(top, "name", in: nil).stringValue, !name.isEmpty else {
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

        let deniedList = try field(top, "deniedAccessValues", in: nil).arrayValue ?? [.null]
        let denied = deniedList.compactMap(\.stringValue)
        guard denied.count == deniedList.count, denied.allSatisfy({ !$0.isEmpty }) else {
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
        guard let sideName = sideValue.stringValue, let side = DrivingSide(rawValue: sideName) else {
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

    private func field(_ object: [String: JSONValue], _ key: String, in parent: String?) throws -> JSONValue {
        guard let value = object[key] else { throw fail("missing field \"\(path(key, parent))\"") }
        return value
    }

    private func object(_ parent: [String: JSONValue], _ key: String, in parentPath: String?) throws -> [String: JSONValue] {
        guard let value = try field(parent, key, in: parentPath).objectValue else {
            throw fail("\(path(key, parentPath)) must be a JSON object")
        }
        return value
    }

    private func onlyKnownKeys(_ object: [String: JSONValue], _ known: [String], in parent: String?) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("unknown field \"\(path(unknown, parent))\" (known: \(known.joined(separator: ", ")))")
        }
    }

    private func number(_ value: JSONValue, at fieldPath: String, unit: String, minimum: Double, minimumIncluded: Bool,
                        maximum: Double) throws -> Double {
        let range = "\(minimumIncluded ? "[" : "(")\(plain(minimum)), \(plain(maximum))]"
        let what = unit.isEmpty ? "a number in \(range)" : "a number of \(unit) in \(range)"
        guard let v = value.doubleValue, v.isFinite, minimumIncluded ? v >= minimum : v > minimum, v <= maximum else {
            throw fail("\(fieldPath) must be \(what), got \(display(value))")
        }
        return v
    }

    private func plain(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : v.description
    }

    /// A JSON value as it would appear in the file, for messages.
    private func display(_ value: JSONValue) -> String {
        switch value {
        case .array, .object: return value.typeName
        case .string(let s): return jsonString(s)
        default: return JSONWriter.string(value, pretty: false)
        }
    }
}
