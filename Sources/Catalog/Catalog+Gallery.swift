extension Catalog {
    /// One month of a timeline: `YYYY-MM` and how many matching assets were captured in it.
    public struct MonthCount: Sendable, Equatable {
        public var month: String
        public var count: Int
    }

    /// How many assets match `query` in each capture month, newest month first
    /// (the gallery's scrubber: first the months, then only the months in view).
    public func timeline(_ query: AssetQuery) throws(CatalogError) -> [MonthCount] {
        let (sql, values) = query.rows(
            selecting: "substr(\(AssetRefinements.captureDay), 1, 7) AS month, count(*)")
        return try connection.query(sql + " GROUP BY month ORDER BY month DESC", values) {
            MonthCount(month: $0.text(0), count: $0.int(1))
        }
    }

    /// One change to an asset, as the `asset_changes` triggers logged it.
    public struct AssetChange: Sendable, Equatable {
        public enum Kind: String, Sendable { case filed, deleted, changed }
        public var sequence: Int64
        public var asset: AssetID
        public var kind: Kind
    }

    /// The newest change's sequence number (0 when there is none).
    public func latestChange() throws(CatalogError) -> Int64 {
        try connection.queryFirst("SELECT coalesce(max(seq), 0) FROM asset_changes") { $0.int64(0) } ?? 0
    }

    /// The oldest change still logged (the log keeps at least the newest 4,096), nil when there is none.
    public func oldestChange() throws(CatalogError) -> Int64? {
        try connection.queryFirst("SELECT min(seq) FROM asset_changes") { $0.optionalInt64(0) } ?? nil
    }

    /// Changes after `sequence`, oldest first, at most `limit`.
    public func changes(after sequence: Int64, limit: Int) throws(CatalogError) -> [AssetChange] {
        try connection.query(
            "SELECT seq, asset_id, kind FROM asset_changes WHERE seq > ? ORDER BY seq LIMIT ?",
            [.integer(sequence), .int(limit)]
        ) { row in
            AssetChange(
                sequence: row.int64(0), asset: row.int64(1),
                kind: AssetChange.Kind(rawValue: row.text(2)) ?? .changed)
        }
    }
}

extension Catalog {
    /// Whether `asset` is, or ever was, in `album` (a share's events name only its own assets).
    public func everInAlbum(_ asset: AssetID, _ album: AlbumID) throws(CatalogError) -> Bool {
        try connection.queryFirst(
            "SELECT 1 FROM memberships WHERE asset_id = ? AND album_id = ?",
            [.integer(asset), .integer(album)]
        ) { _ in true } ?? false
    }

    /// Whether `asset` is a member of `album` now, neither deleted nor hidden (what a share may see).
    public func isVisibleMember(_ asset: AssetID, _ album: AlbumID) throws(CatalogError) -> Bool {
        try connection.queryFirst(
            """
            SELECT 1 FROM memberships m JOIN assets a ON a.id = m.asset_id
            WHERE m.asset_id = ? AND m.album_id = ? AND m.removed_at IS NULL AND a.deleted_at IS NULL
              AND a.hidden = 0
            """, [.integer(asset), .integer(album)]
        ) { _ in true } ?? false
    }
}
