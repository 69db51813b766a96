import PhotoFilerSystem

extension Catalog {
    // MARK: Keep-mode sources

    /// True when this inbox path was filed before with exactly this size and mtime.
    public func hasSeenSource(path: BytePath, size: Int64, modificationNanoseconds: Int64)
        throws(CatalogError) -> Bool
    {
        try connection.queryFirst(
            "SELECT 1 FROM seen_sources WHERE path = ? AND size = ? AND mtime_ns = ?",
            [.path(path), .integer(size), .integer(modificationNanoseconds)]
        ) { _ in true } ?? false
    }

    /// Remembers an inbox path (replacing an older entry for the same path).
    ///
    /// The entry outlives its asset (the link is set to NULL on purge): a
    /// keep-mode file whose asset the user deleted must not be filed again.
    public func recordSource(path: BytePath, size: Int64, modificationNanoseconds: Int64, asset: AssetID)
        throws(CatalogError)
    {
        try update(
            """
            INSERT INTO seen_sources (path, size, mtime_ns, asset_id) VALUES (?, ?, ?, ?)
            ON CONFLICT (path) DO UPDATE SET
                size = excluded.size, mtime_ns = excluded.mtime_ns, asset_id = excluded.asset_id
            """, [.path(path), .integer(size), .integer(modificationNanoseconds), .integer(asset)])
    }
}
