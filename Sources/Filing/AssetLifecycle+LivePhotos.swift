import PhotoFilerCatalog
import PhotoFilerSystem

/// A Live Photo's video through deletion and restore: it follows its still.
extension AssetLifecycle {
    /// Only a Live Photo's video was removed from the Roll: the asset is a plain
    /// still again, and the video's album entries go.
    public func liveVideoRemoved(_ asset: AssetRecord) throws(FilingError) {
        guard !asset.isDeleted, asset.liveVideo?.rollPath != nil else { return }
        for (membership, album) in try filer.activeMemberships(of: asset.id) {
            guard let entry = membership.videoEntryName else { continue }
            try filer.systemCall(filer.layout.albumFolder(album)) { () throws(SystemError) in
                try filer.albums.unlinkEntry(entry, in: album)
            }
        }
        try filer.catalogCall { () throws(CatalogError) in try filer.catalog.detachLiveVideo(of: asset.id) }
    }

    /// A Live Photo's video was moved within the Roll: its new path is recorded and
    /// its symbolic album entries point there (hard links are the same inode).
    public func liveVideoMoved(_ asset: AssetRecord, to rollPath: BytePath) throws(FilingError) {
        try filer.catalogCall { () throws(CatalogError) in
            try filer.catalog.setLiveVideoLocation(of: asset.id, rollPath: rollPath, trashPath: nil)
        }
        try repointLiveVideoEntries(of: asset, to: rollPath)
    }

    /// Points the symbolic album entries of a Live Photo's video at `rollPath`.
    func repointLiveVideoEntries(of asset: AssetRecord, to rollPath: BytePath) throws(FilingError) {
        for (membership, album) in try filer.activeMemberships(of: asset.id) {
            guard let entryName = membership.videoEntryName else { continue }
            let entry = filer.layout.albumFolder(album).appending(entryName)
            try filer.systemCall(entry) { () throws(SystemError) in
                guard try Sys.statusIfExists(entry)?.isSymbolicLink == true else { return }
                try filer.albums.repoint(entryName, in: album, to: rollPath)
            }
        }
    }
}
