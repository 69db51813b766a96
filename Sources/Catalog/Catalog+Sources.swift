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

    /// The hash of the bytes this inbox path had when it was last filed, if it was.
    public func seenSourceHash(path: BytePath) throws(CatalogError) -> String? {
        try connection.queryFirst("SELECT hash FROM seen_sources WHERE path = ?", [.path(path)]) {
            $0.isNull(0) ? nil : $0.text(0)
        } ?? nil
    }

    /// Remembers an inbox path and the hash of its bytes (replacing an older entry
    /// for the same path).
    ///
    /// The entry outlives its asset (the link is set to NULL on purge): a
    /// keep-mode file whose asset the user deleted must not be filed again, even
    /// when a re-sync gives it new times (the hash says its bytes are the same).
    public func recordSource(
        path: BytePath, size: Int64, modificationNanoseconds: Int64, asset: AssetID, hash: String
    ) throws(CatalogError) {
        try update(
            """
            INSERT INTO seen_sources (path, size, mtime_ns, asset_id, hash) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (path) DO UPDATE SET
                size = excluded.size, mtime_ns = excluded.mtime_ns, asset_id = excluded.asset_id,
                hash = excluded.hash
            """,
            [.path(path), .integer(size), .integer(modificationNanoseconds), .integer(asset), .text(hash)])
    }

    /// New times for an inbox path whose bytes are unchanged, so the next look skips it unread.
    public func touchSource(path: BytePath, size: Int64, modificationNanoseconds: Int64) throws(CatalogError)
    {
        try update(
            "UPDATE seen_sources SET size = ?, mtime_ns = ? WHERE path = ?",
            [.integer(size), .integer(modificationNanoseconds), .path(path)])
    }
}
