import OffgridCore

/// One install, whatever it stores: a map region's packs, a routing pack or a style pack's
/// resources. Each kind says which files it needs and which index rows it writes; `install`
/// does the rest, in the one order that keeps the store consistent after a crash anywhere:
///
/// 1. decide per file whether it must be written (`IngestAction`), check the kind's limits and
///    the quota, and evict unused files to make room, all before anything is written;
/// 2. stage every file to write in `tmp/` and check it there (hash, structure);
/// 3. publish them (flush, rename to their content-addressed names, flush the directories);
/// 4. record the objects and the kind's rows in one SQLite transaction;
/// 5. evict above the quota's threshold.
///
/// A crash before 4 leaves at worst files the index does not list (orphans); never index rows
/// without their files.
struct InstallPlan {
    /// One file the install needs in the store.
    struct Item {
        var sha256: String
        var bytes: Int64
        /// Writes the file to `tmp/` and checks it; its object row. Called only when the store
        /// lacks the file (or has it expired or damaged).
        var stage: (_ progress: ProgressSink) throws -> (file: TemporaryFile, row: TileStore.ObjectRow)
    }

    /// What progress counts: files staged (map packs), or parts of files that each stage reports
    /// as it checks them (a routing pack's tiles, `perFile` of them in each file).
    enum ProgressUnit {
        case files(itemName: String)
        case parts(itemName: String, perFile: Int)
    }

    /// The quota message's subject ("installing region \"x\"").
    var what: String
    /// Label of the progress events.
    var progressLabel: String
    var progressUnit: ProgressUnit
    /// In the order they are staged; one item per hash.
    var items: [Item]
    /// Whether stored files past their expiry are kept (else written again).
    var acceptExpired: Bool
    /// Hashes regions and styles use besides this install's (those it replaces left out).
    var referencedElsewhere: Set<String>
    /// The kind's own limits, checked with the quota before anything is written.
    var checkLimits: () throws -> Void = {}
    /// The kind's index rows, inside the install's transaction (after the object rows).
    var writeIndex: () throws -> Void
}

/// What `install` did, for the kind's report.
struct InstallOutcome {
    var actions: [String: TileStore.IngestAction]
    var written: [TileStore.ObjectRow]
    var bytesWritten: Int64
    var evicted: [EvictedObject]

    func count(_ action: TileStore.IngestAction) -> Int { actions.values.filter { $0 == action }.count }
}

extension TileStore {
    func install(_ plan: InstallPlan, progress: ProgressFactory) throws -> InstallOutcome {
        var actions: [String: IngestAction] = [:]
        for item in plan.items where actions[item.sha256] == nil {
            actions[item.sha256] = try ingestAction(sha: item.sha256, acceptExpired: plan.acceptExpired)
        }
        try plan.checkLimits()
        let referencedAfter = plan.referencedElsewhere.union(actions.keys)
        let newBytes = plan.items.filter { actions[$0.sha256] == .copy }.reduce(Int64(0)) { $0 + $1.bytes }
        try checkQuota(newBytes: newBytes, referencedAfter: referencedAfter, what: plan.what)
        var evicted = try makeRoom(newBytes: newBytes, protecting: referencedAfter)

        let toWrite = plan.items.filter { actions[$0.sha256]!.writes }
        let bytesToWrite = toWrite.reduce(Int64(0)) { $0 + $1.bytes }
        let reporter: ProgressSink
        switch plan.progressUnit {
        case .files(let itemName):
            reporter = progress(plan.progressLabel, bytesToWrite, toWrite.count, itemName)
        case .parts(let itemName, let perFile):
            reporter = progress(plan.progressLabel, bytesToWrite, toWrite.count * perFile, itemName)
        }
        var batch: [(file: TemporaryFile, relative: String)] = []
        var rows: [ObjectRow] = []
        var bytesWritten: Int64 = 0
        do {
            for item in toWrite {
                let (tmp, row) = try item.stage(reporter)
                batch.append((tmp, row.path))
                rows.append(row)
                bytesWritten += item.bytes
                if case .files = plan.progressUnit { reporter.update(bytesDone: bytesWritten, itemsDone: rows.count) }
            }
            try files.publish(batch)
            try db.writeTransaction {
                try recordObjects(rows)
                try plan.writeIndex()
            }
        } catch {
            reporter.cancel()
            for (tmp, _) in batch { tmp.discard() }
            removeUnindexed(batch.map(\.relative))
            throw error
        }
        CrashPoint.reached(.committed)
        if case .files = plan.progressUnit {
            reporter.finish(extra: ["packs": .int(rows.count)])
        } else {
            reporter.finish()
        }
        evicted += try evictAboveThreshold()
        return InstallOutcome(actions: actions, written: rows, bytesWritten: bytesWritten, evicted: evicted)
    }
}
