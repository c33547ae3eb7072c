import CShims
import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unpacks a routing pack into a directory of `<id>.tile` files plus `manifest.json`
/// (`UnpackedRoutingDirectory`), merging packs of the same data version, profile and grid.
///
/// The directory is only ever replaced whole and atomically:
/// 1. the pack's structure is validated and the plan (merge, conflicts, no-op) is made from its
///    index and the directory's manifest;
/// 2. the new state is built in the sibling `DIR.partial-<pid>`: every pack tile is decompressed
///    and CRC-checked, changed tiles are written, unchanged ones hard-linked from DIR;
/// 3. `renameat2(RENAME_EXCHANGE)` swaps it with DIR, and the old tree is deleted.
/// Any failure before step 3 deletes the partial directory and leaves DIR exactly as it was.
/// A run that would not change anything does not write at all (DIR keeps its mtimes).
///
/// Leftover `DIR.partial-*` directories of killed runs are deleted at the start of the next run
/// (unless the process that made one is still alive). Two runs on the same DIR at the same time
/// are not supported.
public enum RoutingPackUnpacker {
    /// Opens and validates the pack, then unpacks it. Bad packs and unusable directories are
    /// `InputError`s; on any error the directory is left as it was.
    public static func unpack(packPath: String, outputDir: String, replace: Bool = false,
                              threads: Int = Parallel.activeProcessorCount, progress: any ProgressSink) throws -> UnpackSummary {
        let reader: RoutingPackReader
        do {
            reader = try RoutingPackReader(path: packPath)
        } catch {
            progress.cancel()
            throw error
        }
        return try unpack(reader, outputDir: outputDir, replace: replace, threads: threads, progress: progress)
    }

    /// Unpacks an already opened pack (callers that need its totals to set up progress).
    public static func unpack(_ reader: RoutingPackReader, outputDir: String, replace: Bool = false,
                              threads: Int = Parallel.activeProcessorCount, progress: any ProgressSink) throws -> UnpackSummary {
        do {
            let summary = try unpackWithoutFinishing(reader: reader, outputDir: outputDir,
                                                     replace: replace, threads: threads, progress: progress)
            progress.finish(extra: ["tilesAdded": .int(summary.tilesAdded), "noop": .bool(summary.noop)])
            return summary
        } catch {
            progress.cancel()
            throw error
        }
    }

    /// Raw bytes decompressed in parallel before being written in index order.
    static let batchRawBytes = 64 << 20

    private static func unpackWithoutFinishing(reader: RoutingPackReader, outputDir: String, replace: Bool,
                                               threads: Int, progress: any ProgressSink) throws -> UnpackSummary {
        let dir = absoluteDirectory(outputDir)
        let parent = (dir as NSString).deletingLastPathComponent
        // Like `mkdir -p`: missing parents are created, so scripts need no set-up step.
        if FileTools.kind(parent) == .missing {
            try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        guard dir != "/", FileTools.kind(parent) == .directory else {
            throw InputError(file: outputDir, "cannot create the directory here: \(parent) is not a directory")
        }
        removeStalePartials(of: dir)

        let packName = (reader.path as NSString).lastPathComponent
        let (existing, dirExists, discardUnreadable) = try existingState(dir: dir, label: outputDir, replace: replace)
        let plan = try UnpackPlan.make(
            reader: reader, packName: packName, existing: existing, replace: replace,
            existingTileSize: { FileTools.regularFileSize((dir as NSString).appendingPathComponent("\($0).tile")) },
            dirLabel: outputDir)

        let summary = UnpackSummary(
            output: outputDir, pack: packName, dataVersion: reader.header.dataVersion,
            tiles: plan.manifest.tiles.count, packTiles: reader.tileCount, tilesAdded: plan.tilesAdded,
            tilesAlreadyPresent: plan.tilesAlreadyPresent, regions: plan.manifest.regions.count,
            noop: plan.isNoop, replaced: plan.replaced || discardUnreadable)

        if plan.isNoop {
            // Still verify the whole pack: a corrupt input is reported even when nothing changes.
            try forEachVerifiedTile(reader, threads: threads, progress: progress)
            return summary
        }

        let partial = dir + ".partial-\(getpid())"
        FileTools.removeTree(partial)
        try FileTools.makeDirectory(partial)
        TempPathRegistry.installSignalHandlers()
        let slot = TempPathRegistry.register(partial, kind: .directory)
        defer { if let slot { TempPathRegistry.unregister(slot) } }
        do {
            try build(plan: plan, reader: reader, from: dir, into: partial, threads: threads, progress: progress)
            // Tests stop the process here (OFFGRID_FAULT_AT=unpack-partial-written[:INT]): the new tree
            // is complete but not swapped in, the window an interrupt must leave DIR intact in.
            FaultPoint.reached("unpack-partial-written")
            try swap(partial, into: dir, dirExists: dirExists)
        } catch {
            FileTools.removeTree(partial)
            throw error
        }
        return summary
    }

    /// The directory's manifest (nil when it is new or empty), whether it exists, and whether its
    /// manifest was unreadable and is being discarded (only with `replace`).
    /// A non-empty directory without a manifest is never replaced: it is probably not ours.
    private static func existingState(dir: String, label: String,
                                      replace: Bool) throws -> (UnpackedRoutingDirectory.Manifest?, Bool, Bool) {
        switch FileTools.kind(dir) {
        case .missing:
            return (nil, false, false)
        case .directory:
            let manifestPath = (dir as NSString).appendingPathComponent(UnpackedRoutingDirectory.Manifest.fileName)
            if FileTools.kind(manifestPath) != .missing {
                do {
                    return (try UnpackedRoutingDirectory.load(dir), true, false)
                } catch where replace {
                    return (nil, true, true)
                }
            }
            let entries = FileTools.directoryEntries(dir) ?? []
            guard entries.isEmpty else {
                throw InputError(file: label, "exists and is not an unpacked routing directory "
                                 + "(no \(UnpackedRoutingDirectory.Manifest.fileName)); choose a new or empty directory")
            }
            return (nil, true, false)
        case .file, .other:
            throw InputError(file: label, "exists and is not a directory")
        }
    }

    /// Fills `partial` with the planned tiles and the manifest, all fsynced.
    private static func build(plan: UnpackPlan, reader: RoutingPackReader, from dir: String, into partial: String,
                              threads: Int, progress: any ProgressSink) throws {
        var fromPack = [Bool](repeating: false, count: reader.tileCount)
        for case .pack(let k) in plan.sources { fromPack[k] = true }
        let isFromPack = fromPack, entries = reader.entries
        func tilePath(_ k: Int) -> String {
            (partial as NSString).appendingPathComponent(UnpackedRoutingDirectory.Manifest.Tile.fileName(for: entries[k].tileID))
        }
        // Workers write the tiles they decompressed (distinct files); the tree is flushed once below.
        try forEachVerifiedTile(reader, threads: threads, progress: progress) { k, raw in
            if isFromPack[k] { try FileTools.writeNewFile(tilePath(k), raw, durable: false) }
        }
        for (tile, source) in zip(plan.manifest.tiles, plan.sources) where source == .existing {
            try FileTools.linkOrCopy((dir as NSString).appendingPathComponent(tile.file),
                                     to: (partial as NSString).appendingPathComponent(tile.file), maxBytes: tile.size)
        }
        let manifestPath = (partial as NSString).appendingPathComponent(UnpackedRoutingDirectory.Manifest.fileName)
        try FileTools.writeNewFile(manifestPath, plan.manifest.encoded(), durable: false)
        try UnpackFiles.flush(partial, files: fromPack.indices.filter { fromPack[$0] }.map(tilePath) + [manifestPath])
        FileSync.syncDirectory(partial)
    }

    /// Decompresses and checks every tile of the pack, a batch at a time on all cores, calling
    /// `body` (on the worker that decompressed it) with each tile's index position and raw bytes;
    /// the first bad tile (in index order) is the error thrown.
    private static func forEachVerifiedTile(_ reader: RoutingPackReader, threads: Int, progress: any ProgressSink,
                                            _ body: (Int, [UInt8]) throws -> Void = { _, _ in }) throws {
        let entries = reader.entries
        var bytesDone: Int64 = 0
        var start = 0
        progress.update(bytesDone: 0, itemsDone: 0)
        while start < entries.count {
            var end = start + 1
            var rawBytes = Int(entries[start].rawSize)
            while end < entries.count && rawBytes + Int(entries[end].rawSize) <= batchRawBytes {
                rawBytes += Int(entries[end].rawSize)
                end += 1
            }
            let first = start
            let results = Parallel.map(count: end - start, threads: threads) { n in
                Result { try body(first + n, try reader.tileBytes(at: first + n)) }
            }
            for (n, result) in results.enumerated() {
                let k = start + n
                try result.get()
                bytesDone += Int64(entries[k].compressedSize)
                progress.update(bytesDone: bytesDone, itemsDone: k + 1)
            }
            start = end
        }
    }

    /// Puts the built directory in place of `dir` in one step. Where the kernel or file system
    /// cannot exchange, falls back to two renames (DIR is briefly absent).
    private static func swap(_ partial: String, into dir: String, dirExists: Bool) throws {
        let parent = (dir as NSString).deletingLastPathComponent
        if !dirExists {
            guard rename(partial, dir) == 0 else {
                throw InputError(file: dir, "cannot rename \(partial) into place: \(FileTools.reason())")
            }
        } else if offgrid_rename_exchange(partial, dir) == 0 {
            FileTools.removeTree(partial)  // now the old contents
        } else if errno == ENOSYS || errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP {
            let old = partial + "-old"
            guard rename(dir, old) == 0 else {
                throw InputError(file: dir, "cannot move the old directory aside: \(FileTools.reason())")
            }
            guard rename(partial, dir) == 0 else {
                let why = FileTools.reason()
                _ = rename(old, dir)
                throw InputError(file: dir, "cannot rename \(partial) into place: \(why)")
            }
            FileTools.removeTree(old)
        } else {
            throw InputError(file: dir, "cannot exchange with \(partial): \(FileTools.reason())")
        }
        FileSync.syncDirectory(parent)
    }

    /// Deletes `DIR.partial-<pid>…` siblings left by killed runs, keeping those of live processes.
    static func removeStalePartials(of dir: String) {
        let parent = (dir as NSString).deletingLastPathComponent
        let prefix = (dir as NSString).lastPathComponent + ".partial-"
        for name in FileTools.directoryEntries(parent) ?? [] where name.hasPrefix(prefix) {
            let pidText = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            if let pid = Int32(pidText), pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
            FileTools.removeTree((parent as NSString).appendingPathComponent(name))
        }
    }

    /// Absolute path without "." / ".." components, symlinks or a trailing slash, so that
    /// `DIR.partial-*` is a real sibling (same file system) even for `--output .`, `out/` or a
    /// symlink to a directory elsewhere, and the link itself is never replaced by a directory.
    static func absoluteDirectory(_ path: String) -> String {
        let url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL.resolvingSymlinksInPath()
        var p = url.path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        return p
    }
}
