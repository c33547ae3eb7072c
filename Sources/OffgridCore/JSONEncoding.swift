/// Turns `Encodable` values into `JSONValue` trees, so libraries can return typed results and
/// only executables decide to print them (with `JSONWriter`: sorted keys, exact numbers).
///
/// Optionals that are nil are left out (as `JSONEncoder` does); a `JSONValue` inside an
/// `Encodable` value is taken as it is; a non-finite double is an encoding error.
public enum JSONEncoding {
    public static func value<T: Encodable>(_ value: T) throws -> JSONValue {
        if let direct = value as? JSONValue { return direct }
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.storage.value
    }

    /// JSON text of an `Encodable` value.
    public static func string<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        JSONWriter.string(try self.value(value), pretty: pretty)
    }

    /// The same text as UTF-8 bytes.
    public static func bytes<T: Encodable>(_ value: T, pretty: Bool = true) throws -> [UInt8] {
        JSONWriter.bytes(try self.value(value), pretty: pretty)
    }
}

extension JSONValue: Encodable {
    public func encode(to encoder: Encoder) throws {
        if let tree = encoder as? TreeEncoder {
            tree.storage.value = self
            return
        }
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

/// A node being filled: a scalar, or an object or array whose children are nodes themselves
/// (containers hand out references so nested encoders write in place).
final class TreeNode {
    private var scalar: JSONValue?
    private var members: [String: TreeNode]?
    private var items: [TreeNode]?

    var value: JSONValue {
        get {
            if let members { return .object(members.mapValues(\.value)) }
            if let items { return .array(items.map(\.value)) }
            return scalar ?? .object([:])
        }
        set {
            scalar = newValue
            members = nil
            items = nil
        }
    }

    func makeObject() {
        if members == nil { members = [:]; items = nil; scalar = nil }
    }

    func makeArray() {
        if items == nil { items = []; members = nil; scalar = nil }
    }

    func objectChild(_ key: String) -> TreeNode {
        makeObject()
        let child = TreeNode()
        members![key] = child
        return child
    }

    func appendChild() -> TreeNode {
        makeArray()
        let child = TreeNode()
        items!.append(child)
        return child
    }

    var arrayCount: Int { items?.count ?? 0 }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}

final class TreeEncoder: Encoder {
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let storage: TreeNode

    init(codingPath: [CodingKey], storage: TreeNode = TreeNode()) {
        self.codingPath = codingPath
        self.storage = storage
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        storage.makeObject()
        return KeyedEncodingContainer(KeyedTreeContainer<Key>(node: storage, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        storage.makeArray()
        return UnkeyedTreeContainer(node: storage, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleTreeContainer(node: storage, codingPath: codingPath)
    }
}

/// Encodes one value into `node`: scalars directly, anything else through a nested encoder.
func encodeValue<T: Encodable>(_ value: T, into node: TreeNode, codingPath: [CodingKey]) throws {
    switch value {
    case let v as JSONValue: node.value = v
    case let v as String: node.value = .string(v)
    case let v as Bool: node.value = .bool(v)
    case let v as Int: node.value = .int(v)
    case let v as Double: node.value = try finite(v, codingPath)
    // Arrays of numbers (table rows, annotations) as one value: a node and a coding path per
    // cell were most of a 1000 × 1000 table's encoding.
    case let v as [Double]: node.value = try numberArray(v.count, codingPath) { v[$0] }
    case let v as [Double?]: node.value = try numberArray(v.count, codingPath) { v[$0] }
    default: try value.encode(to: TreeEncoder(codingPath: codingPath, storage: node))
    }
}

/// `count` numbers (nil: null) as an array value; a non-finite one throws as `finite` does.
func numberArray(_ count: Int, _ codingPath: [CodingKey], _ cell: (Int) -> Double?) throws -> JSONValue {
    var out: [JSONValue] = []
    out.reserveCapacity(count)
    for i in 0..<count {
        guard let d = cell(i) else { out.append(.null); continue }
        out.append(d.isFinite ? .double(d) : try finite(d, codingPath + [AnyKey(intValue: i)]))
    }
    return .array(out)
}

/// An unsigned value as an integer when it fits, else as the nearest double (never a trap).
func wide<T: BinaryInteger>(_ v: T) -> JSONValue {
    if let i = Int(exactly: v) { return .int(i) }
    return .double(Double(v))
}

func finite(_ d: Double, _ codingPath: [CodingKey]) throws -> JSONValue {
    guard d.isFinite else {
        throw EncodingError.invalidValue(d, .init(codingPath: codingPath, debugDescription: "non-finite number has no JSON spelling"))
    }
    return .double(d)
}

struct KeyedTreeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: TreeNode
    let codingPath: [CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.objectChild(key.stringValue).value = .null }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.objectChild(key.stringValue).value = .bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.objectChild(key.stringValue).value = .string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        node.objectChild(key.stringValue).value = try finite(value, codingPath + [key])
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.objectChild(key.stringValue).value = .int(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { node.objectChild(key.stringValue).value = wide(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.objectChild(key.stringValue).value = wide(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: node.objectChild(key.stringValue), codingPath: codingPath + [key])
    }
    // Optionals that are nil are left out, as JSONEncoder does.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.objectChild(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedTreeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let child = node.objectChild(key.stringValue)
        child.makeArray()
        return UnkeyedTreeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> Encoder { TreeEncoder(codingPath: codingPath, storage: node.objectChild("super")) }
    mutating func superEncoder(forKey key: Key) -> Encoder {
        TreeEncoder(codingPath: codingPath + [key], storage: node.objectChild(key.stringValue))
    }
}

struct UnkeyedTreeContainer: UnkeyedEncodingContainer {
    let node: TreeNode
    let codingPath: [CodingKey]
    var count: Int { node.arrayCount }

    private var nextPath: [CodingKey] { codingPath + [AnyKey(intValue: count)] }

    mutating func encodeNil() throws { node.appendChild().value = .null }
    mutating func encode(_ value: Bool) throws { node.appendChild().value = .bool(value) }
    mutating func encode(_ value: String) throws { node.appendChild().value = .string(value) }
    mutating func encode(_ value: Double) throws {
        let path = nextPath
        node.appendChild().value = try finite(value, path)
    }
    mutating func encode(_ value: Int) throws { node.appendChild().value = .int(value) }
    private mutating func encode(_ value: JSONValue) throws { node.appendChild().value = value }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { try encode(wide(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { try encode(wide(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try encodeValue(value, into: node.appendChild(), codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = node.appendChild()
        child.makeObject()
        return KeyedEncodingContainer(KeyedTreeContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = nextPath
        let child = node.appendChild()
        child.makeArray()
        return UnkeyedTreeContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> Encoder { TreeEncoder(codingPath: nextPath, storage: node.appendChild()) }
}

struct SingleTreeContainer: SingleValueEncodingContainer {
    let node: TreeNode
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { node.value = .null }
    mutating func encode(_ value: Bool) throws { node.value = .bool(value) }
    mutating func encode(_ value: String) throws { node.value = .string(value) }
    mutating func encode(_ value: Double) throws { node.value = try finite(value, codingPath) }
    mutating func encode(_ value: Int) throws { node.value = .int(value) }
    private mutating func encode(_ value: JSONValue) throws { node.value = value }
    mutating func encode(_ value: Float) throws { try encode(Double(value)) }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { try encode(wide(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt64) throws { try encode(wide(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: node, codingPath: codingPath) }
}
