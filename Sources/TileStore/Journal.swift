import Foundation
import OffgridCore

/// What a journal event says happened (the `events.type` column).
public enum StoreEventType: String, Sendable, CaseIterable {
    /// A load or update is fetching: completed/required resources and bytes.
    case regionLoadProgress = "region-load-progress"
    /// A load or update installed the region (whole).
    case regionLoadFinished = "region-load-finished"
    /// A load or update stopped (the error); the store is as before it started.
    case regionLoadFailed = "region-load-failed"
    /// `install` or `install-routing` installed or updated a region from local files.
    case regionInstalled = "region-installed"
    case regionRemoved = "region-removed"
    case regionGeometryChanged = "region-geometry-changed"
    case regionMetadataChanged = "region-metadata-changed"
    case stylePackLoaded = "style-pack-loaded"
    case stylePackRemoved = "style-pack-removed"
    /// `quota 0` wiped every region and style.
    case storeWiped = "store-wiped"
    /// `serve --repository` fetched a map pack the store lacked and stored it in the ambient cache.
    case ambientPackStored = "ambient-pack-stored"
    /// `serve --repository` replaced an outdated pack by the repository's latest, for every
    /// region (and the ambient cache) referring to it.
    case packRefreshed = "pack-refreshed"
    /// Ambient packs evicted, least recently used first, to keep the cache within its limit.
    case ambientEvicted = "ambient-evicted"
    /// `ambient clear` emptied the ambient cache.
    case ambientCleared = "ambient-cleared"
}

/// One journal entry as `events` prints it (one NDJSON line).
public struct StoreEvent: Encodable {
    public var seq: Int64
    public var time: String
    public var type: String
    @NullWhenNil public var region: String?
    @NullWhenNil public var style: String?
    public var data: JSONValue
}

/// The journal: every change to the store appends a row to `events` (sequence numbers only grow,
/// SQLite's AUTOINCREMENT), in the same transaction as the change when there is one, so a reader
/// following the journal never sees an event for a change that did not commit.
extension TileStore {
    /// Appends an event (in the caller's transaction, or on its own).
    func journal(_ type: StoreEventType, region: String? = nil, style: String? = nil, _ data: [String: JSONValue] = [:]) throws {
        try db.run("INSERT INTO events (time, type, region, style, data) VALUES (?, ?, ?, ?, ?)",
                   [.int(Int64(Date().timeIntervalSince1970)), .text(type.rawValue), .optionalText(region), .optionalText(style),
                    .text(jsonText(.object(data)))])
    }

    /// Appends an event from outside the store's own operations (the loader's progress and
    /// outcome). Works with `.journal` access, without the store's lock.
    public func record(_ type: StoreEventType, region: String? = nil, style: String? = nil, data: [String: JSONValue] = [:]) throws {
        try journal(type, region: region, style: style, data)
    }

    /// Events with a sequence number above `since`, oldest first, at most `limit`.
    public func events(since: Int64 = 0, limit: Int = 10_000) throws -> [StoreEvent] {
        guard try db.int("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'") > 0 else { return [] }
        return try db.rows("SELECT seq, time, type, region, style, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                           [.int(since), .int(Int64(limit))]) { s in
            StoreEvent(seq: s.int(0), time: ISO8601.string(s.int(1)), type: s.text(2), region: s.optionalText(3),
                       style: s.optionalText(4), data: jsonValue(s.text(5)))
        }
    }

    /// `set-metadata ID JSON`: replaces a region's metadata (an event).
    public func setMetadata(regionId id: String, metadata: JSONValue) throws -> MetadataReport {
        let report = try db.writeTransaction { () -> MetadataReport in
            guard let old = try db.row("SELECT metadata FROM regions WHERE id = ?", [.text(id)], { jsonValue($0.text(0)) }) else {
                throw InputError("no region \"\(id)\" in the store (see tilestore list)")
            }
            try db.run("UPDATE regions SET metadata = ?, updated_at = ? WHERE id = ?", [.text(jsonText(metadata)), .int(now), .text(id)])
            if old != metadata { try journal(.regionMetadataChanged, region: id, ["metadata": metadata, "previous": old]) }
            return MetadataReport(region: id, metadata: metadata, previous: old, changed: old != metadata)
        }
        return report
    }

    /// Journals geometry and metadata changes of a region about to be rewritten (inside the
    /// install's transaction, before the row changes).
    func journalRegionChanges(id: String, geometry: JSONValue?, metadata: JSONValue?) throws {
        guard let (oldGeometry, oldMetadata) = try db.row("SELECT geometry, metadata FROM regions WHERE id = ?", [.text(id)],
                                                          { (jsonValue($0.optionalText(0)), jsonValue($0.text(1))) }) else { return }
        if let geometry, geometry != oldGeometry { try journal(.regionGeometryChanged, region: id, ["geometry": geometry]) }
        if let metadata, metadata != oldMetadata {
            try journal(.regionMetadataChanged, region: id, ["metadata": metadata, "previous": oldMetadata])
        }
    }
}

/// What `set-metadata` did.
public struct MetadataReport: Encodable {
    public var region: String
    public var metadata: JSONValue
    public var previous: JSONValue
    public var changed: Bool
}
