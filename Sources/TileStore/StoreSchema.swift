/// The index schema (docs/FORMATS.md, "Tile store"). Version 2: version 1 plus routing tiles
/// (objects and region rows of kind `routing-tile`, loaded from a repository) and the `events`
/// journal. Version 3: version 2 plus `ambient_packs`, the map packs `serve --repository` fetched
/// on demand (the ambient cache). Older indexes are upgraded in place by the first writer
/// (`TileStore.open`): 1 → 2 rebuilds two tables, 2 → 3 only adds the new table.
enum StoreSchema {
    static let version = 3
    /// Versions a reader accepts as they are (a writer upgrades them).
    static let readable: Set<String> = ["1", "2", "3"]

    static let statements = """
    CREATE TABLE IF NOT EXISTS meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS objects (
        sha256       TEXT PRIMARY KEY,
        kind         TEXT NOT NULL CHECK (kind IN ('map-pack', 'routing-pack', 'routing-tile', 'style-resource')),
        path         TEXT NOT NULL UNIQUE,
        bytes        INTEGER NOT NULL,
        tiles        INTEGER,
        tileset      TEXT,
        band_min     INTEGER,
        band_max     INTEGER,
        parent_z     INTEGER,
        parent_x     INTEGER,
        parent_y     INTEGER,
        expires_at   INTEGER,
        installed_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS objects_by_parent ON objects (tileset, parent_z, parent_x, parent_y);
    CREATE TABLE IF NOT EXISTS regions (
        id           TEXT PRIMARY KEY,
        geometry     TEXT,
        min_lon      REAL,
        min_lat      REAL,
        max_lon      REAL,
        max_lat      REAL,
        tileset      TEXT,
        metadata     TEXT NOT NULL DEFAULT 'null',
        expires      TEXT,
        expires_at   INTEGER,
        routing      TEXT,
        max_packs    INTEGER,
        max_tiles    INTEGER,
        load_source  TEXT,
        installed_at INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS region_packs (
        region_id TEXT NOT NULL REFERENCES regions (id) ON DELETE CASCADE,
        kind      TEXT NOT NULL CHECK (kind IN ('map-pack', 'routing-pack', 'routing-tile')),
        name      TEXT NOT NULL,
        sha256    TEXT NOT NULL,
        bytes     INTEGER NOT NULL,
        tiles     INTEGER NOT NULL,
        PRIMARY KEY (region_id, kind, name)
    );
    CREATE INDEX IF NOT EXISTS region_packs_by_sha ON region_packs (sha256);
    CREATE TABLE IF NOT EXISTS styles (
        uri          TEXT PRIMARY KEY,
        info         TEXT NOT NULL,
        installed_at INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS style_resources (
        uri         TEXT NOT NULL REFERENCES styles (uri) ON DELETE CASCADE,
        path        TEXT NOT NULL,
        kind        TEXT NOT NULL,
        url         TEXT NOT NULL,
        grp         TEXT NOT NULL,
        pixel_ratio INTEGER NOT NULL,
        range_start INTEGER NOT NULL,
        sha256      TEXT NOT NULL,
        bytes       INTEGER NOT NULL,
        crc32       INTEGER NOT NULL,
        PRIMARY KEY (uri, path)
    );
    CREATE INDEX IF NOT EXISTS style_resources_by_sha ON style_resources (sha256);
    CREATE TABLE IF NOT EXISTS ambient_packs (
        sha256     TEXT PRIMARY KEY REFERENCES objects (sha256) ON DELETE CASCADE,
        tileset    TEXT NOT NULL,
        key        TEXT NOT NULL,
        version    TEXT NOT NULL,
        source     TEXT NOT NULL,
        bytes      INTEGER NOT NULL,
        fetched_at INTEGER NOT NULL,
        last_used  INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ambient_packs_by_use ON ambient_packs (last_used, sha256);
    CREATE INDEX IF NOT EXISTS ambient_packs_by_key ON ambient_packs (tileset, key);
    CREATE TABLE IF NOT EXISTS events (
        seq     INTEGER PRIMARY KEY AUTOINCREMENT,
        time    INTEGER NOT NULL,
        type    TEXT NOT NULL,
        region  TEXT,
        style   TEXT,
        data    TEXT NOT NULL DEFAULT '{}'
    );
    """

    /// Version 1 → 2: the two tables whose `kind` CHECK grew are rebuilt (SQLite cannot alter a
    /// CHECK), in the caller's transaction, before `statements` create what is missing.
    static let renameVersion1Tables = """
    DROP INDEX IF EXISTS objects_by_parent;
    DROP INDEX IF EXISTS region_packs_by_sha;
    ALTER TABLE objects RENAME TO objects_v1;
    ALTER TABLE region_packs RENAME TO region_packs_v1;
    """
    static let copyVersion1Rows = """
    INSERT INTO objects SELECT * FROM objects_v1;
    INSERT INTO region_packs SELECT * FROM region_packs_v1;
    DROP TABLE objects_v1;
    DROP TABLE region_packs_v1;
    ALTER TABLE regions ADD COLUMN load_source TEXT;
    UPDATE meta SET value = '2' WHERE key = 'schema_version';
    """

    /// SQL condition: object `o` is used by no region and no style (evictable).
    static let unreferenced = """
        NOT EXISTS (SELECT 1 FROM region_packs rp WHERE rp.sha256 = o.sha256)
        AND NOT EXISTS (SELECT 1 FROM style_resources sr WHERE sr.sha256 = o.sha256)
        """

    /// SQL expression: region `r` has every pack it lists (1) or misses some (0).
    static let regionComplete = """
        NOT EXISTS (SELECT 1 FROM region_packs rp WHERE rp.region_id = r.id
                    AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.sha256 = rp.sha256))
        """

    /// SQL expression: style `s` has every resource it lists.
    static let styleComplete = """
        NOT EXISTS (SELECT 1 FROM style_resources sr WHERE sr.uri = s.uri
                    AND NOT EXISTS (SELECT 1 FROM objects o WHERE o.sha256 = sr.sha256))
        """
}
