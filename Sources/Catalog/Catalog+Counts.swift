extension Catalog {
    /// Assets in the Roll (not in Recently Deleted), for `status`.
    public func liveAssetCount() throws(CatalogError) -> Int {
        try connection.queryFirst("SELECT count(*) FROM assets WHERE deleted_at IS NULL", []) { $0.int(0) }
            ?? 0
    }

    /// User albums, for `status`.
    public func userAlbumCount() throws(CatalogError) -> Int {
        try connection.queryFirst("SELECT count(*) FROM albums", []) { $0.int(0) } ?? 0
    }
}
