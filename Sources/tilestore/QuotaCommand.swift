import ArgumentParser
import Foundation
import TileStore
import OffgridCore
import ToolSupport

/// `quota BYTES` / `quota none` / `quota`.
struct QuotaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota",
        abstract: "Set the disk quota (bytes, or none), or print it. 0 wipes the store.",
        discussion: """
        Files no region or style uses are evicted, nearest expiry first, once the store holds more than the quota minus 50 MB, down to that threshold; files regions use are never evicted, and an install the quota cannot hold is refused. `quota 0` wipes everything: every region and style is removed, every file deleted, and installs are refused until the quota is raised. Sizes: plain bytes, or with a unit: kB MB GB (powers of 1000), KiB MiB GiB (of 1024).

        Examples:
          tilestore --store out/store quota 2GB
          tilestore --store out/store quota none
          tilestore --store out/store quota
        """)

    @OptionGroup var global: StoreOptions
    @Argument(help: ArgumentHelp("Bytes (e.g. 500000000, 500MB, 2GiB) or none; omit to print the quota.", valueName: "bytes")) var value: String?

    func run() throws {
        guard let value else {
            let store = try TileStore.open(try global.path(), access: .read, quiet: global.quiet)
            try printReport(try store.quotaStatus())
            return
        }
        let quota: Int64?
        if value.lowercased() == "none" {
            quota = nil
        } else {
            guard let q = parseByteSize(value) else {
                throw ValidationError("quota must be a number of bytes (e.g. 500000000, 500MB, 2GiB) or none; got \"\(value)\"")
            }
            quota = q
        }
        let store = try TileStore.open(try global.path(), access: .write, quiet: global.quiet)
        let report = try store.setQuota(quota)
        if let quota, report.overQuota == true {
            StdIO.err("tilestore: warning: the store's regions and styles use \(report.store.bytes - report.store.evictableBytes) bytes, more than the quota of \(quota); installs are refused until regions are removed\n")
        }
        try printReport(report)
    }
}

/// `123`, `500MB`, `1.5GB`, `2GiB`, `64k` → bytes.
func parseByteSize(_ text: String) -> Int64? {
    let t = text.trimmingCharacters(in: .whitespaces)
    let units: [(String, Double)] = [
        ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824), ("tib", 1_099_511_627_776),
        ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12),
        ("k", 1e3), ("m", 1e6), ("g", 1e9), ("t", 1e12), ("b", 1),
    ]
    let lower = t.lowercased()
    for (suffix, factor) in units where lower.hasSuffix(suffix) {
        let number = lower.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
        guard let v = Double(number), v.isFinite, v >= 0, v * factor < 9e18 else { return nil }
        return Int64((v * factor).rounded())
    }
    guard let v = Int64(t), v >= 0 else { return nil }
    return v
}
