import OffgridCore

/// A profile file that cannot be used: unreadable, not JSON, or a field with a bad value.
/// `file` is the path (or "embedded default"); the CLI reports it as bad input (exit 1).
public struct ProfileError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let message: String

    public init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    /// One line whatever the file quotes back (a field name holding a newline or a carriage
    /// return: found by fuzz-profile, docs/TESTING.md).
    public var description: String { "\(OneLine.escaped(file)): \(OneLine.escaped(message))" }
}
