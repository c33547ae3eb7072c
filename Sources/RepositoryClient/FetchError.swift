import OffgridCore

/// Why one fetch failed. `retryable` failures (5xx, dropped connection, timeout, short body) are
/// tried again with backoff; the others end the fetch at once. Reported as an `InputError` naming
/// the URL: one line.
struct FetchFailure: Error {
    var url: String
    var message: String
    var retryable: Bool

    var inputError: InputError { InputError(file: url, message) }
}

/// What a fetch received: how many bytes came over the network (for the caller's accounting of
/// what a load moved), and whether a partial file was continued with a Range request.
public struct ObjectFetch: Sendable {
    /// Bytes received from the server for this object (all attempts).
    public var bytesReceived: Int64
    /// Bytes the partial file already held when this fetch started.
    public var resumedFrom: Int64
    /// Requests made (1 unless retried or restarted).
    public var requests: Int
    /// True when the object was already complete in the partial area (nothing fetched).
    public var alreadyComplete: Bool
}

/// An index file: its bytes (gunzipped), or "not modified" for the ETag the caller had.
public enum IndexFetch: Sendable {
    case notModified
    case body(bytes: [UInt8], etag: String?)
}
