import ArgumentParser
import Foundation
import OffgridCore
import TileStore
import ToolSupport

/// `events [--since N] [--follow]`.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the store's journal as NDJSON: load progress and outcome, region and style changes.",
        discussion: """
        One JSON object per line: seq, time, type, region, style, data. With --follow, keeps printing new events as other processes journal them (Ctrl-C to stop).

        Examples:
          tilestore --store out/store events
          tilestore --store out/store events --since 120 --follow
        """)

    @OptionGroup var global: StoreOptions
    @Option(help: "Only events with a sequence number above this.") var since: Int64 = 0
    @Flag(help: "Keep waiting for new events.") var follow = false

    func run() throws {
        var last = since
        while true {
            let store = try TileStore.open(try global.path(), access: .read, quiet: global.quiet)
            let events = try store.events(since: last)
            store.close()
            for e in events {
                StdIO.out(try JSONEncoding.string(e, pretty: false) + "\n")
                last = e.seq
            }
            if !follow { return }
            if events.isEmpty { usleep(200_000) }
        }
    }
}
