extension Catalog {
    /// Records new content for an asset whose roll file changed on disk (repair only).
    func setContent(of id: AssetID, hash: String, size: Int64) throws(CatalogError) {
        fatalError("to be written after the catalog lands")
    }
}
