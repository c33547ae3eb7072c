import OffgridCore
import Foundation

/// A routing profile: who travels (`TravelMode`: car, bicycle, foot), which ways they use, how
/// fast, and what turns and controls cost.
///
/// Settings come from an editable JSON file (`profiles/car.json`, `bicycle.json`, `foot.json`,
/// documented in `profiles/README.md`); the rules that interpret OSM tags are in `WayRules.swift`,
/// `Maxspeed.swift`, `NodeControl.swift`, `Restrictions.swift` and `TurnPenalty.swift`.
/// Graph files record `name` and `hash`.
public struct TravelProfile: Sendable, Equatable {
    public let settings: ProfileSettings
    /// Where the settings came from: a file path, or `TravelProfile.embeddedSource`.
    public let source: String
    /// Hex SHA-256 of `settings.canonicalJSON`.
    public let hash: String
    /// Class speeds indexed by `RoadClass.rawValue`, 0 for classes that are not drivable
    /// (an array lookup on the hot path instead of a dictionary).
    let classSpeedsKmh: [Double]

    public var name: String { settings.name }

    public static let embeddedSource = "embedded default"
    public static let defaultPath = "profiles/car.json"

    public init(settings: ProfileSettings, source: String = TravelProfile.embeddedSource) {
        self.settings = settings
        self.source = source
        self.hash = SHA256.hex(SHA256.hash(Array(settings.canonicalJSON.utf8)))
        self.classSpeedsKmh = RoadClass.allCases.map { settings.highwaySpeedsKmh[$0] ?? 0 }
    }

    /// Profiles are equal when their settings are; where they were read from does not matter.
    public static func == (a: TravelProfile, b: TravelProfile) -> Bool { a.settings == b.settings }

    /// The built-in default, parsed from `TravelProfile.embeddedDefaultJSON` (the same content as
    /// `profiles/car.json`; a test keeps them equal).
    public static let embeddedDefault: TravelProfile = {
        do {
            return try TravelProfile.parse(json: Array(embeddedDefaultJSON.utf8), source: embeddedSource)
        } catch {
            preconditionFailure("the embedded default car profile is invalid: \(error)")
        }
    }()

    /// Loads the profile to use:
    /// - `path` given: that file (errors if it cannot be read or is invalid);
    /// - `path` nil: `profiles/car.json` relative to the current directory if that file exists,
    ///   else the embedded default.
    public static func load(path: String?) throws -> TravelProfile {
        if let path { return try load(file: path) }
        if FileManager.default.fileExists(atPath: defaultPath) { return try load(file: defaultPath) }
        return embeddedDefault
    }

    private static func load(file path: String) throws -> TravelProfile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw ProfileError(file: path, "cannot read profile: \(reason)")
        }
        return try parse(json: [UInt8](data), source: path)
    }

    /// Parses and validates profile JSON; errors name `source` and the offending field.
    public static func parse(json: [UInt8], source: String) throws -> TravelProfile {
        TravelProfile(settings: try ProfileJSONReader(source: source).read(json), source: source)
    }
}
