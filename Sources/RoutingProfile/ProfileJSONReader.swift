import OffgridCore

/// Reads and validates profile JSON (the format of `profiles/car.json`). Strict: every field
/// must be present with a value in range, and unknown fields are errors, so a typo never
/// silently leaves a default in place. Highway classes are the exception: a class left out of
/// `highwaySpeedsKmh` is simply not drivable.
struct ProfileJSONReader {
    let source: String

    private func fail(_ message: String) -> ProfileError { ProfileError(file: source, message) }

    func read(_ bytes: [UInt8]) throws -> ProfileSettings {
        let root: JSONValue
        do {
            root = try JSONReader.parse(bytes)
        } catch let e as JSONReader.ParseError {
            throw fail("profile is not valid JSON: \(e.message) at byte \(e.offset)")
        }
        guard let top = root.objectValue else { throw fail("profile must be a JSON object") }
        try onlyKnownKeys(top, ["name", "mode", "highwaySpeedsKmh", "otherHighwaySpeedKmh", "routeSpeedsKmh", "maxspeedFactor",
                                "allowedAccessValues", "deniedAccessValues", "restrictedAccessValues",
                                "restrictedAccessPenaltySeconds", "passableBarriers", "blockingBarriers", "vehicle", "surfaceSpeedsKmh",
                                "tracktypeSpeedsKmh", "smoothnessSpeedsKmh", "nodeDelaysSeconds", "turns"], in: nil)

        guard let name = try field(top, "name", in: nil).stringValue, !name.isEmpty else {
            throw fail("name must be a non-empty string")
        }

        let modeValue = try field(top, "mode", in: nil)
        guard let modeName = modeValue.stringValue, let mode = TravelMode(rawValue: modeName) else {
            throw fail("mode must be \"car\", \"bicycle\" or \"foot\", got \(display(modeValue))")
        }

        let speedsObject = try object(top, "highwaySpeedsKmh", in: nil)
        var speeds: [RoadClass: Double] = [:]
        for (key, value) in speedsObject {
            guard let roadClass = RoadClass(highway: key) else {
                throw fail("unknown highway class \"\(key)\" in highwaySpeedsKmh (known: \(RoadClass.highwayClasses.map(\.osmValue).joined(separator: ", ")))")
            }
            speeds[roadClass] = try number(value, at: "highwaySpeedsKmh.\(key)", unit: "km/h",
                                           minimum: 0, minimumIncluded: false, maximum: 300)
        }
        guard !speeds.isEmpty else { throw fail("highwaySpeedsKmh must name at least one highway class") }

        let factor = try number(field(top, "maxspeedFactor", in: nil), at: "maxspeedFactor", unit: "",
                                minimum: 0, minimumIncluded: false, maximum: 2)

        let denied = try strings(top, "deniedAccessValues")

        let delays = try object(top, "nodeDelaysSeconds", in: nil)
        try onlyKnownKeys(delays, ["trafficSignals", "stop", "giveWay"], in: "nodeDelaysSeconds")
        func delay(_ key: String) throws -> Double {
            try number(field(delays, key, in: "nodeDelaysSeconds"), at: "nodeDelaysSeconds.\(key)", unit: "s",
                       minimum: 0, minimumIncluded: true, maximum: 600)
        }

        let turns = try object(top, "turns", in: nil)
        try onlyKnownKeys(turns, ["turnPenalty", "turnBias", "uTurnPenalty", "uTurns", "drivingSide"], in: "turns")
        let sideValue = try field(turns, "drivingSide", in: "turns")
        guard let sideName = sideValue.stringValue, let side = DrivingSide(rawValue: sideName) else {
            throw fail("turns.drivingSide must be \"right\" or \"left\", got \(display(sideValue))")
        }
        let uTurnValue = try field(turns, "uTurns", in: "turns")
        guard let uTurnName = uTurnValue.stringValue, let uTurns = ProfileSettings.UTurnRule(rawValue: uTurnName) else {
            throw fail("turns.uTurns must be \"notAtIntersections\", \"anywhere\" or \"deadEnds\", got \(display(uTurnValue))")
        }

        var settings = ProfileSettings(
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
        settings.uTurns = uTurns
        settings.mode = mode
        settings.allowedAccessValues = Set(try strings(top, "allowedAccessValues"))
        settings.restrictedAccessValues = Set(try strings(top, "restrictedAccessValues"))
        settings.restrictedAccessPenaltySeconds = try number(field(top, "restrictedAccessPenaltySeconds", in: nil),
                                                             at: "restrictedAccessPenaltySeconds", unit: "s",
                                                             minimum: 0, minimumIncluded: true, maximum: 3600)
        settings.otherHighwaySpeedKmh = try number(field(top, "otherHighwaySpeedKmh", in: nil), at: "otherHighwaySpeedKmh",
                                                   unit: "km/h", minimum: 0, minimumIncluded: true, maximum: 300)
        let routes = try object(top, "routeSpeedsKmh", in: nil)
        try onlyKnownKeys(routes, ["ferry", "shuttle_train"], in: "routeSpeedsKmh")
        settings.ferrySpeedKmh = try number(field(routes, "ferry", in: "routeSpeedsKmh"), at: "routeSpeedsKmh.ferry",
                                            unit: "km/h", minimum: 0, minimumIncluded: true, maximum: 300)
        settings.shuttleTrainSpeedKmh = try number(field(routes, "shuttle_train", in: "routeSpeedsKmh"),
                                                   at: "routeSpeedsKmh.shuttle_train", unit: "km/h",
                                                   minimum: 0, minimumIncluded: true, maximum: 300)
        settings.passableBarriers = Set(try strings(top, "passableBarriers"))
        settings.blockingBarriers = Set(try strings(top, "blockingBarriers"))
        let vehicle = try object(top, "vehicle", in: nil)
        try onlyKnownKeys(vehicle, ["heightM", "widthM", "lengthM", "weightKg"], in: "vehicle")
        func dimension(_ key: String, _ unit: String, _ maximum: Double) throws -> Double {
            try number(field(vehicle, key, in: "vehicle"), at: "vehicle.\(key)", unit: unit,
                       minimum: 0, minimumIncluded: true, maximum: maximum)
        }
        settings.vehicleHeightM = try dimension("heightM", "m", 20)
        settings.vehicleWidthM = try dimension("widthM", "m", 20)
        settings.vehicleLengthM = try dimension("lengthM", "m", 100)
        settings.vehicleWeightKg = try dimension("weightKg", "kg", 200_000)
        settings.surfaceSpeedsKmh = try speedTable(top, "surfaceSpeedsKmh")
        settings.tracktypeSpeedsKmh = try speedTable(top, "tracktypeSpeedsKmh")
        settings.smoothnessSpeedsKmh = try speedTable(top, "smoothnessSpeedsKmh")
        return settings
    }

    private func strings(_ top: [String: JSONValue], _ key: String) throws -> [String] {
        let list = try field(top, key, in: nil).arrayValue ?? [.null]
        let values = list.compactMap(\.stringValue)
        guard values.count == list.count, values.allSatisfy({ !$0.isEmpty }) else {
            throw fail("\(key) must be an array of non-empty strings")
        }
        return values
    }

    /// An object of tag value → km/h in [0, 300] (0: impassable).
    private func speedTable(_ top: [String: JSONValue], _ key: String) throws -> [String: Double] {
        var table: [String: Double] = [:]
        for (value, speed) in try object(top, key, in: nil) {
            table[value] = try number(speed, at: "\(key).\(value)", unit: "km/h", minimum: 0, minimumIncluded: true, maximum: 300)
        }
        return table
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
