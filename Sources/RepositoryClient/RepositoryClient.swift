import AsyncHTTPClient
import Foundation
import NIOCore
import OffgridCore

/// Fetches a pack repository's files: indexes (small, gzip accepted, ETag-aware) and objects
/// (large, content-addressed, resumable). One `HTTPClient` per client, shared by every request and
/// shut down by `shutdown()` (or by `with`); `file://` repositories are read from disk with the
/// same checks (size cap, SHA-256, resume).
///
///     try await RepositoryClient.with(location, options: options) { client in
///         let index = try await client.fetchIndex("index.json", etag: nil)
///         _ = try await client.fetchObject(path, sha256: h, size: n, partialDirectory: dir) { _ in }
///     }
public final class RepositoryClient: @unchecked Sendable {
    public let location: RepositoryLocation
    public let options: FetchOptions
    private let http: HTTPTransport?

    public init(location: RepositoryLocation, options: FetchOptions) {
        self.location = location
        self.options = options
        http = location.scheme == .http ? HTTPTransport(client: HTTPTransport.makeClient(options)) : nil
    }

    public func shutdown() async {
        try? await http?.client.shutdown()
    }

    /// Runs `body` with a client and shuts it down afterwards, whatever happens.
    public static func with<T>(_ location: RepositoryLocation, options: FetchOptions,
                               _ body: (RepositoryClient) async throws -> T) async throws -> T {
        let client = RepositoryClient(location: location, options: options)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    // MARK: - Indexes

    /// An index file (`index.json` or a per-version index): its bytes, gunzipped when the server
    /// sent gzip; `.notModified` when `etag` is still current. At most `options.maxIndexBytes`.
    public func fetchIndex(_ relative: String, etag: String? = nil) async throws -> IndexFetch {
        guard RepositoryLocation.isSafeRelativePath(relative) else {
            throw InputError(file: location.url(relative), "unsafe path in the repository; refused")
        }
        let url = location.url(relative)
        guard let http else {
            return .body(bytes: try FileTools.readFile(url, maxBytes: options.maxIndexBytes), etag: nil)
        }
        return try await retrying(url) {
            var headers = [("Accept-Encoding", "gzip")]
            if let etag { headers.append(("If-None-Match", etag)) }
            let response = try await http.get(url, headers: headers)
            if response.status == .notModified, etag != nil { return .notModified }
            guard response.status == .ok else { throw HTTPTransport.statusFailure(response.status, url: url) }
            var bytes = try await HTTPTransport.readBody(response, url: url, maxBytes: self.options.maxIndexBytes)
            if response.headers.first(name: "Content-Encoding")?.lowercased() == "gzip" {
                do {
                    bytes = try Zlib.decompress(bytes[...], format: .gzip, maxOutput: self.options.maxIndexBytes)
                } catch {
                    throw FetchFailure(url: url, message: "gzip body does not inflate (or inflates past \(self.options.maxIndexBytes) bytes): \(error)", retryable: false)
                }
            }
            return .body(bytes: bytes, etag: response.headers.first(name: "ETag"))
        }
    }

    // MARK: - Objects

    /// Brings object `relative` into `partialDirectory/<sha256>.part`, continuing what an earlier
    /// run left there with a Range request, refusing more bytes than `size`, and checking the
    /// SHA-256 at the end. When it returns, the file is complete and verified; the caller moves
    /// it into place. `received` is called with each chunk's byte count.
    public func fetchObject(_ relative: String, sha256: String, size: Int64, partialDirectory: String,
                            received: @escaping @Sendable (Int64) -> Void) async throws -> ObjectFetch {
        guard RepositoryLocation.isSafeRelativePath(relative) else {
            throw InputError(file: location.url(relative), "unsafe path in the repository; refused")
        }
        let url = location.url(relative)
        let partial = try PartialFile(directory: partialDirectory, sha256: sha256, size: size)
        defer { partial.closeFile() }
        var result = ObjectFetch(bytesReceived: 0, resumedFrom: partial.length, requests: 0, alreadyComplete: false)
        if partial.isComplete {
            if partial.hashMatches() {
                result.alreadyComplete = true
                return result
            }
            try partial.truncate()
        }
        var mismatches = 0
        // Counted as they arrive, so the bytes of an attempt that fails midway (a timeout, a
        // dropped connection) are counted too: they crossed the network.
        let counter = ReceivedBytes()
        let counting: @Sendable (Int64) -> Void = { counter.add($0); received($0) }
        try await retrying(url) {
            result.requests += 1
            if let http = self.http {
                _ = try await Self.fetchOnce(http, url: url, into: partial, received: counting)
            } else {
                _ = try Self.copyOnce(url, into: partial, received: counting)
            }
            result.bytesReceived = counter.value
            guard partial.isComplete else {
                throw FetchFailure(url: url, message: "the body ended after \(partial.length) of \(size) bytes", retryable: true)
            }
            guard partial.hashMatches() else {
                try partial.truncate()
                mismatches += 1
                // One fresh try: the bytes kept from an earlier run may have been the bad ones.
                throw FetchFailure(url: url, message: "SHA-256 does not match the index (\(sha256)); the object is corrupt or was replaced",
                                   retryable: mismatches == 1 && result.resumedFrom > 0)
            }
        }
        return result
    }

    /// One GET of an object: a Range request when part of it is kept; a 200 answer to it (a
    /// server that ignores Range) restarts the file. The bytes received.
    private static func fetchOnce(_ http: HTTPTransport, url: String, into partial: PartialFile,
                                  received: @Sendable (Int64) -> Void) async throws -> Int64 {
        var headers = [("Accept-Encoding", "identity")]
        let offset = partial.length
        if offset > 0 { headers.append(("Range", "bytes=\(offset)-")) }
        let response = try await http.get(url, headers: headers)
        switch response.status.code {
        case 200:
            if offset > 0 { try partial.truncate() }
        case 206:
            guard offset > 0, let range = response.headers.first(name: "Content-Range"),
                  ContentRange(range)?.start == offset, ContentRange(range)?.total.map({ $0 == partial.expectedSize }) ?? true else {
                try partial.truncate()
                throw FetchFailure(url: url, message: "unexpected Content-Range \(response.headers.first(name: "Content-Range") ?? "none") for bytes=\(offset)-; starting over", retryable: true)
            }
        case 416:
            try partial.truncate()
            throw FetchFailure(url: url, message: "HTTP 416 for bytes=\(offset)-; starting over", retryable: true)
        default:
            throw HTTPTransport.statusFailure(response.status, url: url)
        }
        if let encoding = response.headers.first(name: "Content-Encoding"), encoding.lowercased() != "identity" {
            throw FetchFailure(url: url, message: "object sent with Content-Encoding \(encoding); refused", retryable: false)
        }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int64.init), partial.length + length > partial.expectedSize {
            throw FetchFailure(url: url, message: "Content-Length \(length) is more than the \(partial.expectedSize - partial.length) bytes left of the index's size; refused", retryable: false)
        }
        var got: Int64 = 0
        do {
            for try await buffer in response.body {
                try buffer.withUnsafeReadableBytes { try partial.append($0, url: url) }
                got += Int64(buffer.readableBytes)
                received(Int64(buffer.readableBytes))
            }
        } catch {
            throw HTTPTransport.classify(error, url: url)
        }
        return got
    }

    /// The file:// equivalent of `fetchOnce`.
    private static func copyOnce(_ path: String, into partial: PartialFile, received: @Sendable (Int64) -> Void) throws -> Int64 {
        guard let size = FileTools.regularFileSize(path) else { throw FetchFailure(url: path, message: "missing or not a regular file", retryable: false) }
        guard Int64(size) == partial.expectedSize else {
            throw FetchFailure(url: path, message: "has \(size) bytes, the index says \(partial.expectedSize)", retryable: false)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FetchFailure(url: path, message: "cannot open: \(FileTools.reason())", retryable: false) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var got: Int64 = 0
        while !partial.isComplete {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(partial.length)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            let take = min(n, Int(partial.expectedSize - partial.length))
            try buffer.withUnsafeBytes { try partial.append(UnsafeRawBufferPointer(rebasing: $0[0..<take]), url: path) }
            got += Int64(take)
            received(Int64(take))
        }
        return got
    }

    // MARK: - Retries

    /// Runs `attempt`, again after a retryable failure (with backoff), at most `options.retries`
    /// more times. The last failure is thrown as an `InputError` naming the URL.
    private func retrying<T>(_ url: String, _ attempt: () async throws -> T) async throws -> T {
        var delay = options.backoff
        var tries = 0
        while true {
            do {
                return try await attempt()
            } catch let failure as FetchFailure {
                tries += 1
                guard failure.retryable, tries <= options.retries else {
                    let suffix = failure.retryable && tries > 1 ? " (after \(tries) attempts)" : ""
                    throw InputError(file: failure.url, failure.message + suffix)
                }
                try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                delay = min(delay * 2, options.maxBackoff)
            }
        }
    }
}

/// `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
struct ContentRange {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = t.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let range = parts[0].split(separator: "-", maxSplits: 1)
        guard range.count == 2, let s = Int64(range[0]), let e = Int64(range[1]), s <= e else { return nil }
        start = s
        end = e
        total = parts[1] == "*" ? nil : Int64(parts[1])
    }
}

/// The bytes one object's fetch has received, across its attempts.
private final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var total: Int64 = 0
    func add(_ n: Int64) { lock.lock(); total += n; lock.unlock() }
    var value: Int64 { lock.lock(); defer { lock.unlock() }; return total }
}
