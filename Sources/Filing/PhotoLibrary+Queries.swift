import PhotoFilerCatalog
import PhotoFilerMediaTypes

/// What the command line and the gallery ask of a library, answered in one place.
extension PhotoLibrary {
    /// The album a user means by `name`: a user album first (its stored id), else
    /// the smart album of that name; nil when there is neither.
    public func album(named name: AlbumName) throws(FilingError) -> AlbumSelection? {
        let user = try filer.catalogCall { () throws(CatalogError) in try catalog.album(named: name.value) }
        if let user { return .user(user) }
        return SmartAlbum(rawValue: name.value).map(AlbumSelection.smart)
    }

    /// Assets newest first, as `list` shows them; `album` may be a user or a smart album.
    public func assets(
        album name: AlbumName?, media: MediaType?, sort: AssetQuery.Sort, limit: Int?, now: Double
    ) throws(FilingError) -> [AssetRecord] {
        var query = AssetQuery(mediaType: media, sort: sort, limit: limit, now: now)
        if let name {
            switch try album(named: name) {
            case .user(let user): query.album = user.id
            case .smart(let smart): query.smartAlbum = smart
            case nil: throw .noSuchAlbum(name.value)
            }
        }
        return try filer.catalogCall { () throws(CatalogError) in try catalog.assets(matching: query) }
    }

    /// The names of the user albums `id` is a member of.
    public func albumNames(of id: AssetID) throws(FilingError) -> [String] {
        try filer.catalogCall { () throws(CatalogError) in try catalog.albumNames(ofAsset: id) }
    }
}

/// A user album (found by its stored id) or a smart one.
public enum AlbumSelection: Sendable, Equatable {
    case user(AlbumRecord)
    case smart(SmartAlbum)
}
