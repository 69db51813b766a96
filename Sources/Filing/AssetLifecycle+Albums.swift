import PhotoFilerCatalog

extension AssetLifecycle {
    /// The albums `asset` is a member of now, each with its membership (entry names).
    /// The one walk every lifecycle step that touches album entries takes.
    func activeMemberships(of asset: AssetRecord) throws(FilingError) -> [(
        membership: MembershipRecord, album: AlbumRecord
    )] {
        let memberships = try filer.catalogCall { () throws(CatalogError) in
            try filer.catalog.memberships(ofAsset: asset.id)
        }
        var result: [(membership: MembershipRecord, album: AlbumRecord)] = []
        for membership in memberships where membership.isActive {
            let album = try filer.catalogCall { () throws(CatalogError) in
                try filer.catalog.album(id: membership.albumID)
            }
            if let album { result.append((membership, album)) }
        }
        return result
    }
}
