import OffgridCore

/// An encoded polyline's text as bytes. A step's polyline is a run of its leg's: its first point
/// written whole, then the leg's characters for the rest (each a delta from the point before,
/// the same in both), so a step keeps the leg's bytes and a range of them, and its text is
/// written out piece by piece, never made into a string of its own.
public struct EncodedPolyline: Hashable, Sendable, CustomStringConvertible {
    /// The leading point, in units of the precision, written whole before `text[range]`; nil
    /// when `text[range]` is the whole polyline.
    private let first: RoundedPoint?
    private let text: [UInt8]
    private let range: Range<Int>

    struct RoundedPoint: Hashable, Sendable {
        let lat: Int64
        let lon: Int64
    }

    public init(_ string: String) {
        self.init(text: Array(string.utf8))
    }

    /// All of `text`.
    init(text: [UInt8]) {
        first = nil
        self.text = text
        range = 0..<text.count
    }

    /// `first`'s characters, then `text[range]`.
    init(first: RoundedPoint, text: [UInt8], range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= text.count, "a run of the polyline's text")
        self.first = first
        self.text = text
        self.range = range
    }

    /// Calls `body` with the text's bytes, in order, in one or two pieces.
    public func withUTF8Pieces(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let first {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: PolylineText.capacity(1)) { buffer in
                var head = PolylineText(buffer)
                head.append(lat: first.lat, lon: first.lon)
                body(UnsafeBufferPointer(rebasing: buffer[0..<head.count]))
            }
        }
        text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The text as a string.
    public var string: String {
        var bytes: [UInt8] = []
        withUTF8Pieces { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { string }

    public static func == (a: EncodedPolyline, b: EncodedPolyline) -> Bool { a.string == b.string }

    public func hash(into hasher: inout Hasher) { hasher.combine(string) }

    /// A JSON string value: quoted, escaped (a polyline's characters include the backslash).
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("\"")
        withUTF8Pieces { out.escaped(utf8: $0) }
        out.raw("\"")
    }
}
