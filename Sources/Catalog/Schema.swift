import PhotoFilerSystem

/// The catalog's schema history.
///
/// `PRAGMA user_version` holds the version of the file. Each migration is a
/// script run in one transaction together with the version bump, so a crash
/// leaves the file at the old version or the new one, never between. Never edit
/// a shipped migration: add the next one.
package enum Schema {
    package struct Migration {
        package let version: Int
        package let script: String
    }

    package static let migrations: [Migration] = [
        Migration(version: 1, script: version1),
        Migration(version: 2, script: version2),
        Migration(version: 3, script: galleryVersion),
        Migration(version: 4, script: livePhotos),
        Migration(version: 5, script: folderStamps),
        Migration(version: 6, script: changeLogCheck),
        Migration(version: 7, script: deletedRollPaths),
        Migration(version: 8, script: symbolicEntries),
        Migration(version: 9, script: refusedSources),
        Migration(version: 10, script: lighterChangeLog),
        Migration(version: 11, script: hiddenAndKinds),
    ]

    /// Brings the file to the newest version, refusing one written by a newer build.
    package static func migrate(_ connection: SQLiteConnection) throws(CatalogError) {
        let target = migrations.last?.version ?? 0
        let found = try userVersion(connection)
        if found > target {
            throw .newerSchema(path: connection.path, found: found, supported: target)
        }
        guard found < target else { return }
        for migration in migrations {
            try connection.execute("BEGIN IMMEDIATE")
            do throws(CatalogError) {
                // Read again under the write lock: another process may have
                // migrated while this one waited for it.
                let current = try userVersion(connection)
                if current > target {
                    throw CatalogError.newerSchema(path: connection.path, found: current, supported: target)
                }
                if current < migration.version {
                    try connection.executeScript(migration.script)
                    try connection.execute("PRAGMA user_version = \(migration.version)")
                }
                try FaultInjection.mutating("sqlite-commit") { () throws(CatalogError) in
                    try connection.execute("COMMIT")
                }
            } catch {
                if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    package static func userVersion(_ connection: SQLiteConnection) throws(CatalogError) -> Int {
        try connection.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }

    /// Version 2: a keep-mode inbox path remembers the hash of the bytes it had, so
    /// a re-sync that changes only its times is known without an asset to ask (the
    /// asset may be deleted or purged).
    static let version2 = """
        ALTER TABLE seen_sources ADD COLUMN hash TEXT;
        UPDATE seen_sources SET hash = (SELECT assets.hash FROM assets WHERE assets.id = seen_sources.asset_id);
        """

    /// Version 1.
    ///
    /// Paths and names are BLOBs because file names are bytes. Memberships copy
    /// their asset's sort keys (`asset_added_at`, `asset_created_at`, kept in
    /// step by a trigger) so an album listing walks one index in order and stops
    /// at the limit, however large or sparse the album. The partial indexes
    /// hold exactly the members of each smart album, so counts and covers read
    /// a small index instead of scanning every asset; their WHERE clauses must
    /// match `SmartAlbum.sqlPredicate` word for word, or SQLite will not use them.
    package static let version1 = """
        CREATE TABLE assets (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            roll_path BLOB NOT NULL,
            hash TEXT NOT NULL UNIQUE,
            media_type TEXT NOT NULL,
            mime TEXT NOT NULL,
            subtypes TEXT NOT NULL DEFAULT '',
            pixel_width INTEGER NOT NULL,
            pixel_height INTEGER NOT NULL,
            orientation INTEGER NOT NULL DEFAULT 1,
            duration REAL,
            frame_count INTEGER NOT NULL DEFAULT 1,
            embedded_at INTEGER,
            embedded_offset INTEGER,
            embedded_source TEXT,
            created_at INTEGER NOT NULL,
            created_offset INTEGER,
            created_source TEXT NOT NULL,
            added_at REAL NOT NULL,
            size INTEGER NOT NULL,
            original_name BLOB NOT NULL,
            source_inbox TEXT,
            favorite INTEGER NOT NULL DEFAULT 0,
            deleted_at REAL,
            trash_path BLOB
        );
        -- A roll path belongs to one live asset; a deleted one keeps its old path
        -- (restore asks for that name again) without blocking a new file of that name.
        CREATE UNIQUE INDEX assets_live_roll_path ON assets(roll_path) WHERE deleted_at IS NULL;
        CREATE INDEX assets_roll_path ON assets(roll_path);
        CREATE INDEX assets_live_added ON assets(added_at) WHERE deleted_at IS NULL;
        CREATE INDEX assets_live_created ON assets(created_at) WHERE deleted_at IS NULL;
        CREATE INDEX assets_videos ON assets(added_at)
            WHERE deleted_at IS NULL AND media_type = 'video';
        CREATE INDEX assets_animated ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',animated,') > 0;
        CREATE INDEX assets_screenshots ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',screenshot,') > 0;
        CREATE INDEX assets_favorites ON assets(added_at) WHERE deleted_at IS NULL AND favorite = 1;
        CREATE INDEX assets_deleted ON assets(added_at) WHERE deleted_at IS NOT NULL;

        CREATE TABLE albums (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE,
            folder BLOB NOT NULL UNIQUE,
            created_at REAL NOT NULL
        );

        CREATE TABLE memberships (
            asset_id INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
            entry_name BLOB NOT NULL,
            added_at REAL NOT NULL,
            removed_at REAL,
            asset_added_at REAL,
            asset_created_at INTEGER,
            PRIMARY KEY (asset_id, album_id)
        ) WITHOUT ROWID;
        CREATE INDEX memberships_album ON memberships(album_id);
        CREATE INDEX memberships_album_added ON memberships(album_id, asset_added_at, asset_id)
            WHERE removed_at IS NULL;
        CREATE INDEX memberships_album_created ON memberships(album_id, asset_created_at, asset_id)
            WHERE removed_at IS NULL;
        CREATE TRIGGER assets_sort_keys AFTER UPDATE OF added_at, created_at ON assets
        BEGIN
            UPDATE memberships SET asset_added_at = NEW.added_at, asset_created_at = NEW.created_at
            WHERE asset_id = NEW.id;
        END;

        CREATE TABLE seen_sources (
            path BLOB PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            asset_id INTEGER REFERENCES assets(id) ON DELETE SET NULL
        );
        CREATE INDEX seen_sources_asset ON seen_sources(asset_id);
        """

    /// The gallery's tables (version 3).
    ///
    /// `asset_changes` is how a running `serve` learns what another process (the
    /// daemon, `save`, `rm`) changed without reading the disk: triggers log every
    /// change of an asset in the writer's own transaction, and the server reads
    /// the rows after the sequence number it has seen. Only the newest 4,096 rows
    /// are kept; a reader that fell further behind reloads. `share_tokens` holds
    /// `share` links by the SHA-256 of their token, never the token itself.
    /// Version 6 rebuilds `asset_changes` with a cheaper check (`Schema+ChangeLog`);
    /// the triggers are `changeLogTriggers`, shared with that rebuild. Version 10
    /// trims the log every 64th row and logs no membership its asset's `filed`
    /// row already tells (`Schema+LighterChangeLog`).
    package static let galleryVersion =
        """
        CREATE TABLE asset_changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            asset_id INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('filed', 'deleted', 'changed'))
        );

        """ + changeLogTriggers + shareTokens

    /// The change log's triggers: bounded to the newest 4,096 rows, one row for
    /// each change of an asset or of its albums.
    static let changeLogTriggers = """
        CREATE TRIGGER asset_changes_bounded AFTER INSERT ON asset_changes
        BEGIN
            DELETE FROM asset_changes WHERE seq <= NEW.seq - 4096;
        END;
        CREATE TRIGGER asset_filed AFTER INSERT ON assets
        BEGIN
            INSERT INTO asset_changes (asset_id, kind)
            VALUES (NEW.id, CASE WHEN NEW.deleted_at IS NULL THEN 'filed' ELSE 'changed' END);
        END;
        CREATE TRIGGER asset_deleted AFTER UPDATE OF deleted_at ON assets
            WHEN NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.id, 'deleted');
        END;
        CREATE TRIGGER asset_restored AFTER UPDATE OF deleted_at ON assets
            WHEN NEW.deleted_at IS NULL AND OLD.deleted_at IS NOT NULL
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.id, 'changed');
        END;
        CREATE TRIGGER asset_edited AFTER UPDATE OF roll_path, favorite, created_at, media_type, subtypes
            ON assets
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.id, 'changed');
        END;
        CREATE TRIGGER asset_purged AFTER DELETE ON assets
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (OLD.id, 'deleted');
        END;
        CREATE TRIGGER membership_started AFTER INSERT ON memberships
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.asset_id, 'changed');
        END;
        CREATE TRIGGER membership_changed AFTER UPDATE OF removed_at ON memberships
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.asset_id, 'changed');
        END;

        """

    static let shareTokens = """
        CREATE TABLE share_tokens (
            hash TEXT PRIMARY KEY,
            album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            expires_at REAL
        ) WITHOUT ROWID;
        CREATE INDEX share_tokens_album ON share_tokens(album_id);
        """
}
