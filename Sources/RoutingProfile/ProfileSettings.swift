/// Everything editable about a profile: the contents of `profiles/car.json`, `bicycle.json`, `foot.json`
/// (documented field by field in `profiles/README.md`).
public struct ProfileSettings: Equatable, Sendable {
    public var name: String
    /// Who travels: which access, oneway and restriction tags speak to the traveller.
    public var mode: TravelMode = .car
    /// Class speed in km/h for each drivable class. A class left out is not drivable.
    public var highwaySpeedsKmh: [RoadClass: Double]
    /// Multiplies numeric `maxspeed` values (OSRM's `speed_reduction` is 0.8).
    public var maxspeedFactor: Double
    /// Values of `motorcar`/`motor_vehicle`/`vehicle`/`access` that close a way to cars.
    public var deniedAccessValues: Set<String>
    public var trafficSignalsDelaySeconds: Double
    public var stopDelaySeconds: Double
    public var giveWayDelaySeconds: Double
    /// Largest angle-dependent turn cost (OSRM `turn_penalty`).
    public var turnPenaltySeconds: Double
    /// Skew making turns across oncoming traffic dearer (OSRM `turn_bias`).
    public var turnBias: Double
    /// Added for U-turns (OSRM `u_turn_penalty`).
    public var uTurnPenaltySeconds: Double
    public var drivingSide: DrivingSide
    /// Where U-turns are allowed (`UTurnRule`).
    public var uTurns: UTurnRule = .notAtIntersections

    /// Access values that open a way or node to cars (OSRM `access_tag_whitelist`); values in
    /// none of the three lists open it too.
    public var allowedAccessValues: Set<String> = []
    /// Access values that allow cars only to reach a place on the road (destination, private…):
    /// on a highway class such a road is used at `restrictedAccessPenaltySeconds` when entered
    /// from a road without the restriction; on any other way, and on nodes, they count as denied
    /// (ways) or passable (nodes), as in OSRM.
    public var restrictedAccessValues: Set<String> = []
    public var restrictedAccessPenaltySeconds: Double = 0
    /// Speed of a way whose `highway=*` value is no class of `highwaySpeedsKmh` but whose access
    /// tags allow cars (OSRM `default_speed`).
    public var otherHighwaySpeedKmh: Double = 0
    /// `route=ferry` and `route=shuttle_train` speeds when the way has no usable `duration`;
    /// 0 leaves that route out.
    public var ferrySpeedKmh: Double = 0
    public var shuttleTrainSpeedKmh: Double = 0
    /// `barrier=*` values the traveller passes (OSRM car's `barrier_whitelist`): when the list is
    /// not empty, every other value blocks.
    public var passableBarriers: Set<String> = []
    /// `barrier=*` values that block (OSRM bicycle's and foot's `barrier_blacklist`), whatever
    /// `passableBarriers` says.
    public var blockingBarriers: Set<String> = []
    /// Vehicle dimensions checked against maxheight, maxwidth/width, maxlength, maxweight.
    public var vehicleHeightM: Double = 0
    public var vehicleWidthM: Double = 0
    public var vehicleLengthM: Double = 0
    public var vehicleWeightKg: Double = 0
    /// Caps on speed by `surface=*`, `tracktype=*`, `smoothness=*` value (0: impassable).
    public var surfaceSpeedsKmh: [String: Double] = [:]
    public var tracktypeSpeedsKmh: [String: Double] = [:]
    public var smoothnessSpeedsKmh: [String: Double] = [:]

    public enum UTurnRule: String, Sendable {
        /// At every node of the graph.
        case anywhere
        /// Only at dead ends (and barriers).
        case deadEnds
        /// OSRM's car rule (`isTurnAllowed`): at dead ends, barriers and turning places, where
        /// the road arrived on is the only way in or the only way out, never at a usual
        /// intersection.
        case notAtIntersections
    }

    public init(name: String, highwaySpeedsKmh: [RoadClass: Double], maxspeedFactor: Double,
                deniedAccessValues: Set<String>, trafficSignalsDelaySeconds: Double, stopDelaySeconds: Double,
                giveWayDelaySeconds: Double, turnPenaltySeconds: Double, turnBias: Double,
                uTurnPenaltySeconds: Double, drivingSide: DrivingSide) {
        self.name = name
        self.highwaySpeedsKmh = highwaySpeedsKmh
        self.maxspeedFactor = maxspeedFactor
        self.deniedAccessValues = deniedAccessValues
        self.trafficSignalsDelaySeconds = trafficSignalsDelaySeconds
        self.stopDelaySeconds = stopDelaySeconds
        self.giveWayDelaySeconds = giveWayDelaySeconds
        self.turnPenaltySeconds = turnPenaltySeconds
        self.turnBias = turnBias
        self.uTurnPenaltySeconds = uTurnPenaltySeconds
        self.drivingSide = drivingSide
    }

    /// Deterministic serialization the profile hash is computed from: fixed key order, no
    /// whitespace, shortest round-trip numbers, access values sorted. Reformatting or
    /// reordering `car.json` does not change it; changing any value does.
    ///
    /// The leading `rules` number names the version of the tag rules in this module; bump it
    /// when `evaluateWay` & co. change meaning, so tiles built with the old rules get a
    /// different profile hash.
    public var canonicalJSON: String {
        var out = "{\"rules\":\(ProfileSettings.rulesVersion)"
        out += ",\"deniedAccessValues\":[" + deniedAccessValues.sorted().map(jsonString).joined(separator: ",") + "]"
        out += ",\"drivingSide\":" + jsonString(drivingSide.rawValue)
        out += ",\"highwaySpeedsKmh\":{"
        out += RoadClass.allCases.compactMap { c in highwaySpeedsKmh[c].map { "\(jsonString(c.osmValue)):\(number($0))" } }
            .joined(separator: ",")
        out += "},\"maxspeedFactor\":" + number(maxspeedFactor)
        out += ",\"mode\":" + jsonString(mode.rawValue)
        out += ",\"name\":" + jsonString(name)
        out += ",\"nodeDelaysSeconds\":{\"giveWay\":\(number(giveWayDelaySeconds)),\"stop\":\(number(stopDelaySeconds))"
        out += ",\"trafficSignals\":\(number(trafficSignalsDelaySeconds))}"
        out += ",\"turns\":{\"turnBias\":\(number(turnBias)),\"turnPenalty\":\(number(turnPenaltySeconds))"
        out += ",\"uTurnPenalty\":\(number(uTurnPenaltySeconds)),\"uTurns\":" + jsonString(uTurns.rawValue) + "}"
        out += ",\"allowedAccessValues\":" + list(allowedAccessValues)
        out += ",\"restrictedAccessValues\":" + list(restrictedAccessValues)
        out += ",\"restrictedAccessPenaltySeconds\":" + number(restrictedAccessPenaltySeconds)
        out += ",\"otherHighwaySpeedKmh\":" + number(otherHighwaySpeedKmh)
        out += ",\"routeSpeedsKmh\":{\"ferry\":\(number(ferrySpeedKmh)),\"shuttle_train\":\(number(shuttleTrainSpeedKmh))}"
        out += ",\"passableBarriers\":" + list(passableBarriers)
        out += ",\"blockingBarriers\":" + list(blockingBarriers)
        out += ",\"vehicle\":{\"heightM\":\(number(vehicleHeightM)),\"lengthM\":\(number(vehicleLengthM))"
        out += ",\"weightKg\":\(number(vehicleWeightKg)),\"widthM\":\(number(vehicleWidthM))}"
        out += ",\"surfaceSpeedsKmh\":" + table(surfaceSpeedsKmh)
        out += ",\"tracktypeSpeedsKmh\":" + table(tracktypeSpeedsKmh)
        out += ",\"smoothnessSpeedsKmh\":" + table(smoothnessSpeedsKmh)
        return out + "}"
    }

    /// Version 2: barriers, the access lists and hierarchy by direction, ferries, physical
    /// limits, surfaces, U-turns anywhere (issue 50's rules of the road). Version 3: turning
    /// places (node control 16). Version 4: the travel mode (car, bicycle, foot) and the classes
    /// of cyclists' and walkers' ways.
    static let rulesVersion = 4

    private func list(_ values: Set<String>) -> String {
        "[" + values.sorted().map(jsonString).joined(separator: ",") + "]"
    }

    private func table(_ values: [String: Double]) -> String {
        "{" + values.keys.sorted().map { "\(jsonString($0)):\(number(values[$0]!))" }.joined(separator: ",") + "}"
    }

    private func number(_ v: Double) -> String {
        // Integral values without ".0" so 110 and 110.0 hash alike; others shortest round-trip.
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }
}

/// A JSON string literal with the escapes JSON requires.
func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
