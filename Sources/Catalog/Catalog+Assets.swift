import PhotoFilerSystem

extension Catalog {
    // MARK: Assets

    /// Inserts a new asset (the record's `id` is ignored) and returns its new id.
    public func insertAsset(_ asset: AssetRecord) throws(CatalogError) -> AssetID {
        try insertAsset(asset, keepingID: false)
    }

    /// Inserts an asset; with `keepingID` it keeps `asset.id`, so a catalog
    /// rebuilt from disk gives assets back the ids users already know. Either
    /// way AUTOINCREMENT then never hands out an id at or below the highest one
    /// ever used.
    public func insertAsset(_ asset: AssetRecord, keepingID: Bool) throws(CatalogError) -> AssetID {
        try write { () throws(CatalogError) in
            try connection.execute(AssetRow.insert, AssetRow.values(asset, id: keepingID ? asset.id : nil))
            return connection.lastInsertRowID
        }
    }

    public func asset(id: AssetID) throws(CatalogError) -> AssetRecord? {
        try firstAsset(AssetLookups.byID, [.integer(id)])
    }

    /// The live asset at `rollPath`, else the newest deleted one that was there.
    public func asset(rollPath: BytePath) throws(CatalogError) -> AssetRecord? {
        if let live = try firstAsset(AssetLookups.liveByRollPath, [.path(rollPath)]) {
            return live
        }
        return try firstAsset(AssetLookups.newestDeletedByRollPath, [.path(rollPath)])
    }

    /// The asset whose bytes are kept at `trashPath` under `Recently Deleted/`.
    public func asset(trashPath: BytePath) throws(CatalogError) -> AssetRecord? {
        try firstAsset(AssetLookups.byTrashPath, [.path(trashPath)])
    }

    /// The names under `Recently Deleted/` that rows keep (a still's or a Live
    /// Photo's video's bytes). Only a deleted asset keeps any, so this reads the
    /// deleted ones alone (the partial index `assets_deleted`).
    public func namesKeptInRecentlyDeleted() throws(CatalogError) -> Set<BytePath> {
        let rows = try connection.query(
            """
            SELECT trash_path, live_video_trash_path FROM assets
            WHERE deleted_at IS NOT NULL AND (trash_path IS NOT NULL OR live_video_trash_path IS NOT NULL)
            """
        ) { row in [row.isNull(0) ? nil : row.path(0), row.isNull(1) ? nil : row.path(1)] }
        return Set(rows.joined().compactMap { $0 })
    }

    /// Every asset, deleted ones included, in id order (for reconciling and `check`).
    public func allAssets() throws(CatalogError) -> [AssetRecord] {
        try selectAssets(AssetLookups.all, [])
    }

    public func setRollPath(_ rollPath: BytePath, of id: AssetID) throws(CatalogError) {
        try update("UPDATE assets SET roll_path = ? WHERE id = ?", [.path(rollPath), .integer(id)])
    }

    /// Marks the asset deleted at `time`; `trashPath` is where its bytes are kept, if anywhere.
    /// Its roll path stays on record (a restore asks for that name again) but no longer
    /// blocks a new file of that name: only live roll paths are unique.
    public func markDeleted(_ id: AssetID, at time: Double, trashPath: BytePath?) throws(CatalogError) {
        try update(
            "UPDATE assets SET deleted_at = ?, trash_path = ? WHERE id = ?",
            [.real(time), .path(trashPath), .integer(id)])
    }

    /// Clears the deletion and points the asset at `rollPath` again.
    public func markRestored(_ id: AssetID, rollPath: BytePath) throws(CatalogError) {
        try update(
            "UPDATE assets SET deleted_at = NULL, trash_path = NULL, roll_path = ? WHERE id = ?",
            [.path(rollPath), .integer(id)])
    }

    public func setFavorite(_ favorite: Bool, of id: AssetID) throws(CatalogError) {
        try update("UPDATE assets SET favorite = ? WHERE id = ?", [.bool(favorite), .integer(id)])
    }

    /// Hides the asset from every listing but the Hidden smart album, or shows it again.
    public func setHidden(_ hidden: Bool, of id: AssetID) throws(CatalogError) {
        try update("UPDATE assets SET hidden = ? WHERE id = ?", [.bool(hidden), .integer(id)])
    }

    /// Removes the row for good (purge after 30 days); the id is never reused.
    /// Its memberships go with it; its keep-mode sources stay seen.
    public func removeAsset(_ id: AssetID) throws(CatalogError) {
        try update("DELETE FROM assets WHERE id = ?", [.integer(id)])
    }

    /// Assets deleted before `time` (for the 30-day purge).
    public func assetsDeleted(before time: Double) throws(CatalogError) -> [AssetRecord] {
        try selectAssets(AssetLookups.deletedBefore, [.real(time)])
    }

    // MARK: Helpers

    /// The first row of one of `AssetLookups`.
    package func firstAsset(_ sql: String, _ values: [SQLiteValue]) throws(CatalogError) -> AssetRecord? {
        let path = connection.path
        return try connection.queryFirst(sql, values) { row throws(CatalogError) in
            try AssetRow.decode(row, path: path)
        }
    }

    package func selectAssets(_ sql: String, _ values: [SQLiteValue]) throws(CatalogError) -> [AssetRecord] {
        let path = connection.path
        return try connection.query(sql, values) { row throws(CatalogError) in
            try AssetRow.decode(row, path: path)
        }
    }

    /// One write statement in its own (or the caller's) transaction.
    package func update(_ sql: String, _ values: [SQLiteValue]) throws(CatalogError) {
        try write { () throws(CatalogError) in try connection.execute(sql, values) }
    }
}
