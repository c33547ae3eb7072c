import ArgumentParser
import OffgridCore

/// `--progress` and `--quiet`, defined once so they mean the same in every tool: `--progress`
/// chooses how progress is shown on stderr; `--quiet` silences the bar (an explicit
/// `--progress json` still prints events, since a program asked for them).
public struct ProgressOptions: ParsableArguments {
    @Option(help: "Progress on stderr: auto (a bar on a terminal), json (NDJSON events) or none.")
    public var progress: ProgressMode = .auto

    @Flag(help: "No progress bar (NDJSON events still print with --progress json).")
    public var quiet = false

    public init() {}

    /// The progress mode after `--quiet`.
    public var progressMode: ProgressMode { quiet && progress != .json ? .none : progress }
}

/// `--threads`, the worker count, for commands that run on several cores.
public struct ThreadOptions: ParsableArguments {
    @Option(help: "Worker threads (default: the number of cores).")
    public var threads: Int?

    public init() {}

    /// The thread count to use: `--threads`, else the number of cores.
    public var threadCount: Int { max(1, threads ?? Parallel.activeProcessorCount) }

    public func validate() throws {
        if let threads, threads < 1 || threads > 1024 {
            throw ValidationError("--threads must be between 1 and 1024, not \(threads)")
        }
    }
}

/// The options every long-running, multi-threaded tool shares: the progress options and
/// `--threads`. Commands that have only one of the two take `ProgressOptions` or
/// `ThreadOptions` alone, so no command accepts a flag it ignores.
public struct CommonOptions: ParsableArguments {
    @OptionGroup public var progressOptions: ProgressOptions
    @OptionGroup public var threadOptions: ThreadOptions

    public init() {}

    public var progress: ProgressMode { progressOptions.progress }
    public var quiet: Bool { progressOptions.quiet }
    public var progressMode: ProgressMode { progressOptions.progressMode }
    public var threads: Int? { threadOptions.threads }
    public var threadCount: Int { threadOptions.threadCount }
}
