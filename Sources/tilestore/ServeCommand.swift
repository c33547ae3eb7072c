import ArgumentParser
import OffgridCore
import TileServer
import ToolSupport

/// `serve [--listen HOST:PORT]`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store's tiles, TileJSON, styles, sprites and glyphs over HTTP (for MapLibre and other clients).",
        discussion: """
        Endpoints: /tiles/{tileset}/{z}/{x}/{y}, /tiles/{tileset}.json (TileJSON 3.0.0), /styles/{id}/style.json, /styles/{id}/sprite{@2x}.{json,png}, /fonts/{fontstack}/{start}-{end}.pbf, /health and / (an index). Status codes, ETag and Cache-Control: docs/CLI.md. The store is read without a lock while other tilestore commands change it; changes show within --reload seconds. When listening, one JSON line goes to stdout: {"listening":"HOST:PORT",...}. SIGTERM or SIGINT: in-flight requests finish, exit 0.

        Examples:
          tilestore --store out/store serve
          tilestore --store out/store serve --listen 127.0.0.1:0
        """)

    @OptionGroup var global: StoreOptions
    @Option(help: ArgumentHelp("Address to listen on; port 0 picks a free port (printed on stdout).", valueName: "host:port"))
    var listen = "127.0.0.1:8080"
    @Option(help: ArgumentHelp("How often to look for changes to the store, in seconds.", valueName: "seconds"))
    var reload = 1.0

    func run() throws {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--listen must be HOST:PORT (e.g. 127.0.0.1:8080), got \"\(listen)\"")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--listen needs a host, e.g. 127.0.0.1:\(port)") }
        guard reload > 0, reload <= 3600 else { throw ValidationError("--reload must be between 0 and 3600 seconds") }
        let server = try TileServer(store: try global.path(), reloadInterval: reload, quiet: global.quiet)
        let contents = server.contents
        try server.runBlocking(host: host, port: port) { address in
            let line: JSONValue = ["listening": .string(address), "tilesets": .array(contents.tilesets.map { .string($0) }),
                                   "styles": .array(contents.styles.map { .string($0) })]
            StdIO.out(JSONWriter.string(line, pretty: false) + "\n")
        }
    }
}
