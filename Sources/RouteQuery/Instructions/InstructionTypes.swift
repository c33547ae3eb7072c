/// Mapbox-Directions-shaped guidance attached to a step (`legs[i].steps[j]`) when a request asks
/// for it: what to say (`voiceInstructions`) and what to show (`bannerInstructions`) about the
/// maneuver that *ends* the step. Field names follow the Mapbox Directions API, so its Navigation
/// SDKs and other clients of that API read them as they are.

/// `steps[j].voiceInstructions[k]`: an announcement to speak once the driver is
/// `distanceAlongGeometry` metres before the end of the step.
public struct VoiceInstruction: Encodable, Equatable, Sendable {
    /// Metres before the step's end (the upcoming maneuver) at which to speak; within 0…step distance.
    public var distanceAlongGeometry: Double
    public var announcement: String
    /// The same text as SSML (`<speak><prosody rate="1.08">…</prosody></speak>`), escaped.
    public var ssmlAnnouncement: String

    public init(distanceAlongGeometry: Double, announcement: String, ssmlAnnouncement: String) {
        self.distanceAlongGeometry = distanceAlongGeometry
        self.announcement = announcement
        self.ssmlAnnouncement = ssmlAnnouncement
    }
}

/// One piece of a banner's text: a road name, a route shield, a delimiter, an exit number.
public struct BannerComponent: Encodable, Equatable, Sendable {
    public enum Kind: String, Encodable, Sendable {
        case text, icon, delimiter, exit, exitNumber = "exit-number"
    }

    public var text: String
    public var type: Kind

    public init(text: String, type: Kind) { self.text = text; self.type = type }
}

/// `primary` / `secondary` of a banner: the text, its components, and the maneuver to draw.
public struct BannerText: Encodable, Equatable, Sendable {
    /// The components' texts joined with spaces.
    public var text: String
    public var components: [BannerComponent]
    /// The maneuver type and modifier (OSRM's vocabulary), for the arrow icon.
    public var type: String?
    public var modifier: String?
    /// Roundabouts: where the exit lies, degrees turned around the roundabout (180 = straight on).
    public var degrees: Double?
    public var drivingSide: String?

    enum CodingKeys: String, CodingKey {
        case text, components, type, modifier, degrees
        case drivingSide = "driving_side"
    }

    public init(text: String, components: [BannerComponent], type: String? = nil, modifier: String? = nil,
                degrees: Double? = nil, drivingSide: String? = nil) {
        self.text = text
        self.components = components
        self.type = type
        self.modifier = modifier
        self.degrees = degrees
        self.drivingSide = drivingSide
    }
}

/// `steps[j].bannerInstructions[k]`: shown from `distanceAlongGeometry` metres before the step's end.
public struct BannerInstruction: Encodable, Equatable, Sendable {
    public var distanceAlongGeometry: Double
    public var primary: BannerText
    /// Where the maneuver leads (a destination), when known.
    public var secondary: BannerText?

    public init(distanceAlongGeometry: Double, primary: BannerText, secondary: BannerText? = nil) {
        self.distanceAlongGeometry = distanceAlongGeometry
        self.primary = primary
        self.secondary = secondary
    }
}
