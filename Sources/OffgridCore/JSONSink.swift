/// Where a hand-written compact JSON renderer writes: a `String`, or a byte buffer for writers
/// that must not make a `String` per record (the batch lines, the HTTP bodies). Both spell
/// everything as `JSONWriter` does, so a renderer gives the same bytes into either.
public protocol JSONSink {
    /// JSON text written as it is (punctuation, keys).
    mutating func raw(_ text: String)
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

extension JSONSink {
    /// Any value through `JSONWriter`, whose scalars this sink spells.
    @inlinable public mutating func value(_ value: JSONValue) { JSONWriter.write(value, to: &self, pretty: false) }
}

extension String: JSONSink {
    @inlinable public mutating func raw(_ text: String) { self += text }
    @inlinable public mutating func string(_ value: String) { JSONWriter.writeString(value, to: &self) }
    public mutating func escaped(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        var escaped: [UInt8] = []
        JSONBytes.writeEscaped(bytes, to: &escaped)
        self += String(decoding: escaped, as: UTF8.self)
    }
    @inlinable public mutating func double(_ value: Double) { JSONWriter.writeDouble(value, to: &self) }
    @inlinable public mutating func int(_ value: Int) { self += String(value) }
}

extension Array: JSONSink where Element == UInt8 {
    @inlinable public mutating func raw(_ text: String) { append(contentsOf: text.utf8) }
    @inlinable public mutating func string(_ value: String) { JSONBytes.writeString(value, to: &self) }
    @inlinable public mutating func escaped(utf8 bytes: UnsafeBufferPointer<UInt8>) { JSONBytes.writeEscaped(bytes, to: &self) }
    @inlinable public mutating func double(_ value: Double) { JSONBytes.writeDouble(value, to: &self) }
    @inlinable public mutating func int(_ value: Int) { JSONBytes.writeInt(Int64(value), to: &self) }
}
