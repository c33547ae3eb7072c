import FuzzSupport
import OffgridCore

/// The exact JSON reader, and a round trip through the writer: a value that parses must be
/// written as JSON that parses back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        let value = try JSONReader.parse(bytes)
        let text = JSONWriter.string(value, pretty: false)
        let again: JSONValue
        do {
            again = try JSONReader.parse(text)
        } catch {
            fatalError("JSON writer output does not parse: \(text.debugDescription): \(error)")
        }
        if again != value { fatalError("JSON round trip changed the value: \(text.debugDescription)") }
    }
}

@_cdecl("fuzz_json_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzJSON)
}
