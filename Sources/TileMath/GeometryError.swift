import OffgridCore

/// Bad geometry input (a bbox argument, a region file, a grid size). The message says what is
/// wrong and where; the CLI layer prefixes the file or flag name and exits 1.
public struct GeometryError: Error, CustomStringConvertible, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    /// One line whatever the region file quotes back (like `InputError`).
    public var description: String { OneLine.escaped(message) }
}
