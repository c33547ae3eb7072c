import OffgridCore

/// A followed route's instructions laid out along it, for replaying a drive: given how far the
/// driver has come, which voice announcement is due now (its `distanceAlongGeometry` before the
/// step's end has been reached and it was not spoken yet) and which banner is to be shown.
/// When several became due since the last fix (sparse fixes), only the latest is due: a
/// navigation SDK would not read out stale announcements either.
public struct InstructionTimeline {
    struct Step {
        var start: Double
        var length: Double
        var voice: [VoiceInstruction]
        var banner: [BannerInstruction]
    }

    var steps: [Step] = []
    /// Per step: how many of its voice / banner instructions are behind the driver.
    var voiceDone: [Int] = []
    var bannerDone: [Int] = []
    /// A trigger this close (m) counts as reached: step lengths and geometry agree to about that.
    static let tolerance = 1.0

    public var isEmpty: Bool { steps.allSatisfy { $0.voice.isEmpty && $0.banner.isEmpty } }

    init(lengths: [(Double, [VoiceInstruction], [BannerInstruction])], geometryMeters: Double) {
        let total = lengths.reduce(0) { $0 + $1.0 }
        // Steps measure the tiles' lengths, the tracker the geometry: stretch one onto the other.
        let scale = total > 0 && geometryMeters > 0 ? geometryMeters / total : 1
        var at = 0.0
        for (length, voice, banner) in lengths {
            steps.append(Step(start: at * scale, length: length * scale, voice: voice, banner: banner))
            at += length
        }
        voiceDone = Array(repeating: 0, count: steps.count)
        bannerDone = voiceDone
    }

    /// From a typed route (a reroute's answer).
    public init(route: Route, geometryMeters: Double) {
        self.init(lengths: route.legs.flatMap { $0.steps.map { ($0.distance, $0.voiceInstructions ?? [], $0.bannerInstructions ?? []) } },
                  geometryMeters: geometryMeters)
    }

    /// From a route as JSON (a route file written by `route-query route`); steps without
    /// instructions give an empty timeline.
    public init(json route: JSONValue, geometryMeters: Double) {
        let steps = (route["legs"]?.arrayValue ?? []).flatMap { $0["steps"]?.arrayValue ?? [] }
        self.init(lengths: steps.map { s in
            (s["distance"]?.doubleValue ?? 0,
             (s["voiceInstructions"]?.arrayValue ?? []).compactMap(VoiceInstruction.init(json:)),
             (s["bannerInstructions"]?.arrayValue ?? []).compactMap(BannerInstruction.init(json:)))
        }, geometryMeters: geometryMeters)
    }

    /// What is due at `along` metres from the route's start; marks it (and anything it passed) done.
    public mutating func due(along: Double) -> (voice: VoiceInstruction?, banner: BannerInstruction?) {
        guard !steps.isEmpty else { return (nil, nil) }
        let k = steps.lastIndex { $0.start <= along && $0.length > 0 } ?? 0
        for j in 0..<k { voiceDone[j] = steps[j].voice.count; bannerDone[j] = steps[j].banner.count }
        let remaining = steps[k].start + steps[k].length - along
        func reached(_ d: Double) -> Bool { d + Self.tolerance >= remaining }
        var voice: VoiceInstruction?, banner: BannerInstruction?
        while voiceDone[k] < steps[k].voice.count, reached(steps[k].voice[voiceDone[k]].distanceAlongGeometry) {
            voice = steps[k].voice[voiceDone[k]]
            voiceDone[k] += 1
        }
        while bannerDone[k] < steps[k].banner.count, reached(steps[k].banner[bannerDone[k]].distanceAlongGeometry) {
            banner = steps[k].banner[bannerDone[k]]
            bannerDone[k] += 1
        }
        return (voice, banner)
    }
}

extension VoiceInstruction {
    init?(json v: JSONValue) {
        guard let d = v["distanceAlongGeometry"]?.doubleValue, let a = v["announcement"]?.stringValue,
              let s = v["ssmlAnnouncement"]?.stringValue else { return nil }
        self.init(distanceAlongGeometry: d, announcement: a, ssmlAnnouncement: s)
    }
}

extension BannerInstruction {
    init?(json v: JSONValue) {
        guard let d = v["distanceAlongGeometry"]?.doubleValue, let p = v["primary"].flatMap(BannerText.init(json:)) else { return nil }
        self.init(distanceAlongGeometry: d, primary: p, secondary: v["secondary"].flatMap(BannerText.init(json:)))
    }
}

extension BannerText {
    init?(json v: JSONValue) {
        guard let text = v["text"]?.stringValue else { return nil }
        let components = (v["components"]?.arrayValue ?? []).compactMap { c -> BannerComponent? in
            guard let t = c["text"]?.stringValue, let kind = c["type"]?.stringValue.flatMap(BannerComponent.Kind.init(rawValue:)) else { return nil }
            return BannerComponent(text: t, type: kind)
        }
        self.init(text: text, components: components, type: v["type"]?.stringValue, modifier: v["modifier"]?.stringValue,
                  degrees: v["degrees"]?.doubleValue, drivingSide: v["driving_side"]?.stringValue)
    }
}
