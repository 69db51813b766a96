import PhotoFilerCatalog

extension AssetQuery {
    /// Narrows the query to the album a user names: a user album first, else a
    /// smart one. False when there is no album of that name.
    public mutating func select(albumNamed name: String, in catalog: Catalog) throws(CatalogError) -> Bool {
        if let user = try catalog.album(named: name) {
            album = user.id
            return true
        }
        guard let smart = SmartAlbum(rawValue: name) else { return false }
        smartAlbum = smart
        return true
    }
}

extension AssetJSON {
    /// The asset with its album names, read from the catalog.
    public static func load(_ asset: AssetRecord, catalog: Catalog, layout: LibraryLayout)
        throws(CatalogError)
        -> AssetJSON
    {
        AssetJSON(asset, albums: try catalog.albumNames(ofAsset: asset.id), layout: layout)
    }
}
