import Foundation

/// Runs async work from synchronous code (the command-line tools' `run()`), blocking the calling
/// thread until it ends. Only for the top of a tool: never from inside async code.
public enum Blocking {
    private final class Box<T>: @unchecked Sendable { var result: Result<T, Error>? }

    public static func run<T>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}
