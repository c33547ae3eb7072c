import OffgridCore

/// Region geometries travel as GeoJSON text in pack headers and as JSON objects in manifests.
enum GeoJSONText {
    /// The JSON object `text` holds, or nil if it is not a JSON object with a string "type".
    static func object(_ text: String) -> JSONValue? {
        guard let value = try? JSONReader.parse(text), case .object = value, value["type"]?.stringValue != nil else { return nil }
        return value
    }

    /// Compact text with sorted keys: one spelling per geometry, so regions compare as strings.
    static func canonical(_ object: JSONValue) -> String {
        JSONWriter.string(object, pretty: false)
    }
}
