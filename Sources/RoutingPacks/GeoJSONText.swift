import Foundation
import OffgridCore

/// Region geometries travel as GeoJSON text in pack headers and as JSON objects in manifests.
enum GeoJSONText {
    /// The JSON object `text` holds, or nil if it is not a JSON object with a string "type".
    static func object(_ text: String) -> [String: Any]? {
        guard let data = text.data(using: .utf8),
              let value = try? JSONSerialization.jsonObject(with: data),
              let object = value as? [String: Any],
              object["type"] is String
        else { return nil }
        return object
    }

    /// Compact text with sorted keys: one spelling per geometry, so regions compare as strings.
    static func canonical(_ object: [String: Any]) -> String {
        JSONOutput.string(object, pretty: false)
    }
}
