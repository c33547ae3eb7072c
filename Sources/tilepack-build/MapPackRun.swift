import ArgumentParser
import MapPacks
import OffgridCore
import TileMath
import TileSources
import ToolSupport

extension MapPackFlags {
    /// Plans, checks limits, and builds (or estimates); returns the summary for stdout.
    func run(region: Region, options: MapBuildOptions, started: UInt64,
             extraFiles: [(name: String, bytes: [UInt8])] = []) throws -> MapsSummary {
        guard let sourcePath = source else { throw ValidationError("--source is required") }
        if !estimate && output == nil { throw ValidationError("--output is required (or use --estimate)") }
        let tileSource = try TileSources.open(path: sourcePath)
        let plan = try MapPackBuilder.plan(source: tileSource, region: region, options: options)
        let mode = common.progressMode
        if mode != .none && !common.quiet { reportZoomChanges(plan.zoomPlan) }
        var built: [MapPackBuilder.BuiltPack]?
        if !estimate, let output {
            let reporter = ProgressReporter(mode: mode, label: "maps", totalBytes: Int64(plan.tileBytes),
                                            totalItems: plan.tiles, itemName: "tiles")
            do {
                built = try MapPackBuilder.build(plan: plan, source: tileSource, region: region, options: options,
                                                 output: output, extraFiles: extraFiles,
                                                 threads: common.threadCount, progress: reporter)
            } catch {
                reporter.cancel()
                throw error
            }
            reporter.finish(extra: ["packs": .int(built!.count)])
        }
        return MapsSummary(estimate: estimate, output: estimate ? nil : output, sourcePath: sourcePath, source: tileSource.info,
                           region: region, regionId: options.regionId, plan: plan, built: built,
                           seconds: MonotonicClock.seconds(since: started))
    }

    private func reportZoomChanges(_ zp: ZoomPlan) {
        if zp.effective != zp.requested {
            StdIO.err("maps: zoom \(zp.requested.lowerBound)-\(zp.requested.upperBound) limited to the source's \(zp.source.lowerBound)-\(zp.source.upperBound)\n")
        }
        if zp.widened != zp.effective {
            StdIO.err("maps: zoom \(zp.effective.lowerBound)-\(zp.effective.upperBound) widened to whole bands \(zp.widened.lowerBound)-\(zp.widened.upperBound)\n")
        }
    }
}
