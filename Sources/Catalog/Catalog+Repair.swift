extension Catalog {
    /// Records new content for an asset whose roll file changed on disk (repair only:
    /// the disk is the truth).
    package func setContent(of id: AssetID, hash: String, size: Int64) throws(CatalogError) {
        try update(
            "UPDATE assets SET hash = ?, size = ? WHERE id = ?", [.text(hash), .integer(size), .integer(id)])
    }
}
