import ArgumentParser
import OffgridCore

/// The options every long-running tool shares, defined once so they mean the same everywhere:
/// `--progress` chooses how progress is shown on stderr, `--quiet` silences it (an explicit
/// `--progress json` still prints events, since a program asked for them), `--threads` sets the
/// worker count.
public struct CommonOptions: ParsableArguments {
    @Option(help: "Progress on stderr: auto (a bar on a terminal), json (NDJSON events) or none.")
    public var progress: ProgressMode = .auto

    @Flag(help: "No progress bar (NDJSON events still print with --progress json).")
    public var quiet = false

    @Option(help: "Worker threads (default: the number of cores).")
    public var threads: Int?

    public init() {}

    /// The progress mode after `--quiet`.
    public var progressMode: ProgressMode { quiet && progress != .json ? .none : progress }

    /// The thread count to use: `--threads`, else the number of cores.
    public var threadCount: Int { max(1, threads ?? Parallel.activeProcessorCount) }

    public func validate() throws {
        if let threads, threads < 1 || threads > 1024 {
            throw ValidationError("--threads must be between 1 and 1024, not \(threads)")
        }
    }
}
