extension Catalog {
    /// Records new content for an asset whose roll file changed on disk (repair only:
    /// the disk is the truth).
    package func setContent(of id: AssetID, hash: String, size: Int64) throws(CatalogError) {
        try update(
            "UPDATE assets SET hash = ?, size = ? WHERE id = ?", [.text(hash), .integer(size), .integer(id)])
    }

    /// Records new content for a Live Photo's paired video that changed on disk (repair only).
    package func setLiveVideoContent(of id: AssetID, hash: String, size: Int64) throws(CatalogError) {
        try update(
            "UPDATE assets SET live_video_hash = ?, live_video_size = ? WHERE id = ?",
            [.text(hash), .integer(size), .integer(id)])
    }
}
