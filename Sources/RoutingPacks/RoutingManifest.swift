import OffgridCore

extension UnpackedRoutingDirectory {
    /// `manifest.json` of an unpacked routing directory: which data version, profile and grid its
    /// tiles belong to, which packs (regions) were unpacked into it, and each tile's size and CRC32.
    ///
    /// Written with sorted keys through `JSONWriter`, with regions and tiles sorted, so the same
    /// content always gives the same bytes.
    public struct Manifest: Equatable {
        public static let fileName = "manifest.json"
        /// Version of the unpacked-directory layout (not of the pack format).
        public static let currentFormatVersion = 1

        public var formatVersion: Int
        public var dataVersion: String
        public var profileName: String
        public var profileHash: String
        public var gridDegrees: Double
        /// Sorted by pack name, then bbox.
        public var regions: [Region]
        /// Ascending id.
        public var tiles: [Tile]

        public struct Region: Equatable {
            /// Base name of the pack file the region came from.
            public var pack: String
            /// minLon, minLat, maxLon, maxLat.
            public var bbox: [Double]
            /// Canonical compact GeoJSON text of the region geometry, nil when the region is its bbox.
            public var geometry: String?
            /// Number of tiles in that pack.
            public var tiles: Int

            public init(pack: String, bbox: [Double], geometry: String?, tiles: Int) {
                self.pack = pack
                self.bbox = bbox
                self.geometry = geometry
                self.tiles = tiles
            }

            /// Regions are the same region when they come from the same pack name with the same bbox.
            func sameRegion(as other: Region) -> Bool { pack == other.pack && bbox == other.bbox }

            static func ordered(_ a: Region, _ b: Region) -> Bool {
                a.pack != b.pack ? a.pack < b.pack : a.bbox.lexicographicallyPrecedes(b.bbox)
            }
        }

        public struct Tile: Equatable {
            public var id: UInt32
            /// File name inside the directory, always `<id>.tile`.
            public var file: String
            public var size: Int
            /// CRC32 of the file's bytes.
            public var crc32: UInt32

            public init(id: UInt32, size: Int, crc32: UInt32) {
                self.id = id
                self.file = Self.fileName(for: id)
                self.size = size
                self.crc32 = crc32
            }

            public static func fileName(for id: UInt32) -> String { "\(id).tile" }
        }

        public init(formatVersion: Int = Manifest.currentFormatVersion, dataVersion: String, profileName: String,
                    profileHash: String, gridDegrees: Double, regions: [Region], tiles: [Tile]) {
            self.formatVersion = formatVersion
            self.dataVersion = dataVersion
            self.profileName = profileName
            self.profileHash = profileHash
            self.gridDegrees = gridDegrees
            self.regions = regions.sorted(by: Region.ordered)
            self.tiles = tiles.sorted { $0.id < $1.id }
        }

        /// Binary search for tile `id`.
        public func tile(id: UInt32) -> Tile? {
            var lo = 0, hi = tiles.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if tiles[mid].id < id { lo = mid + 1 } else { hi = mid }
            }
            return lo < tiles.count && tiles[lo].id == id ? tiles[lo] : nil
        }

        // MARK: - JSON

        public var json: JSONValue {
            [
                "formatVersion": .int(formatVersion),
                "dataVersion": .string(dataVersion),
                "profileName": .string(profileName),
                "profileHash": .string(profileHash),
                "gridDegrees": .double(gridDegrees),
                "regions": .array(regions.map { region in
                    ["pack": .string(region.pack), "bbox": .array(region.bbox.map { .double($0) }),
                     "geometry": region.geometry.flatMap(GeoJSONText.object) ?? .null, "tiles": .int(region.tiles)]
                }),
                "tiles": .array(tiles.map {
                    ["id": .int(Int($0.id)), "file": .string($0.file), "size": .int($0.size), "crc32": .int(Int($0.crc32))]
                }),
            ]
        }

        /// The file's bytes: pretty JSON with sorted keys and a final newline.
        public func encoded() -> [UInt8] {
            Array((JSONWriter.string(json, pretty: true) + "\n").utf8)
        }

        /// Parses and validates manifest bytes; problems are `InputError`s naming `path`.
        public static func decode(_ bytes: [UInt8], path: String) throws -> Manifest {
            func fail(_ message: String) -> InputError { InputError(file: path, "invalid manifest: \(message)") }
            guard let value = try? JSONReader.parse(bytes), let root = value.objectValue else { throw fail("not a JSON object") }

            guard let formatVersion = integer(root["formatVersion"]) else { throw fail("formatVersion missing") }
            guard formatVersion == currentFormatVersion else {
                throw fail("unsupported formatVersion \(formatVersion) (this tool reads \(currentFormatVersion))")
            }
            guard let dataVersion = root["dataVersion"]?.stringValue, RoutingPackHeader.isDataVersion(dataVersion) else {
                throw fail("dataVersion missing or not yyyy-MM-dd-N")
            }
            guard let profileName = root["profileName"]?.stringValue else { throw fail("profileName missing") }
            guard let profileHash = root["profileHash"]?.stringValue else { throw fail("profileHash missing") }
            guard let grid = number(root["gridDegrees"]), grid.isFinite, grid > 0 else {
                throw fail("gridDegrees missing or not positive")
            }
            guard let regionValues = root["regions"]?.arrayValue else { throw fail("regions missing") }
            var regions: [Region] = []
            for (i, value) in regionValues.enumerated() {
                guard let r = value.objectValue, let pack = r["pack"]?.stringValue,
                      let bboxValues = r["bbox"]?.arrayValue, bboxValues.count == 4,
                      let tileCount = integer(r["tiles"]), tileCount >= 0
                else { throw fail("region \(i) is malformed") }
                let bbox = bboxValues.compactMap { number($0) }
                guard bbox.count == 4 else { throw fail("region \(i) bbox is not 4 numbers") }
                var geometry: String?
                if let object = r["geometry"], case .object = object {
                    geometry = GeoJSONText.canonical(object)
                } else if r["geometry"] != nil && r["geometry"] != .null {
                    throw fail("region \(i) geometry is neither an object nor null")
                }
                regions.append(Region(pack: pack, bbox: bbox, geometry: geometry, tiles: tileCount))
            }
            guard let tileValues = root["tiles"]?.arrayValue else { throw fail("tiles missing") }
            var tiles: [Tile] = []
            tiles.reserveCapacity(tileValues.count)
            for (i, value) in tileValues.enumerated() {
                guard let t = value.objectValue,
                      let id = integer(t["id"]), let tileID = UInt32(exactly: id),
                      let size = integer(t["size"]), size >= 0, size <= RoutingPackFormat.maxRawTileSize,
                      let crc = integer(t["crc32"]), let crc32 = UInt32(exactly: crc),
                      let file = t["file"]?.stringValue
                else { throw fail("tile entry \(i) is malformed") }
                // The name is checked, not trusted: it becomes a path.
                guard file == Tile.fileName(for: tileID) else {
                    throw fail("tile \(tileID) file is \"\(file)\", expected \"\(Tile.fileName(for: tileID))\"")
                }
                if let last = tiles.last, last.id >= tileID {
                    throw fail("tile \(tileID) is out of order or repeated")
                }
                tiles.append(Tile(id: tileID, size: size, crc32: crc32))
            }
            return Manifest(formatVersion: formatVersion, dataVersion: dataVersion, profileName: profileName,
                            profileHash: profileHash, gridDegrees: grid, regions: regions, tiles: tiles)
        }

        private static func number(_ value: JSONValue?) -> Double? { value?.doubleValue }

        private static func integer(_ value: JSONValue?) -> Int? {
            guard let d = number(value), d == d.rounded(), abs(d) < 1e15 else { return nil }
            return Int(d)
        }
    }
}
