import ArgumentParser
import OffgridCore
import ToolSupport

struct TilepackBuild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilepack-build",
        abstract: "Build offline packs from OpenStreetMap data.",
        discussion: """
        Example:
          tilepack-build routing --input samples/liechtenstein.osm.pbf --output out/liechtenstein.routing.pack
          tilepack-build pbf-info samples/liechtenstein.osm.pbf
        """,
        subcommands: [RoutingCommand.self, PBFInfoCommand.self, StyleCommand.self, MapsCommand.self, PredictCommand.self, PublishCommand.self])
}

ToolMain.run(TilepackBuild.self)
