import ArgumentParser
import RepositoryClient

/// How `versions`, `load` and `update` talk to a repository.
struct FetchFlags: ParsableArguments {
    @Option(help: "Concurrent connections (objects fetched at once).") var connections = 4
    @Option(help: "Seconds without a byte from the server before a request is retried.") var timeout: Double = 30
    @Option(help: "Retries of a request after a 5xx, a dropped connection, a timeout or a short body (with backoff).") var retries = 4

    func validate() throws {
        if connections < 1 || connections > 64 { throw ValidationError("--connections must be between 1 and 64") }
        if !(timeout > 0) { throw ValidationError("--timeout must be positive") }
        if retries < 0 || retries > 20 { throw ValidationError("--retries must be between 0 and 20") }
    }

    var options: FetchOptions {
        var o = FetchOptions()
        o.connections = connections
        o.readTimeout = timeout
        o.connectTimeout = min(10, timeout)
        o.retries = retries
        return o
    }
}
