import Foundation
import OffgridCore
import TileStore

/// Download progress shared by the concurrent fetches: counts under a lock, reported to the tool's
/// progress sink and journaled as `region-load-progress` events (at most a few per second, and at
/// each object completed when objects are large), so `tilestore events --follow` shows a load
/// another process runs.
final class LoadProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let sink: any ProgressSink
    private let journal: TileStore?
    private let region: String
    let requiredResources: Int
    let requiredBytes: Int64
    private(set) var completedResources: Int
    private(set) var completedBytes: Int64
    private var lastJournal: UInt64 = 0

    init(sink: any ProgressSink, journal: TileStore?, region: String, requiredResources: Int, requiredBytes: Int64,
         completedResources: Int, completedBytes: Int64) {
        self.sink = sink
        self.journal = journal
        self.region = region
        self.requiredResources = requiredResources
        self.requiredBytes = requiredBytes
        self.completedResources = completedResources
        self.completedBytes = completedBytes
        record(force: true)
    }

    func received(_ bytes: Int64) {
        lock.lock(); defer { lock.unlock() }
        completedBytes += bytes
        sink.update(bytesDone: completedBytes, itemsDone: completedResources)
        record(force: false)
    }

    /// An object finished; `resumedBytes` were already on disk (they count as completed now).
    func completed(resumedBytes: Int64) {
        lock.lock(); defer { lock.unlock() }
        completedResources += 1
        completedBytes += resumedBytes
        sink.update(bytesDone: completedBytes, itemsDone: completedResources)
        record(force: completedResources == requiredResources)
    }

    /// Journals the counts (caller holds the lock, or is the initializer).
    private func record(force: Bool) {
        let now = MonotonicClock.nanoseconds()
        guard force || now - lastJournal > 500_000_000 else { return }
        lastJournal = now
        try? journal?.record(.regionLoadProgress, region: region, data: [
            "completedResources": .int(completedResources), "requiredResources": .int(requiredResources),
            "completedBytes": .int(Int(completedBytes)), "requiredBytes": .int(Int(requiredBytes)),
        ])
    }

    func finish() { lock.lock(); sink.finish(); lock.unlock() }
    func cancel() { lock.lock(); sink.cancel(); lock.unlock() }
}
