/// Builds every step's `voiceInstructions` and `bannerInstructions` for one leg. The
/// instructions of step i are about the maneuver that ends it (the start of step i + 1); the
/// arrive step has none. Pure function of the steps: the same route gives the same bytes.
struct InstructionBuilder {
    let steps: [RouteStep]
    let leg: Int
    let legCount: Int
    /// Which side of the road the requested destination lies on ("left", "right"), or nil.
    let arriveSide: String?
    /// Each maneuver phrased once, and its words at the maneuver.
    private var phrases: [ManeuverPhrase] = []
    private var nows: [ManeuverPhrase.Text] = []

    init(steps: [RouteStep], leg: Int, legCount: Int, arriveSide: String?) {
        self.steps = steps
        self.leg = leg
        self.legCount = legCount
        self.arriveSide = arriveSide
        phrases = steps.indices.map(makePhrase)
        nows = phrases.map(\.now)
    }

    /// A step shorter than this (m) is announced together with the one before it ("…, then …").
    static let shortStepMeters = 100.0

    func voice() -> [[VoiceInstruction]] {
        steps.indices.map { i in i + 1 < steps.count ? voice(step: i) : [] }
    }

    func banners() -> [[BannerInstruction]] {
        steps.indices.map { i in
            guard i + 1 < steps.count else { return [] }
            let b = BannerBuilder(phrase: phrase(i + 1), roadName: roadName(i + 1), roadRef: roadRef(i + 1),
                                  degrees: roundaboutTurn(i + 1)?.degrees, overallModifier: roundaboutTurn(i + 1)?.modifier)
            return [BannerInstruction(distanceAlongGeometry: round1(steps[i].meters), primary: b.primary())]
        }
    }

    /// Announcements of step i about maneuver i + 1, largest distance first.
    func voice(step i: Int) -> [VoiceInstruction] {
        let step = steps[i]
        let schedule = VoiceSchedule(length: step.meters, seconds: step.seconds)
        let longStretch = i > 0 && step.meters >= 2 * schedule.early
        let d = schedule.distances(startsWithAnnouncement: i == 0 || longStretch)
        var out: [VoiceInstruction] = []
        func add(_ distance: Double, _ text: ManeuverPhrase.Text) {
            let plain = text.plain + "."
            out.append(VoiceInstruction(distanceAlongGeometry: distance, announcement: plain, ssmlAnnouncement: SSML.speak(text.ssml + ".")))
        }
        let atManeuver = chained(i + 1)
        if let start = d.start {
            if i == 0 {
                let depart = nows[0]
                // A depart step too short for its own announcement of the turn says both at once.
                add(start, d.at == nil && d.near == nil && d.early == nil
                    ? depart + ManeuverPhrase.Text(", then ") + lowered(chained(i + 1, second: true)) : depart)
            } else {
                let p = phrase(i)
                let distance = SpokenDistance.text(SpokenDistance.roundedDown(step.meters) ?? step.meters)
                add(start, p.fill(p.road.isEmpty ? Phrasebook.continueFor.unnamed : Phrasebook.continueFor.named, distance: distance))
            }
        }
        if let e = d.early { add(e, announced(i + 1, inMeters: e)) }
        if let n = d.near { add(n, announced(i + 1, inMeters: n)) }
        if let a = d.at { add(a, atManeuver) }
        return out
    }

    /// Maneuver j's words at the maneuver, joined with maneuver j + 1's when step j is short.
    func chained(_ j: Int, second: Bool = false) -> ManeuverPhrase.Text {
        let p = second ? then(j) : nows[j]
        guard j + 1 < steps.count, steps[j].meters < Self.shortStepMeters,
              !steps[j].type.hasExitStep, steps[j].type != .arrive else { return p }
        return p + ManeuverPhrase.Text(", then ") + lowered(then(j + 1))
    }

    /// Maneuver j as the second half of "…, then …": arrival in its future form.
    func then(_ j: Int) -> ManeuverPhrase.Text { steps[j].type == .arrive ? phrases[j].ahead : nows[j] }

    /// "In 500 meters, turn right onto X" (the same words as `ManeuverPhrase.announced`, from the cache).
    func announced(_ j: Int, inMeters meters: Double) -> ManeuverPhrase.Text {
        ManeuverPhrase.Text("In \(SpokenDistance.text(meters)), ") + lowered(steps[j].type == .arrive ? phrases[j].ahead : nows[j])
    }

    func lowered(_ t: ManeuverPhrase.Text) -> ManeuverPhrase.Text {
        ManeuverPhrase.Text(plain: lowercasedFirst(t.plain), ssml: lowercasedFirst(t.ssml))
    }

    func phrase(_ j: Int) -> ManeuverPhrase { phrases[j] }

    /// Maneuver j, ready to phrase.
    func makePhrase(_ j: Int) -> ManeuverPhrase {
        let s = steps[j]
        var road = spoken(j)
        var modifier = s.modifier
        if s.type.hasExitStep {
            // The road named is the one the exit leads to, not the roundabout's own name.
            road = j + 1 < steps.count && steps[j + 1].type.exitsRoundabout ? spoken(j + 1) : ""
            modifier = roundaboutTurn(j)?.modifier ?? modifier
        }
        var towards: String?
        if road.isEmpty, [.onRamp, .offRamp, .fork, .merge].contains(s.type) {
            // A nameless ramp: say the first named road it leads to.
            towards = steps[(j + 1)..<min(steps.count - 1, j + 4)].indices.lazy.map { spoken($0) }.first { !$0.isEmpty }
        }
        return ManeuverPhrase(type: s.type, modifier: modifier, road: road, towards: towards, exit: s.exit,
                              compassBearing: Int(s.bearingAfter) % 360, side: s.type == .arrive ? arriveSide : nil,
                              goal: Phrasebook.goal(leg: leg, legCount: legCount))
    }

    /// The road of step j as spoken: its name, else its first ref.
    func spoken(_ j: Int) -> String {
        let s = steps[j]
        if !s.name.isEmpty { return s.name }
        return refs(s.ref).first ?? ""
    }

    /// Banner road of maneuver j: the exit road for a roundabout, the road reached for a nameless ramp.
    func roadName(_ j: Int) -> String { bannerStep(j).map { steps[$0].name } ?? "" }
    func roadRef(_ j: Int) -> String { bannerStep(j).map { steps[$0].ref } ?? "" }

    func bannerStep(_ j: Int) -> Int? {
        let s = steps[j]
        if s.type.hasExitStep { return j + 1 < steps.count && steps[j + 1].type.exitsRoundabout ? j + 1 : nil }
        if s.name.isEmpty && s.ref.isEmpty && [.onRamp, .offRamp, .fork, .merge].contains(s.type) {
            return ((j + 1)..<min(steps.count - 1, j + 4)).first { !steps[$0].name.isEmpty || !steps[$0].ref.isEmpty }
        }
        return j
    }

    /// A roundabout entered at step j and left at step j + 1: the turn it amounts to, as a
    /// modifier and as Mapbox's `degrees` (turned around the roundabout: 180 straight on,
    /// 90 right, 270 left, 360 back, for right-hand traffic driving anticlockwise).
    func roundaboutTurn(_ j: Int) -> (modifier: ManeuverModifier, degrees: Double)? {
        guard steps[j].type.hasExitStep, j + 1 < steps.count, steps[j + 1].type.exitsRoundabout else { return nil }
        let angle = turnAngle(arriving: steps[j].bearingBefore, leaving: steps[j + 1].bearingAfter)
        var degrees = (180 - angle).rounded()
        if degrees <= 0 { degrees += 360 }
        if degrees > 360 { degrees -= 360 }
        return (ManeuverModifier(angle: angle), degrees)
    }
}

extension InstructionBuilder {
    /// Fills the asked-for instruction arrays of one leg's step responses.
    static func attach(to responses: inout [RouteStepResponse], steps: [RouteStep], points: LegPoints, leg: Int, legCount: Int,
                       requested: (lon: Double, lat: Double), voice: Bool, banner: Bool) {
        guard steps.count >= 2, responses.count == steps.count else { return }
        let arrive = steps[steps.count - 1]
        let side = ArriveSide.side(lastStep: steps[steps.count - 2], points: points, snapped: arrive.location, requested: requested)
        let builder = InstructionBuilder(steps: steps, leg: leg, legCount: legCount, arriveSide: side)
        if voice { for (i, v) in builder.voice().enumerated() { responses[i].voiceInstructions = v } }
        if banner { for (i, b) in builder.banners().enumerated() { responses[i].bannerInstructions = b } }
    }
}
