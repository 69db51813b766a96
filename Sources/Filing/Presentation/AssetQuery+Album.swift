import PhotoFilerCatalog

extension AlbumSelection {
    /// The album a user means by `name`: a user album first (its stored id), else
    /// the smart album of that name; nil when there is neither.
    public static func find(_ name: AlbumName, in catalog: Catalog) throws(CatalogError) -> AlbumSelection? {
        if let user = try catalog.album(named: name.value) { return .user(user) }
        return SmartAlbum(rawValue: name.value).map(AlbumSelection.smart)
    }
}

extension AssetQuery {
    /// Narrows the query to one album.
    public mutating func narrow(to selection: AlbumSelection) {
        switch selection {
        case .user(let user): album = user.id
        case .smart(let smart): smartAlbum = smart
        }
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
