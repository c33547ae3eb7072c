/// Where a hand-written compact JSON renderer writes: a `String`, or a `JSONBuffer` for writers
/// that must not make a `String` per record (the batch lines, the HTTP bodies). Both spell
/// everything as `JSONWriter` does, so a renderer gives the same bytes into either.
public protocol JSONSink: ~Copyable {
    /// JSON text written as it is (punctuation, keys): always a literal, so a byte sink copies
    /// it by its known length instead of through `String`'s UTF-8 view.
    mutating func raw(_ text: StaticString)
    /// A string value, quoted and escaped.
    mutating func string(_ value: String)
    /// Part of a string value given as UTF-8 bytes, escaped, between quotes the caller writes
    /// (`raw("\"")`): text kept as bytes is written in pieces, without a `String` of its own.
    mutating func escaped(utf8 bytes: UnsafeBufferPointer<UInt8>)
    mutating func double(_ value: Double)
    mutating func int(_ value: Int)
    /// Any value, compact.
    mutating func value(_ value: JSONValue)
}

extension JSONSink where Self: ~Copyable {
    /// Any value through `JSONWriter`, whose scalars this sink spells.
    @inlinable public mutating func value(_ value: JSONValue) { JSONWriter.write(value, to: &self, pretty: false) }
}

extension String: JSONSink {
    @inlinable public mutating func raw(_ text: StaticString) { self += text.description }
    @inlinable public mutating func string(_ value: String) { JSONWriter.writeString(value, to: &self) }
    public mutating func escaped(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        var escaped: [UInt8] = []
        JSONBytes.writeEscaped(bytes, to: &escaped)
        self += String(decoding: escaped, as: UTF8.self)
    }
    @inlinable public mutating func double(_ value: Double) { JSONWriter.writeDouble(value, to: &self) }
    @inlinable public mutating func int(_ value: Int) { self += String(value) }
}
