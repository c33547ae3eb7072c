import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starting the disk's work early. A build writes its files into the page cache and flushes the
/// tree once at the end; without a nudge the kernel holds the dirty pages (up to its background
/// ratio, gigabytes on a large machine) and the final flush waits for all of them. Asking for
/// writeback of each file as soon as it is written overlaps the device's work with the building
/// of the next files, so the final flush only waits for the last ones.
enum WriteBack {
    /// Starts writing `fd`'s dirty pages without waiting for them (Linux
    /// `sync_file_range(SYNC_FILE_RANGE_WRITE)`); nothing where the call does not exist.
    static func start(fd: Int32) {
        _ = syncFileRange?(fd, 0, 0, 2)   // SYNC_FILE_RANGE_WRITE
    }

    /// Looked up at run time: Swift's Glibc module does not declare it.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
}
