import OffgridCore

/// A field the store's JSON has always printed as `null` when it has no value (synthesized
/// `Encodable` leaves nil optionals out): `@NullWhenNil var quota: Int64?`.
@propertyWrapper
public struct NullWhenNil<Value: Encodable>: Encodable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch wrappedValue {
        case nil: try c.encodeNil()
        // Keyed containers take Int64 directly; single-value ones are given Int (same width here).
        case let v as Int64: try c.encode(Int(v))
        case let v?: try c.encode(v)
        }
    }
}

extension NullWhenNil: Equatable where Value: Equatable {}
