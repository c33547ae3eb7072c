import ArgumentParser
import Foundation
import TileStore
import OffgridCore
import ToolSupport

/// `get Z X Y [--tileset NAME]`.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a tile's bytes (as the tileset stores them) from whatever installed pack holds it.",
        discussion: """
        XYZ tile coordinates (rows from the north, like the tile URL a renderer asks for). The bytes go to stdout as stored (vector tiles are usually gzipped); with --output they are written to a file and a JSON summary is printed. A tile no stored pack holds is an error.

        Examples:
          tilestore --store out/store get 14 8623 5759 > tile.mvt.gz
          tilestore --store out/store get 12 2155 1439 --tileset "$NAME" --output out/tile.mvt.gz
        """)

    @OptionGroup var global: StoreOptions
    @Argument(help: "Zoom.") var z: Int
    @Argument(help: "Column.") var x: Int
    @Argument(help: "Row (XYZ, from the north).") var y: Int
    @Option(help: "The tileset name (default: the only tileset in the store).") var tileset: String?
    @Option(help: "Write the tile to this file (atomically) and print JSON instead of the bytes.") var output: String?

    func run() throws {
        let store = try TileStore.open(try global.path(), access: .read, quiet: global.quiet)
        guard let found = try store.tile(z: z, x: x, y: y, tileset: tileset) else {
            throw InputError("tile \(z)/\(x)/\(y) of tileset \"\(tileset ?? "?")\" is in no installed pack")
        }
        if let output {
            try AtomicFile.write(Array(found.bytes), to: output)
            try printReport(TileWritten(tile: [z, x, y], tileset: found.tileset, pack: found.pack,
                                        bytes: found.bytes.count, output: output))
        } else {
            found.bytes.withUnsafeBytes { buf in
                var p = buf.baseAddress
                var left = buf.count
                while left > 0, let base = p {
                    let n = write(1, base, left)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    p = base + n
                    left -= n
                }
            }
        }
    }
}

/// `get --output FILE`: where the tile went.
struct TileWritten: Encodable {
    var tile: [Int]
    var tileset: String
    var pack: String
    var bytes: Int
    var output: String
}
