/// How the client talks to a repository.
public struct FetchOptions: Sendable {
    /// Concurrent connections (and concurrent object downloads).
    public var connections = 4
    /// Seconds to wait for a connection to open.
    public var connectTimeout: Double = 10
    /// Seconds without a byte from the server before a request is given up (and retried).
    public var readTimeout: Double = 30
    /// Further attempts after a 5xx, a dropped connection, a timeout or a short body.
    public var retries = 4
    /// Seconds before the first retry; doubled each time, at most `maxBackoff`.
    public var backoff: Double = 0.25
    public var maxBackoff: Double = 4
    /// Redirects followed per request (a loop is refused at once).
    public var maxRedirects = 5
    /// Largest index file read (compressed or not), before parsing.
    public var maxIndexBytes = 256 << 20

    public init() {}
}
