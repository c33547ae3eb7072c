import LocationTraces
import RouteQuery

/// One piece of the trace matched to one drive: its fixes in order and the state each stands for.
struct MatchedRun {
    var fixes: [Int] = []
    var states: [Int] = []
    /// Per fix: how many other roads stayed nearly as likely (OSRM's `alternatives_count`).
    var alternatives: [Int] = []
    /// Per fix: matched a little behind the previous one (noise): the vehicle stood there.
    var stood: [Bool] = []
}

/// The hidden Markov model of Newson & Krumm (2009), solved by Viterbi over the fixes in order.
///
/// Emission: a Gaussian of the fix's distance to the road, σ = its accuracy. Transition: an
/// exponential of |great-circle distance between the fixes − road distance between the
/// states|, scale β; a road distance longer than the straight line plus what the vehicle could
/// have driven in the time between (or, untimed, a detour factor) is impossible, so no match
/// goes through a wall or around a block that the fixes did not. A fix no state of the
/// previous one can reach is skipped (unmatched) and the next tried from the last matched
/// fix; after `maxSkippedFixes` such fixes in a row, or at a gap in time or space, the run ends
/// and a new one starts at the first fix not followed.
final class ViterbiMatcher {
    let request: MatchRequest
    let candidates: MatchCandidates
    let search: TransitionSearch

    /// Scores and back pointers per state (global index), reused between runs.
    private var score: [Double]
    private var back: [Int]
    /// Whether the state's best predecessor lies ahead of it (noise: the vehicle stood).
    private var stood: [Bool]
    /// Scratch for one layer's targets and distances.
    private var targets: [(edgeDirection: UInt32, share: Double)] = []
    private var meters: [Double] = []
    private var sources: [Int] = []
    /// Per fix: the most likely state given the fixes up to it (forward filtering, no look
    /// ahead), what a navigation SDK shows as the matched location at that moment; -1 unmatched.
    private(set) var online: [Int]

    init(request: MatchRequest, candidates: MatchCandidates, search: TransitionSearch) {
        self.request = request
        self.candidates = candidates
        self.search = search
        score = [Double](repeating: -.infinity, count: candidates.states.count)
        back = [Int](repeating: -1, count: candidates.states.count)
        stood = [Bool](repeating: false, count: candidates.states.count)
        online = [Int](repeating: -1, count: request.fixes.count)
    }

    /// Per fix of `runs`: its state as known `lag` fixes of its run later (fixed-lag smoothing:
    /// the most likely state then, traced back), -1 for fixes in no run. Lag 0 is `online`.
    func lagged(_ runs: [MatchedRun], lag: Int) -> [Int] {
        var out = [Int](repeating: -1, count: request.fixes.count)
        for run in runs {
            let n = run.fixes.count
            for p in 0..<n {
                let j = min(p + lag, n - 1)
                var s = online[run.fixes[j]]
                var k = j
                while k > p && s >= 0 { s = back[s]; k -= 1 }
                out[run.fixes[p]] = s
            }
        }
        return out
    }

    /// The most likely state of fix f as scored so far.
    private func leader(_ f: Int) -> Int {
        var best = -1
        for s in candidates.range(f) where score[s] > -.infinity && (best < 0 || score[s] > score[best]) { best = s }
        return best
    }

    /// The matched runs, in trace order (runs of a single fix are dropped: nothing was driven).
    func runs() -> [MatchedRun] {
        let fixes = request.fixes, p = request.parameters
        var out: [MatchedRun] = []
        var chain: [Int] = []
        var failures: [Int] = []
        var i = 0
        func start(_ f: Int) {
            chain = [f]
            for s in candidates.range(f) { score[s] = candidates.states[s].emission; back[s] = -1; stood[s] = false }
            online[f] = leader(f)
        }
        while i < fixes.count {
            defer { i += 1 }
            guard candidates.usable[i], !candidates.range(i).isEmpty else { continue }
            guard let last = chain.last else { start(i); continue }
            if request.gaps == .split && isGap(last, i) {
                if let run = finish(chain) { out.append(run) }
                failures = []
                start(i)
                continue
            }
            if step(from: last, to: i) {
                chain.append(i)
                online[i] = leader(i)
                failures = []
            } else {
                failures.append(i)
                if failures.count > p.maxSkippedFixes {
                    if let run = finish(chain) { out.append(run) }
                    let restart = failures[0]
                    failures = []
                    start(restart)
                    i = restart
                }
            }
        }
        if let run = finish(chain) { out.append(run) }
        return out
    }

    /// Whether the trace breaks between fixes a and b (gaps=split).
    func isGap(_ a: Int, _ b: Int) -> Bool {
        let fa = request.fixes[a], fb = request.fixes[b], p = request.parameters
        if request.hasTimestamps && fb.time - fa.time > p.maxGapSeconds { return true }
        return greatCircle(fa, fb) > p.maxGapMeters
    }

    /// The most a road between states of fixes a and b may measure.
    func routeLimit(_ a: Int, _ b: Int, straight: Double) -> Double {
        let p = request.parameters, fa = request.fixes[a], fb = request.fixes[b]
        let noise = 2 * (candidates.sigma[a] + candidates.sigma[b])
        if request.hasTimestamps {
            // What the vehicle could drive in the time, but no longer a detour than untimed fixes
            // allow (the retry in `step` doubles it where that was too tight).
            let drivable = p.maxSpeed * max(0, fb.time - fa.time)
            let detour = (p.untimedDetourFactor - 1) * straight + p.untimedSlack / 2
            return straight + max(min(drivable, detour + noise), noise) + 10
        }
        return straight * p.untimedDetourFactor + p.untimedSlack + noise
    }

    /// Scores fix b's states from fix a's; false (and b's states untouched) when none is
    /// reachable. A first try searches from the likely states only, within the usual limit; when
    /// that reaches nothing (the likely states were a dead end), every state is searched from,
    /// twice as far, before the fix is given up.
    func step(from a: Int, to b: Int) -> Bool {
        step(from: a, to: b, beam: request.parameters.beamWidth, widen: 1)
            || step(from: a, to: b, beam: .infinity, widen: 2)
    }

    func step(from a: Int, to b: Int, beam: Double, widen: Double) -> Bool {
        let p = request.parameters
        let straight = greatCircle(request.fixes[a], request.fixes[b])
        let limit = routeLimit(a, b, straight: straight) * widen
        let to = candidates.range(b)
        targets.removeAll(keepingCapacity: true)
        for s in to { targets.append((candidates.states[s].edgeDirection, candidates.states[s].share)) }
        if meters.count < to.count { meters = [Double](repeating: 0, count: to.count) }
        var best = [Double](repeating: -.infinity, count: to.count)
        var from = [Int](repeating: -1, count: to.count)
        let backward = p.backwardTolerance * max(candidates.sigma[a], candidates.sigma[b])
        // The straight line between two noisy fixes is itself off by about σ√2: noisier fixes
        // need a wider β, or the matcher zigzags over side roads to follow the noise.
        let sa = candidates.sigma[a], sb = candidates.sigma[b]
        // A fix far less precise than its neighbour (reduced accuracy) says little about where the
        // vehicle was: its straight line to the neighbour would pull the route to where it lies.
        // Between such fixes the straight line is taken between the two road positions instead,
        // and β follows the precise fix.
        let mixed = max(sa, sb) > 3 * min(sa, sb) && max(sa, sb) > 50
        let beta = max(p.beta, p.betaPerSigma * (mixed ? min(sa, sb) : max(sa, sb)))
        var leader = -Double.infinity
        for s in candidates.range(a) { leader = max(leader, score[s]) }
        // Likely states first: what they reach bounds how far a less likely state's search can
        // still find a better (or equally good) predecessor, |g − d| ≤ β (score − best), so later
        // searches stop sooner, or are not made. Ties go to the lower state, so the order never
        // changes the answer.
        sources.removeAll(keepingCapacity: true)
        for s in candidates.range(a) where score[s] > -.infinity && score[s] >= leader - beam { sources.append(s) }
        sources.sort { score[$0] != score[$1] ? score[$0] > score[$1] : $0 < $1 }
        let targetsDisc = disc(b, candidates.range(b))
        for s in sources {
            var useful = 0.0
            for k in 0..<to.count {
                if best[k] == -.infinity { useful = .infinity; break }
                guard score[s] >= best[k] else { continue }
                let g = mixed ? roadPointDistance(s, to[to.startIndex + k]) : straight
                useful = max(useful, g + beta * (score[s] - best[k]) + 0.01)
            }
            guard useful > 0 else { continue }
            let state = candidates.states[s]
            targets.withUnsafeBufferPointer { t in
                meters.withUnsafeMutableBufferPointer { m in
                    search.distances(sourceRank: state.rank, sourceShare: state.share, targets: t, within: targetsDisc, limitMeters: min(limit, useful),
                                     backwardMeters: backward, into: m)
                }
            }
            for k in 0..<to.count where meters[k] < .infinity {
                let g = mixed ? roadPointDistance(s, to[to.startIndex + k]) : straight
                let v = score[s] - abs(g - meters[k]) / beta
                if v > best[k] || v == best[k] && s < from[k] { best[k] = v; from[k] = s }
            }
        }
        // A state no likely state of fix a reaches may lie a little *behind* one of them (the
        // fixes' noise exceeds the distance driven, across an edge's end too): then the vehicle
        // stood there. One short search from each such state towards fix a's states finds them.
        var stoodHere = [Bool](repeating: false, count: to.count)
        if from.contains(where: { $0 < 0 }) {
            let sources = candidates.range(a).filter { score[$0] > -.infinity && score[$0] >= leader - beam }
            let ahead = sources.map { (edgeDirection: candidates.states[$0].edgeDirection, share: candidates.states[$0].share) }
            var behind = [Double](repeating: .infinity, count: sources.count)
            let sourcesDisc = disc(a, sources)
            for (k, t) in to.enumerated() where from[k] < 0 {
                let state = candidates.states[t]
                // Behind: driving from b's state reaches a's within the tolerance.
                ahead.withUnsafeBufferPointer { targets in
                    behind.withUnsafeMutableBufferPointer { m in
                        search.distances(sourceRank: state.rank, sourceShare: state.share, targets: targets, within: sourcesDisc,
                                         limitMeters: backward, backwardMeters: 0, into: m)
                    }
                }
                for (j, s) in sources.enumerated() where behind[j] <= backward {
                    let g = mixed ? roadPointDistance(s, t) : straight
                    let v = score[s] - g / beta
                    if v > best[k] { best[k] = v; from[k] = s; stoodHere[k] = true }
                }
            }
        }
        guard from.contains(where: { $0 >= 0 }) else { return false }
        for (k, s) in to.enumerated() {
            score[s] = from[k] >= 0 ? best[k] + candidates.states[s].emission : -.infinity
            back[s] = from[k]
            stood[s] = stoodHere[k]
        }
        return true
    }

    /// A circle around fix f holding the road points of its states (all, or `states`).
    func disc<States: Sequence<Int>>(_ f: Int, _ states: States) -> TargetDisc {
        var radius = 0.0
        for s in states { radius = max(radius, candidates.states[s].phantom.distance) }
        return TargetDisc(lat: request.fixes[f].lat, lon: request.fixes[f].lon, radiusMeters: radius + 1)
    }

    /// Metres between two states' road points.
    func roadPointDistance(_ s: Int, _ t: Int) -> Double {
        let a = candidates.states[s].phantom, b = candidates.states[t].phantom
        return greatCircle(LocationFix(time: 0, lon: a.lon, lat: a.lat), LocationFix(time: 0, lon: b.lon, lat: b.lat))
    }

    /// The best path through a chain of scored fixes, back to front; nil for fewer than two fixes.
    func finish(_ chain: [Int]) -> MatchedRun? {
        guard chain.count >= 2, let last = chain.last else { return nil }
        var end = -1
        for s in candidates.range(last) where end < 0 || score[s] > score[end] { end = s }
        guard end >= 0, score[end] > -.infinity else { return nil }
        var run = MatchedRun()
        run.fixes = chain
        run.states = [Int](repeating: -1, count: chain.count)
        var s = end
        for k in stride(from: chain.count - 1, through: 0, by: -1) {
            run.states[k] = s
            s = back[s]
        }
        run.stood = run.states.map { stood[$0] }
        // Other roads within a factor of 100 of the chosen state's likelihood.
        run.alternatives = zip(chain, run.states).map { f, chosen in
            let edge = candidates.states[chosen].phantom.edge
            var edges = Set<Int>()
            for o in candidates.range(f) where candidates.states[o].phantom.edge != edge && score[o] > score[chosen] - 4.6 {
                edges.insert(candidates.states[o].phantom.edge)
            }
            return edges.count
        }
        return run
    }
}
