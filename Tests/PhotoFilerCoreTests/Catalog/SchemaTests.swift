import Foundation
import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerSystem

@Suite struct CatalogSchemaTests {
    private func userVersion(_ path: BytePath) throws -> Int {
        let connection = try SQLiteConnection(path: path)
        return try Schema.userVersion(connection)
    }

    /// A catalog file as a build of schema `version` left it, open for the test
    /// to add what that build would have written.
    private func catalogFile(at path: BytePath, version: Int) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        for migration in Schema.migrations where migration.version <= version {
            try connection.executeScript(migration.script)
        }
        try connection.execute("PRAGMA user_version = \(version)")
        return connection
    }

    private func tables(_ path: BytePath) throws -> [String] {
        let connection = try SQLiteConnection(path: path)
        return try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        ) { $0.text(0) }
    }

    /// An asset row as a build before version 11 wrote it (no `hidden` column).
    private func insertBeforeHidden(_ asset: AssetRecord, into connection: SQLiteConnection) throws {
        let statement = AssetRow.insert.replacingOccurrences(of: ", hidden)", with: ")")
            .replacingOccurrences(of: ", ?)", with: ")")
        try connection.execute(statement, Array(AssetRow.values(asset, id: nil).dropLast()))
    }

    @Test func migrationsEndAtTheSchemaVersion() {
        #expect(Schema.migrations.last?.version == Catalog.schemaVersion)
        #expect(Schema.migrations.map(\.version) == Array(1...Catalog.schemaVersion))
    }

    @Test func createsTheNewestVersionInAMissingFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        _ = try Catalog(path: path)
        #expect(try userVersion(path) == Catalog.schemaVersion)
        #expect(
            try tables(path) == [
                "albums", "asset_changes", "assets", "folder_stamps", "memberships", "refused_sources",
                "seen_sources", "share_tokens",
            ])
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.queryFirst("PRAGMA journal_mode") { $0.text(0) } == "wal")
    }

    @Test func connectionSettingsAreDurableAndChecked() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        func pragma(_ name: String) throws -> String? {
            try catalog.connection.queryFirst("PRAGMA \(name)") { $0.text(0) }
        }
        #expect(try pragma("journal_mode") == "wal")
        #expect(try pragma("synchronous") == "2")  // FULL
        #expect(try pragma("foreign_keys") == "1")
        #expect(try pragma("busy_timeout") == "5000")
    }

    @Test func migratesAnEmptyFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        #expect(FileManager.default.createFile(atPath: path.display, contents: Data()))
        _ = try Catalog(path: path)
        #expect(try userVersion(path) == Catalog.schemaVersion)
    }

    @Test func migratesAVersionZeroDatabase() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.executeScript(
                "CREATE TABLE scratch (x); DROP TABLE scratch; PRAGMA user_version = 0;")
        }
        #expect(try tables(path).isEmpty)
        let catalog = try Catalog(path: path)
        #expect(try userVersion(path) == Catalog.schemaVersion)
        #expect(try catalog.insertAsset(sampleAsset(1)) == 1)
        // Opening it again migrates nothing and keeps the data.
        let again = try Catalog(path: path)
        #expect(try again.asset(id: 1)?.hash == sampleAsset(1).hash)
    }

    /// Version 6 makes the change log again with a cheaper check: its rows and its
    /// sequence survive (a running `serve` reads on after the number it has seen),
    /// the triggers log as before, and a kind outside the three is still refused.
    @Test func theChangeLogKeepsItsRowsAndSequenceThroughVersionSix() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let connection = try catalogFile(at: path, version: 5)
            try insertBeforeHidden(sampleAsset(1), into: connection)
            try insertBeforeHidden(sampleAsset(2), into: connection)
            // The newest row gone: numbers still go on after it, never reused.
            try connection.execute("DELETE FROM asset_changes WHERE seq = 2")
        }
        let catalog = try Catalog(path: path)
        #expect(try userVersion(path) == Catalog.schemaVersion)
        #expect(
            try catalog.changes(after: 0, limit: 10) == [
                Catalog.AssetChange(sequence: 1, asset: 1, kind: .filed)
            ])
        let id = try catalog.insertAsset(sampleAsset(3))
        #expect(
            try catalog.changes(after: 1, limit: 10) == [
                Catalog.AssetChange(sequence: 3, asset: id, kind: .filed)
            ])
        #expect(throws: CatalogError.self) {
            try catalog.connection.execute("INSERT INTO asset_changes (asset_id, kind) VALUES (1, 'moved')")
        }
        let table = try catalog.connection.queryFirst(
            "SELECT sql FROM sqlite_master WHERE name = 'asset_changes'"
        ) { $0.text(0) }
        #expect(table?.contains("kind = 'changed'") == true)
        #expect(
            try catalog.connection.query(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
            ) {
                $0.text(0)
            } == [
                "asset_changes_bounded", "asset_deleted", "asset_edited", "asset_filed", "asset_purged",
                "asset_restored", "assets_sort_keys", "folder_stamps_asset_deleted",
                "folder_stamps_membership_ended", "membership_changed", "membership_started",
            ])
    }

    /// Version 7 indexes only the old roll paths of deleted assets: a file filed
    /// into a migrated catalog adds nothing to that index, and a restore still
    /// finds the newest deleted asset that had the path, through it.
    @Test func deletedRollPathsHaveTheirOwnIndexFromVersionSeven() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let connection = try catalogFile(at: path, version: 6)
            try insertBeforeHidden(sampleAsset(1), into: connection)
        }
        let catalog = try Catalog(path: path)
        let indexes = try catalog.connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%roll_path' ORDER BY name"
        ) { $0.text(0) }
        #expect(indexes == ["assets_deleted_roll_path", "assets_live_roll_path"])

        try catalog.markDeleted(1, at: 10, trashPath: nil)
        var second = sampleAsset(2)
        second.rollPath = sampleAsset(1).rollPath
        let secondID = try catalog.insertAsset(second)
        try catalog.markDeleted(secondID, at: 20, trashPath: nil)
        var live = sampleAsset(3)
        live.rollPath = "Roll/live.jpg"
        _ = try catalog.insertAsset(live)

        #expect(try catalog.asset(rollPath: sampleAsset(1).rollPath)?.id == secondID)
        #expect(try catalog.asset(rollPath: "Roll/live.jpg")?.hash == live.hash)
        let indexed = try catalog.connection.queryFirst(
            "SELECT count(*) FROM assets INDEXED BY assets_deleted_roll_path WHERE deleted_at IS NOT NULL"
        ) { $0.int(0) }
        #expect(indexed == 2)
        let plan = try catalog.connection.query(
            "EXPLAIN QUERY PLAN SELECT id FROM assets a WHERE a.roll_path = ? AND a.deleted_at IS NOT NULL "
                + "ORDER BY a.id DESC", [.path(sampleAsset(1).rollPath)]
        ) { $0.text(3) }
        #expect(plan.contains { $0.contains("USING INDEX assets_deleted_roll_path") })
    }

    /// A refusal is stored by path with the size it had; a second one of the same
    /// path replaces it, and forgetting drops only the paths named.
    @Test func refusedSourcesAreRememberedByPathFromVersionNine() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let text: BytePath = "/in/QQ/readme.txt"
        let odd = BytePath(bytes: Array("/in/QQ/caf".utf8) + [0xE9, 0x2E, 0x62, 0x69, 0x6E])
        try catalog.recordRefusal(path: text, size: 10)
        try catalog.recordRefusal(path: odd, size: 3)
        try catalog.recordRefusal(path: text, size: 21)
        func stored() throws -> [BytePath: Int64] {
            Dictionary(uniqueKeysWithValues: try catalog.refusedSources().map { ($0.path, $0.size) })
        }
        #expect(try stored() == [text: 21, odd: 3])
        try catalog.forgetRefusals([text])
        #expect(try stored() == [odd: 3], "a name that is not UTF-8 is kept byte for byte")
    }

    /// Version 10 changes two triggers only: the rows and the sequence of a file
    /// that logged a membership beside its asset stay, and the next filing logs one row.
    @Test func theChangeLogLogsAFilingOnceFromVersionTen() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let connection = try catalogFile(at: path, version: 9)
            try insertBeforeHidden(sampleAsset(1, addedAt: 5), into: connection)
            try connection.execute(
                "INSERT INTO albums (name, folder, created_at) VALUES ('QQ', CAST('QQ' AS BLOB), 0)")
            try connection.execute(
                """
                INSERT INTO memberships (asset_id, album_id, entry_name, added_at, asset_added_at)
                VALUES (1, 1, CAST('IMG_1.jpg' AS BLOB), 5, 5)
                """)
        }
        let catalog = try Catalog(path: path)
        #expect(try userVersion(path) == Catalog.schemaVersion)
        #expect(try catalog.changes(after: 0, limit: 10).map(\.kind) == [.filed, .changed])
        let id = try catalog.write { () throws(CatalogError) in
            let id = try catalog.insertAsset(sampleAsset(2, addedAt: 6))
            try catalog.addMembership(asset: id, album: 1, entryName: "IMG_2.jpg", at: 6)
            return id
        }
        #expect(try catalog.changes(after: 2, limit: 10) == [.init(sequence: 3, asset: id, kind: .filed)])
        let triggers = try catalog.connection.query(
            "SELECT sql FROM sqlite_master WHERE name IN ('asset_changes_bounded', 'membership_started')"
        ) { $0.text(0) }
        #expect(triggers.count == 2 && triggers.allSatisfy { $0.contains(" WHEN ") }, "\(triggers)")
    }

    /// Version 11 adds `hidden`: every asset filed before is shown, hiding one is
    /// logged as a change, and the Hidden album reads its own index.
    @Test func assetsFiledBeforeVersionElevenAreShown() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let connection = try catalogFile(at: path, version: 10)
            try insertBeforeHidden(sampleAsset(1, addedAt: 5), into: connection)
        }
        let catalog = try Catalog(path: path)
        #expect(try catalog.asset(id: 1)?.hidden == false)
        let before = try catalog.latestChange()
        try catalog.setHidden(true, of: 1)
        #expect(try catalog.changes(after: before, limit: 10).map(\.kind) == [.changed])
        #expect(try catalog.asset(id: 1)?.hidden == true)
        let (sql, values) = AssetQuery(smartAlbum: .hidden, limit: 10, now: 0).statement()
        let plan = try catalog.connection.query("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) }
        #expect(plan.contains { $0.contains("USING INDEX assets_hidden") }, "\(plan)")
    }

    @Test func refusesANewerSchemaWithoutTouchingIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = \(Catalog.schemaVersion + 1)")
        }
        #expect(
            throws: CatalogError.newerSchema(
                path: path, found: Catalog.schemaVersion + 1, supported: Catalog.schemaVersion)
        ) {
            try Catalog(path: path)
        }
        #expect(try userVersion(path) == Catalog.schemaVersion + 1)
        #expect(try tables(path).isEmpty)
    }

    @Test(arguments: [
        Array(repeating: UInt8(0xA5), count: 4096),
        Array("this is not a database, just some notes\n".utf8),
    ])
    func refusesGarbageAsCorrupt(bytes: [UInt8]) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        #expect(FileManager.default.createFile(atPath: path.display, contents: Data(bytes)))
        let error = #expect(throws: CatalogError.self) { try Catalog(path: path) }
        guard case .corrupt(let reported, _) = error else {
            Issue.record("expected .corrupt, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
    }

    @Test func reportsAMissingFolderAsCannotOpen() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("missing/catalog.sqlite")
        let error = #expect(throws: CatalogError.self) { try Catalog(path: path) }
        guard case .cannotOpen(let reported, _) = error else {
            Issue.record("expected .cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
    }

    @Test func errorsCarryTheStatement() throws {
        let folder = try TemporaryFolder()
        let connection = try SQLiteConnection(path: folder.file("x.sqlite"))
        let error = #expect(throws: CatalogError.self) {
            try connection.execute("SELECT x FROM nowhere")
        }
        guard case .sqlite(_, let message, let sql) = error else {
            Issue.record("expected .sqlite, got \(String(describing: error))")
            return
        }
        #expect(sql == "SELECT x FROM nowhere")
        #expect(message.contains("nowhere"))
    }
}

/// Version 2 keeps a keep-mode source's hash, filled in from its asset on migration.
@Suite struct SeenSourceHashMigrationTests {
    @Test func versionOneSourcesGetTheirAssetsHash() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.executeScript(Schema.version1)
            try connection.execute("PRAGMA user_version = 1")
            try connection.execute(
                """
                INSERT INTO assets (roll_path, hash, media_type, mime, pixel_width, pixel_height,
                    created_at, created_source, added_at, size, original_name)
                VALUES (x'61', 'abc', 'image', 'image/jpeg', 1, 1, 0, 'exif', 0, 1, x'61')
                """)
            try connection.execute(
                "INSERT INTO seen_sources (path, size, mtime_ns, asset_id) VALUES (x'2f69', 1, 2, 1)")
        }
        let catalog = try Catalog(path: path)
        #expect(try catalog.seenSourceHash(path: "/i") == "abc")
    }
}
