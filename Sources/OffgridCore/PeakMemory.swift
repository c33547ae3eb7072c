#if canImport(Glibc)
import Glibc
#endif

/// The process's peak resident set size (VmHWM), for summaries and benchmarks.
public enum PeakMemory {
    public static func bytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024   // kilobytes on Linux
    }
}
