import ArgumentParser
import Foundation
import StylePacks
import OffgridCore
import ToolSupport

/// `tilepack-build style`: GL style + local sprites and glyphs → one style pack.
struct StyleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "style",
        abstract: "Build a style pack: a GL style with its sprites and glyph ranges, for offline use.",
        discussion: """
        Reads a MapLibre / Mapbox GL style (version 8), finds its sprite files (at every \
        requested pixel ratio) and the glyph ranges of every font stack its layers use \
        (0-255 … 65280-65535) in the resources directory, and writes one pack: the style, every \
        resource and an index (path, offset, length, CRC32, SHA-256). Sources are recorded, not \
        fetched. A resource the style references but the directory lacks stops the build and \
        nothing is written. A JSON summary goes to stdout.

        Relative sprite and glyphs URLs resolve inside the resources directory; absolute ones \
        keep only their tail (the sprite's last path segment, the glyphs path from {fontstack} on).

        Examples:
          tilepack-build style --style samples/style/style.json \\
              --pixel-ratio 1,2 --output out/basic.stylepack
          tilepack-build style --style style.json --resources res \\
              --glyphs local-ideographs --uri mapbox://styles/me/basic \\
              --output basic.stylepack
        """)

    @Option(help: "The GL style JSON.") var style: String
    @Option(help: "Directory holding the sprite files and glyph ranges (default: the style's directory).") var resources: String?
    @Option(help: "Glyph ranges to pack: all, or local-ideographs (leave out CJK Unified Ideographs ranges).") var glyphs = "all"
    @Option(help: "Sprite pixel ratios, e.g. 1,2 (sprite.json/png for 1, sprite@2x.json/png for 2).") var pixelRatio = "1"
    @Option(help: "The style URI recorded in the pack (default: the style's name).") var uri: String?
    @Option(help: "The style pack to write.") var output: String
    @OptionGroup var progressOptions: ProgressOptions

    func validate() throws {
        guard GlyphsMode(rawValue: glyphs) != nil else {
            throw ValidationError("--glyphs must be all or local-ideographs, not \"\(glyphs)\"")
        }
        do { _ = try StylePackOptions.parsePixelRatios(pixelRatio) } catch let e as InputError {
            throw ValidationError("--pixel-ratio: \(e.message)")
        }
        if let uri, uri.isEmpty { throw ValidationError("--uri must not be empty") }
    }

    func run() throws {
        let started = MonotonicClock.nanoseconds()
        let options = StylePackOptions(glyphsMode: GlyphsMode(rawValue: glyphs)!,
                                       pixelRatios: try StylePackOptions.parsePixelRatios(pixelRatio), uri: uri)
        let styleDir = (style as NSString).deletingLastPathComponent
        let dir = resources ?? (styleDir.isEmpty ? "." : styleDir)

        // Everything is located (and a missing resource reported) before progress starts.
        let plan = try StylePackBuilder.plan(style: style, resources: dir, options: options)
        let totalBytes = plan.resources.reduce(Int64(0)) { sum, r in
            sum + ((try? FileManager.default.attributesOfItem(atPath: r.file)[.size] as? Int64) ?? 0)
        }
        let reporter = ProgressReporter(mode: progressOptions.progressMode, label: "style", totalBytes: totalBytes,
                                        totalItems: plan.resources.count, itemName: "files")
        let contents: StylePackContents
        do {
            contents = try StylePackBuilder.load(plan) { reporter.update(bytesDone: $0, itemsDone: $1) }
        } catch {
            reporter.cancel()
            throw error
        }
        let bytes = try StylePackWriter.write(contents, to: output)
        reporter.finish(extra: ["bytes": .int(bytes)])
        for warning in plan.document.unresolvedFonts {
            StdIO.err("tilepack-build: warning: \(style): \(warning)\n")
        }

        let spriteFiles = contents.resources.filter { $0.info.kind == .spriteIndex || $0.info.kind == .spriteImage }
        let glyphRanges = contents.resources.filter { $0.info.kind == .glyphRange }
        let summary: JSONValue = [
            "output": .string(output),
            "uri": .string(contents.uri),
            "resources": .int(contents.resources.count),
            "resourceBytes": .int(contents.resourceBytes),
            "bytes": .int(bytes),
            "styleBytes": .int(contents.styleJSON.count),
            "glyphs": .string(contents.glyphsMode.rawValue),
            "fontstacks": .array(contents.fontStacks.map { .string($0) }),
            "glyphRanges": .int(glyphRanges.count),
            "glyphBytes": .int(glyphRanges.reduce(0) { $0 + $1.bytes.count }),
            "pixelRatios": .array(contents.pixelRatios.map { .int($0) }),
            "sprites": .array(contents.sprites.map { sprite in
                ["id": .string(sprite.id), "url": .string(sprite.url),
                 "files": .array(spriteFiles.filter { $0.info.group == sprite.id }.map { .string($0.info.path) })]
            }),
            "spriteBytes": .int(spriteFiles.reduce(0) { $0 + $1.bytes.count }),
            "sources": .array(contents.sources.map { source in
                ["id": .string(source.id), "type": .string(source.type), "url": .string(source.url),
                 "tiles": .array(source.tiles.map { .string($0) })]
            }),
            "warnings": .array(plan.document.unresolvedFonts.map { .string($0) }),
            "seconds": .double(MonotonicClock.seconds(since: started)),
        ]
        StdIO.out(JSONWriter.string(summary) + "\n")
    }
}
