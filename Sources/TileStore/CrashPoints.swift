import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Named points of a store change where tests make the process kill itself with SIGKILL
/// (`TILESTORE_CRASH_AT=<name>` in the environment), to check that the store is consistent after
/// a crash in each window, not only where random kills happen to land. Nothing happens without
/// the variable.
enum CrashPoint: String {
    /// Files copied to `tmp/`, nothing renamed yet.
    case copied
    /// Files renamed into place and flushed; the index does not list them yet.
    case published
    /// The index transaction committed; eviction not run yet.
    case committed
    /// Evicted rows deleted from the index; their files not deleted yet.
    case evictedRows = "evicted-rows"

    private static let requested = ProcessInfo.processInfo.environment["TILESTORE_CRASH_AT"]

    static func reached(_ point: CrashPoint) {
        if requested == point.rawValue { kill(getpid(), SIGKILL) }
    }
}
