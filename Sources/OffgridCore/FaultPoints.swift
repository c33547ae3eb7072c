#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Named points inside long operations where tests make the process stop as a user or the
/// system would stop it: `OFFGRID_FAULT_AT=<name>` kills the process there with SIGKILL,
/// `OFFGRID_FAULT_AT=<name>:INT` (or `:TERM`) sends it that signal, so crash and interrupt tests
/// hit the window they mean every time instead of wherever a timer happens to land. Nothing
/// happens without the variable.
public enum FaultPoint {
    private static let requested: (name: String, signal: Int32)? = {
        guard let raw = getenv("OFFGRID_FAULT_AT").map({ String(cString: $0) }), !raw.isEmpty else { return nil }
        let parts = raw.split(separator: ":", maxSplits: 1).map(String.init)
        let signal: Int32
        switch parts.count > 1 ? parts[1] : "KILL" {
        case "INT": signal = SIGINT
        case "TERM": signal = SIGTERM
        default: signal = SIGKILL
        }
        return (parts[0], signal)
    }()

    public static func reached(_ name: String) {
        guard let requested, requested.name == name else { return }
        kill(getpid(), requested.signal)
        // A handled signal (SIGINT/SIGTERM with cleanup handlers) re-raises itself; wait for it.
        if requested.signal != SIGKILL { while true { pause() } }
    }
}
