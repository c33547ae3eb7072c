import ArgumentParser
import Foundation
import OffgridCore
import RepositoryClient
import TileServer
import TileStore
import ToolSupport

/// `serve [--listen HOST:PORT] [--repository URL] [--viewer-assets DIR] [--routing URL]`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store's tiles, TileJSON, styles, sprites and glyphs over HTTP (for MapLibre and other clients), and a map page.",
        discussion: """
        Endpoints: /tiles/{tileset}/{z}/{x}/{y}, /tiles/{tileset}.json (TileJSON 3.0.0), /styles/{id}/style.json, /styles/{id}/sprite{@2x}.{json,png}, /fonts/{fontstack}/{start}-{end}.pbf, /health, /index.json (what the server holds), / (the viewer page to browsers, the index to other clients), /viewer, /route/v1/… (with --routing). Status codes, ETag and Cache-Control: docs/CLI.md. The store is read without a lock while other tilestore commands change it; changes show within --reload seconds. When listening, one JSON line goes to stdout: {"listening":"HOST:PORT",...}. SIGTERM or SIGINT: in-flight requests finish, exit 0.

        With --repository (a repository `tilepack-build publish` wrote; the store is created when missing), a tile the store lacks makes the server fetch the pack that holds it from the tileset's latest version, verify it (size, SHA-256, every tile) and keep it in the ambient cache (--ambient-limit, least recently used evicted first, never a region's pack); requests for tiles of one pack fetch it once. A stored pack older than the repository's latest is replaced when next used, for every region using it, in one transaction; when the repository cannot be reached the stored pack is served as it is. Tiles outside a tileset's zooms or bounds are never fetched.

        Examples:
          tilestore --store out/store serve
          tilestore --store out/store serve --listen 127.0.0.1:0
          tilestore --store out/ondemand serve --repository http://127.0.0.1:8081/repository --ambient-limit 20MB
          tilestore --store out/store serve --viewer-assets .venv/lib/python3.11/site-packages/maplibre/srcjs --routing http://127.0.0.1:5000
        """)

    @OptionGroup var global: StoreOptions
    @Option(help: ArgumentHelp("Address to listen on; port 0 picks a free port (printed on stdout).", valueName: "host:port"))
    var listen = "127.0.0.1:8080"
    @Option(help: ArgumentHelp("How often to look for changes to the store, in seconds.", valueName: "seconds"))
    var reload = 1.0
    @Option(help: ArgumentHelp("Fetch the packs the store lacks (or holds outdated) from this pack repository: http(s):// or file://.", valueName: "url"))
    var repository: String?
    @Option(help: ArgumentHelp("The ambient cache's limit (bytes, or with a unit: 50MB, 1GiB).", valueName: "bytes"))
    var ambientLimit = "50MB"
    @Option(help: ArgumentHelp("Seconds between checks of the repository's index for newer versions.", valueName: "seconds"))
    var repositoryCheck = 60.0
    @Option(help: ArgumentHelp("Seconds without a byte from the repository before a request is retried.", valueName: "seconds"))
    var timeout = 10.0
    @Option(help: ArgumentHelp("Retries of a repository request after a 5xx, a dropped connection or a short body.", valueName: "n"))
    var retries = 2
    @Option(help: ArgumentHelp("Directory holding maplibre-gl.js and maplibre-gl.css for the viewer page (default: $OFFGRID_MAPLIBRE_DIR).", valueName: "dir"))
    var viewerAssets: String?
    @Option(help: ArgumentHelp("route-query serve's address (e.g. http://127.0.0.1:5000): the viewer's routes go there through /route/v1.", valueName: "url"))
    var routing: String?

    func run() throws {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen must be HOST:PORT (e.g. 127.0.0.1:8080), got \"\(listen)\"")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen needs a host, e.g. 127.0.0.1:\(port)") }
        guard reload > 0, reload <= 3600 else { throw ValidationError("--reload must be between 0 and 3600 seconds") }
        var onDemand: OnDemandOptions?
        if let repository {
            guard let limit = parseByteSize(ambientLimit) else {
                throw ValidationError("--ambient-limit must be a number of bytes (e.g. 50000000, 50MB); got \"\(ambientLimit)\"")
            }
            guard repositoryCheck > 0, repositoryCheck <= 86400 else { throw ValidationError("--repository-check must be between 0 and 86400 seconds") }
            guard timeout > 0, retries >= 0, retries <= 20 else { throw ValidationError("--timeout must be positive and --retries between 0 and 20") }
            var fetch = FetchOptions()
            fetch.readTimeout = timeout
            fetch.connectTimeout = min(5, timeout)
            fetch.retries = retries
            fetch.backoff = 0.1
            fetch.maxBackoff = 1
            var o = OnDemandOptions(repository: try RepositoryLocation(repository), fetch: fetch)
            o.ambientLimit = limit
            o.checkInterval = repositoryCheck
            onDemand = o
        }
        let assets = viewerAssets ?? ProcessInfo.processInfo.environment["OFFGRID_MAPLIBRE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        if let assets, !FileManager.default.fileExists(atPath: (assets as NSString).appendingPathComponent("maplibre-gl.js")) {
            throw InputError(file: assets, "has no maplibre-gl.js (--viewer-assets / OFFGRID_MAPLIBRE_DIR must name the directory holding it)")
        }
        if let routing, !(routing.hasPrefix("http://") || routing.hasPrefix("https://")) {
            throw ValidationError("--routing must be an http:// URL (route-query serve's address), got \"\(routing)\"")
        }
        let server = try TileServer(store: try global.path(), reloadInterval: reload, quiet: global.quiet, onDemand: onDemand,
                                    viewer: ViewerOptions(assets: assets, routingURL: routing))
        try server.runBlocking(host: host, port: port) { [server] address in
            let contents = server.contents
            let line: JSONValue = ["listening": .string(address), "tilesets": .array(contents.tilesets.map { .string($0) }),
                                   "styles": .array(contents.styles.map { .string($0) })]
            StdIO.out(JSONWriter.string(line, pretty: false) + "\n")
        }
    }
}
