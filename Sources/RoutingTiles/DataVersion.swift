import OSMPBF
import OffgridCore

/// The data version `yyyy-MM-dd-N` that tiles and packs carry: tiles stitch only when it matches.
///
/// The date is the PBF's replication timestamp (UTC), else the newest object timestamp; N is the
/// replication sequence number when the header has one, else 0. Two extracts cut from the same
/// planet or replication state therefore share a version.
public enum DataVersion {
    public static func make(header: PBFHeader, newestTimestamp: Int64?) -> String? {
        guard let t = header.replicationTimestamp ?? newestTimestamp else { return nil }
        return "\(ISO8601.date(t))-\(header.replicationSequenceNumber ?? 0)"
    }
}
