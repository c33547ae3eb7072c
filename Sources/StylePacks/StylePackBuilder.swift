import OffgridCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Options of `tilepack-build style`.
public struct StylePackOptions: Sendable {
    public var glyphsMode: GlyphsMode
    /// Sprite pixel ratios to pack, e.g. [1, 2]; ascending and distinct after `normalized`.
    public var pixelRatios: [Int]
    /// The style URI recorded in the pack; the style's `name` when nil.
    public var uri: String?
    public var createdBy: String

    public init(glyphsMode: GlyphsMode = .all, pixelRatios: [Int] = [1], uri: String? = nil,
                createdBy: String = "tilepack-build \(OffgridVersion.string)") {
        self.glyphsMode = glyphsMode
        self.pixelRatios = pixelRatios
        self.uri = uri
        self.createdBy = createdBy
    }

    /// Parses `1,2` (also `1x,2x` and `@2x`).
    public static func parsePixelRatios(_ text: String) throws -> [Int] {
        var ratios: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var s = part.trimmingCharacters(in: .whitespaces)
            if s.hasPrefix("@") { s.removeFirst() }
            if s.hasSuffix("x") { s.removeLast() }
            guard let r = Int(s), StylePackFormat.pixelRatioRange.contains(r) else {
                throw InputError("pixel ratio \"\(part)\" is not an integer from 1 to 4")
            }
            if !ratios.contains(r) { ratios.append(r) }
        }
        guard !ratios.isEmpty else { throw InputError("no pixel ratio given") }
        return ratios.sorted()
    }
}

/// One resource the style needs, located in the resources directory but not read yet.
public struct PlannedStyleResource: Sendable {
    public let info: StyleResourceInfo
    /// The file in the resources directory.
    public let file: String
    /// How errors name it: `glyph range "Noto Sans Regular/0-255.pbf"`, `sprite file "sprite@2x.png" (pixel ratio 2)`.
    public let label: String
    /// The directory errors say it is missing from (the resources directory, or a folder in it).
    public let folder: String
}

/// Everything a pack will hold, located: the style, its URI and the resource files to read.
public struct StylePackPlan {
    public let stylePath: String
    public let resourcesDirectory: String
    public let document: StyleDocument
    public let uri: String
    public let options: StylePackOptions
    /// Sprite files then glyph ranges, in pack order (the style is not listed).
    public let resources: [PlannedStyleResource]
    /// Font stack keys (names joined by ","), sorted.
    public let fontStacks: [String]
}

/// A built pack's contents and what the build noticed.
public struct StylePackBuild {
    public let plan: StylePackPlan
    public let contents: StylePackContents
    /// Layer parts whose fonts depend on data (not packed).
    public var warnings: [String] { plan.document.unresolvedFonts }
}

/// Style JSON + resources directory → style pack. Every resource the style references is located
/// before any is read; one that is missing stops the build with an `InputError` naming it, and
/// nothing is written. How URLs are resolved against the directory: `plan`.
public enum StylePackBuilder {
    /// Builds the pack and writes it atomically to `output`. Returns the build and the file size.
    public static func write(style: String, resources: String, options: StylePackOptions, output: String,
                             progress: ((_ bytesDone: Int64, _ itemsDone: Int) -> Void)? = nil) throws -> (build: StylePackBuild, bytes: Int) {
        let build = try self.build(style: style, resources: resources, options: options, progress: progress)
        let bytes = try StylePackWriter.write(build.contents, to: output)
        return (build, bytes)
    }

    /// Reads the style, locates and reads every resource, checks them, and returns the contents
    /// (`StylePackWriter.encode` turns them into bytes).
    public static func build(style: String, resources: String, options: StylePackOptions,
                             progress: ((_ bytesDone: Int64, _ itemsDone: Int) -> Void)? = nil) throws -> StylePackBuild {
        let plan = try self.plan(style: style, resources: resources, options: options)
        return StylePackBuild(plan: plan, contents: try load(plan, progress: progress))
    }

    /// Locates every resource of the style in `resources` (a directory):
    ///
    /// - **Relative URLs** (no scheme, not starting with `/`) are resolved against the directory,
    ///   the way a relative URL is resolved against the style's own location: `"sprite": "sprite"`
    ///   → `DIR/sprite.json`, `DIR/sprite.png`, `DIR/sprite@2x.json`, …; `"glyphs":
    ///   "glyphs/{fontstack}/{range}.pbf"` → `DIR/glyphs/<stack>/0-255.pbf`, ….
    /// - **Absolute URLs** (`https://…`, `mapbox://…`, `/…`) keep only their tail: a sprite its last
    ///   path segment (`https://h/styles/basic/sprite` → `DIR/sprite.json`, …), a glyphs template
    ///   the part from the segment holding `{fontstack}` on (`https://h/fonts/{fontstack}/{range}.pbf`
    ///   → `DIR/<stack>/0-255.pbf`).
    /// - A query or fragment (`?access_token=…`) is kept in the recorded URL, never in the file name.
    ///   Sprite files follow the GL convention: `@<ratio>x` (ratios above 1) and `.json` / `.png`
    ///   go after the path and before the query.
    /// - `<stack>` is the font names joined by "," (what GL renderers put in `{fontstack}`);
    ///   `{range}` is `<start>-<end>`. Paths may not leave the directory (`..`, `/` in a font name).
    public static func plan(style stylePath: String, resources dir: String, options: StylePackOptions) throws -> StylePackPlan {
        let document = try StyleDocument(path: stylePath)
        func fail(_ message: String) -> InputError { InputError(file: stylePath, message) }

        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) else {
            throw InputError(file: dir, "resources directory not found")
        }
        guard isDir.boolValue else { throw InputError(file: dir, "resources must be a directory") }

        let uri = options.uri ?? document.name ?? ""
        guard !uri.isEmpty else { throw fail("the style has no \"name\" to use as its URI; give --uri") }
        let ratios = Array(Set(options.pixelRatios)).sorted()
        guard !ratios.isEmpty, ratios.allSatisfy(StylePackFormat.pixelRatioRange.contains) else {
            throw InputError("pixel ratios must be integers from 1 to 4, got \(options.pixelRatios)")
        }

        var planned: [PlannedStyleResource] = []

        // Sprites: per sprite, per ratio, the index then the sheet.
        for sprite in document.sprites {
            let (path, query) = URLTemplates.splitQuery(sprite.url)
            var segments: [String]
            if URLTemplates.isAbsolute(path) {
                guard let last = URLTemplates.pathOfAbsolute(path).split(separator: "/", omittingEmptySubsequences: false).last,
                      !last.isEmpty else {
                    throw fail("sprite URL \"\(sprite.url)\" has no file name")
                }
                segments = [String(last)]
            } else {
                segments = try URLTemplates.relativeSegments(path, what: "sprite URL", fail: fail)
            }
            let base = segments.removeLast()
            for ratio in ratios {
                let suffix = ratio == 1 ? "" : "@\(ratio)x"
                for (kind, ext) in [(StyleResourceKind.spriteIndex, ".json"), (.spriteImage, ".png")] {
                    let name = base + suffix + ext
                    let relative = (segments + [name]).joined(separator: "/")
                    guard isSafeRelativePath(relative) else { throw fail("sprite URL \"\(sprite.url)\" leaves the resources directory") }
                    let info = StyleResourceInfo(kind: kind, path: relative, url: path + suffix + ext + query, group: sprite.id,
                                                 pixelRatio: ratio, rangeStart: 0)
                    let spriteName = sprite.id == "default" ? "sprite" : "sprite \"\(sprite.id)\""
                    planned.append(PlannedStyleResource(
                        info: info, file: join(dir, relative),
                        label: "\(spriteName) file \"\(name)\" (pixel ratio \(ratio))",
                        folder: join(dir, segments.joined(separator: "/"))))
                }
            }
        }

        // Glyphs: per font stack (sorted), per range.
        let stacks = document.fontStackKeys
        if !stacks.isEmpty {
            guard let template = document.glyphs else {
                throw fail("layers use font stacks (\(stacks.map { "\"\($0)\"" }.joined(separator: ", "))) but the style has no \"glyphs\" URL")
            }
            let (path, _) = URLTemplates.splitQuery(template)
            guard path.contains("{fontstack}"), path.contains("{range}") else {
                throw fail("\"glyphs\" URL \"\(template)\" must contain {fontstack} and {range} (before any query)")
            }
            var segments: [String]
            if URLTemplates.isAbsolute(path) {
                let all = URLTemplates.pathOfAbsolute(path).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                let first = all.firstIndex { $0.contains("{fontstack}") }!
                segments = Array(all[first...])
            } else {
                segments = try URLTemplates.relativeSegments(path, what: "\"glyphs\" URL", fail: fail)
            }
            guard let stackSegment = segments.firstIndex(where: { $0.contains("{fontstack}") }),
                  segments[stackSegment...].contains(where: { $0.contains("{range}") }) else {
                throw fail("\"glyphs\" URL \"\(template)\": {range} must come after {fontstack}")
            }
            let folderSegments = Array(segments[..<stackSegment])
            let labelSegments = Array(segments[stackSegment...])
            for stack in stacks {
                guard !stack.contains("/"), !stack.utf8.contains(0), stack != ".", stack != ".." else {
                    throw fail("font stack \"\(stack)\" cannot be a directory name (\"/\", NUL, \".\" or \"..\")")
                }
                for start in GlyphRanges.starts(for: options.glyphsMode) {
                    let range = GlyphRanges.name(start: start)
                    func expand(_ s: String) -> String {
                        s.replacingOccurrences(of: "{fontstack}", with: stack).replacingOccurrences(of: "{range}", with: range)
                    }
                    let label = labelSegments.map(expand).joined(separator: "/")
                    let relative = (folderSegments + [label]).joined(separator: "/")
                    guard isSafeRelativePath(relative) else {
                        throw fail("glyph range \"\(label)\" would lie outside the resources directory")
                    }
                    let info = StyleResourceInfo(kind: .glyphRange, path: relative, url: expand(template), group: stack,
                                                 pixelRatio: 0, rangeStart: start)
                    planned.append(PlannedStyleResource(info: info, file: join(dir, relative), label: "glyph range \"\(label)\"",
                                                        folder: join(dir, folderSegments.joined(separator: "/"))))
                }
            }
        }

        // Paths are the resources' names: unique, and never the style's own.
        var seen: Set<String> = [StylePackFormat.stylePath]
        for r in planned where !seen.insert(r.info.path).inserted {
            throw fail("two resources map to the same file \"\(r.info.path)\"" +
                       (r.info.path == StylePackFormat.stylePath ? " (the name the pack reserves for the style)" : ""))
        }

        // Everything must exist before anything is read.
        let missing = planned.filter { !isRegularFile($0.file) }
        if let first = missing.first {
            let more = missing.count > 1 ? " (and \(missing.count - 1) more missing resource\(missing.count > 2 ? "s" : ""))" : ""
            throw fail("\(first.label) missing in \(first.folder)\(more)")
        }

        let options = StylePackOptions(glyphsMode: options.glyphsMode, pixelRatios: ratios, uri: options.uri, createdBy: options.createdBy)
        return StylePackPlan(stylePath: stylePath, resourcesDirectory: dir, document: document, uri: uri, options: options,
                             resources: planned, fontStacks: stacks)
    }

    /// Reads and checks every planned resource. `progress` gets the bytes and number of resource
    /// files read so far (the style itself is not counted).
    public static func load(_ plan: StylePackPlan, progress: ((Int64, Int) -> Void)? = nil) throws -> StylePackContents {
        var resources: [(info: StyleResourceInfo, bytes: [UInt8])] = [
            (StyleResourceInfo(kind: .style, path: StylePackFormat.stylePath, url: plan.uri, group: "", pixelRatio: 0, rangeStart: 0),
             plan.document.bytes),
        ]
        var done: Int64 = 0
        var total = plan.document.bytes.count
        // Sprite sheet sizes by (sprite id, ratio), to check each index against its sheet.
        var pendingIndexes: [String: (file: String, bytes: [UInt8], ratio: Int)] = [:]
        for (i, r) in plan.resources.enumerated() {
            let bytes = try readResource(r.file)
            total += bytes.count
            guard total <= StylePackFormat.maxFileSize else {
                throw InputError(file: plan.stylePath, "resources add up to over \(StylePackFormat.maxFileSize >> 30) GiB")
            }
            switch r.info.kind {
            case .spriteIndex:
                pendingIndexes["\(r.info.group)@\(r.info.pixelRatio)"] = (r.file, bytes, r.info.pixelRatio)
            case .spriteImage:
                let size: (width: Int, height: Int)
                switch ResourceChecks.pngSize(bytes) {
                case .success(let s): size = s
                case .failure(let f): throw InputError(file: r.file, f.message)
                }
                if let index = pendingIndexes.removeValue(forKey: "\(r.info.group)@\(r.info.pixelRatio)") {
                    if case .failure(let f) = ResourceChecks.checkSprite(json: index.bytes, sheet: size, ratio: index.ratio) {
                        throw InputError(file: index.file, f.message)
                    }
                }
            case .glyphRange:
                if case .failure(let f) = ResourceChecks.checkGlyphRange(bytes, start: r.info.rangeStart) {
                    throw InputError(file: r.file, f.message)
                }
            case .style:
                break
            }
            resources.append((r.info, bytes))
            done += Int64(bytes.count)
            progress?(done, i + 1)
        }
        return StylePackContents(
            uri: plan.uri, createdBy: plan.options.createdBy, glyphsMode: plan.options.glyphsMode,
            pixelRatios: plan.options.pixelRatios, fontStacks: plan.fontStacks, sprites: plan.document.sprites,
            sources: plan.document.sources, resources: resources)
    }

    // MARK: - Files

    static func join(_ dir: String, _ relative: String) -> String {
        if relative.isEmpty { return dir }
        return dir.hasSuffix("/") ? dir + relative : dir + "/" + relative
    }

    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    static func readResource(_ path: String) throws -> [UInt8] {
        var st = stat()
        guard stat(path, &st) == 0 else { throw InputError(file: path, "cannot stat: \(String(cString: strerror(errno)))") }
        guard Int(st.st_size) <= StylePackFormat.maxResourceLength else {
            throw InputError(file: path, "\(st.st_size) bytes, over the \(StylePackFormat.maxResourceLength >> 20) MiB limit for one resource")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError(file: path, "cannot read") }
        return [UInt8](data)
    }
}

/// URL template helpers for `StylePackBuilder.plan`.
enum URLTemplates {
    /// `scheme:` at the start (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`).
    static func hasScheme(_ s: String) -> Bool {
        guard let colon = s.firstIndex(of: ":"), colon != s.startIndex else { return false }
        let scheme = s[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first) else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    static func isAbsolute(_ s: String) -> Bool { s.hasPrefix("/") || hasScheme(s) }

    /// Splits at the first `?` or `#`: (path, "?query#fragment" or "").
    static func splitQuery(_ s: String) -> (String, String) {
        guard let i = s.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return (s, "") }
        return (String(s[..<i]), String(s[i...]))
    }

    /// The path of an absolute URL: after `scheme://authority`, `scheme:` or nothing (`/path`),
    /// without its leading slashes.
    static func pathOfAbsolute(_ s: String) -> String {
        var rest = Substring(s)
        if hasScheme(s), let colon = rest.firstIndex(of: ":") {
            rest = rest[rest.index(after: colon)...]
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
            }
        }
        while rest.hasPrefix("/") { rest = rest.dropFirst() }
        return String(rest)
    }

    /// Segments of a relative URL path, `./` dropped; `..`, `.` and empty segments refused.
    static func relativeSegments(_ path: String, what: String, fail: (String) -> InputError) throws -> [String] {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        while segments.first == "." { segments.removeFirst() }
        guard !segments.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw fail("\(what) \"\(path)\" is not a plain relative path inside the resources directory")
        }
        return segments
    }
}
