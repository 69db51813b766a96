import PhotoFilerCatalog
import PhotoFilerMediaTypes

/// What the command line and the gallery ask of a library, answered in one place.
extension PhotoLibrary {
    /// The album a user means by `name`: a user album first (its stored id), else
    /// the smart album of that name; nil when there is neither.
    public func album(named name: AlbumName) throws(FilingError) -> AlbumSelection? {
        try filer.catalogCall { () throws(CatalogError) in try AlbumSelection.find(name, in: catalog) }
    }

    /// Assets newest first, as `list` shows them; `album` may be a user or a smart album.
    /// `livePhotosOnly`: Live Photos and motion photos only (`--media live`).
    public func assets(
        album name: AlbumName?, media: MediaType?, livePhotosOnly: Bool = false, sort: AssetQuery.Sort,
        limit: Int?, now: Double
    ) throws(FilingError) -> [AssetRecord] {
        var query = AssetQuery(mediaType: media, sort: sort, limit: limit, now: now)
        if livePhotosOnly { query.refinements.subtype = MediaInfo.liveSubtype }
        if let name {
            guard let selection = try album(named: name) else { throw .noSuchAlbum(name.value) }
            query.narrow(to: selection)
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
