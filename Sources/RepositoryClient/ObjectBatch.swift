import Foundation
import OffgridCore

/// One object to fetch: its repository path (derived from the hash), hash and size.
public struct ObjectRequest: Sendable {
    public var sha256: String
    public var size: Int64

    public init(sha256: String, size: Int64) {
        self.sha256 = sha256
        self.size = size
    }

    /// `objects/<h0h1>/<sha256>`: object paths come from the hash, never from index strings.
    public var relativePath: String { "objects/\(sha256.prefix(2))/\(sha256)" }
}

extension RepositoryClient {
    /// Fetches `objects` over `options.connections` concurrent requests into `partialDirectory`.
    /// The first failure cancels the others (their bytes so far stay in their partial files for
    /// the next run) and is thrown. `completed` is called once per object, in completion order.
    public func fetchObjects(_ objects: [ObjectRequest], partialDirectory: String,
                             received: @escaping @Sendable (Int64) -> Void,
                             completed: @escaping @Sendable (ObjectRequest, ObjectFetch) -> Void) async throws -> [ObjectFetch] {
        var results: [ObjectFetch] = []
        results.reserveCapacity(objects.count)
        try await withThrowingTaskGroup(of: (ObjectRequest, ObjectFetch).self) { group in
            var next = 0
            func startNext() {
                guard next < objects.count else { return }
                let o = objects[next]
                next += 1
                group.addTask {
                    let r = try await self.fetchObject(o.relativePath, sha256: o.sha256, size: o.size,
                                                       partialDirectory: partialDirectory, received: received)
                    return (o, r)
                }
            }
            for _ in 0..<max(1, options.connections) { startNext() }
            do {
                while let (o, r) = try await group.next() {
                    results.append(r)
                    completed(o, r)
                    startNext()
                }
            } catch {
                group.cancelAll()
                throw error
            }
        }
        return results
    }
}
