import Foundation

/// The viewer page's outside parts: where MapLibre GL JS's files are (a directory holding
/// `maplibre-gl.js` and `maplibre-gl.css`, e.g. the PyPI `maplibre` wheel's `srcjs/`, or Debian's
/// `libjs-maplibre-gl`), and the `route-query serve` the page asks for routes (through this
/// server, so the page has one origin). Nothing comes from a CDN.
public struct ViewerOptions: Sendable {
    public var assets: String?
    public var routingURL: String?

    public init(assets: String? = nil, routingURL: String? = nil) {
        self.assets = assets
        self.routingURL = routingURL
    }

    static let files = ["maplibre-gl.js": "text/javascript; charset=utf-8", "maplibre-gl.css": "text/css; charset=utf-8"]

    /// The file and content type of `/viewer/{name}`; only the two files above are served.
    func asset(_ name: String) -> (String, String)? {
        guard let assets, let type = Self.files[name] else { return nil }
        let file = (assets as NSString).appendingPathComponent(name)
        return FileManager.default.isReadableFile(atPath: file) ? (file, type) : nil
    }
}
