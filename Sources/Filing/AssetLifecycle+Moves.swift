import PhotoFilerCatalog
import PhotoFilerSystem

/// Moves made by hand inside the library (SPEC "Deletion": a move is not a
/// deletion): a roll file moved within the Roll stays the same asset with the
/// same albums; an album entry moved into another album's folder leaves the
/// first album and joins the second.
extension AssetLifecycle {
    /// The roll file of `asset` is now at `rollPath` (relative): the new path is
    /// recorded, and every album entry that is a symbolic link is pointed at it
    /// (a hard link is the same inode wherever the roll file's name went). A Live
    /// Photo's video follows its still into its new folder.
    public func rollFileMoved(_ asset: AssetRecord, to rollPath: BytePath) throws(FilingError) {
        try filer.catalogCall { () throws(CatalogError) in
            try filer.catalog.setRollPath(rollPath, of: asset.id)
        }
        for (membership, album) in try activeMemberships(of: asset) {
            let entry = filer.layout.albumFolder(album).appending(membership.entryName)
            try filer.systemCall(entry) { () throws(SystemError) in
                guard try Sys.statusIfExists(entry)?.isSymbolicLink == true else { return }
                try filer.albums.repoint(membership.entryName, in: album, to: rollPath)
            }
        }
        try moveLiveVideo(of: asset, beside: rollPath)
    }

    /// SPEC: a Live Photo's video is kept in its still's folder. Linked there under a
    /// free name (durably), recorded, then its old name goes: a crash in between
    /// leaves a second name of the same file, never none. Nothing to do when the
    /// video went along (its folder was moved whole) or is elsewhere already gone.
    private func moveLiveVideo(of asset: AssetRecord, beside still: BytePath) throws(FilingError) {
        let folder = still.parent
        guard let video = asset.liveVideo?.rollPath, video.parent != folder else { return }
        let old = filer.layout.absolute(video)
        let target = filer.layout.absolute(folder)
        let name = try filer.systemCall(old) { () throws(SystemError) -> BytePath? in
            guard try Sys.statusIfExists(old)?.isRegularFile == true else { return nil }
            let name = try NameAllocator.hardLink(old, into: target, preferred: video.lastComponent)
            try Sys.syncDirectory(target)
            return name
        }
        guard let name else { return }
        try liveVideoMoved(asset, to: folder.appending(name))
        try filer.systemCall(old) { () throws(SystemError) in
            try Sys.unlinkIfPresent(old)
            try Sys.syncDirectory(old.parent)
        }
    }

    /// An album entry was renamed or moved: from `album`'s `entryName` to
    /// `newEntryName` in `destination` (nil when the new folder is no album). The
    /// asset leaves the first album and joins the second, in one transaction.
    public func albumEntryMoved(
        _ membership: MembershipRecord, to destination: AlbumRecord?, entryName newEntryName: BytePath
    ) throws(FilingError) {
        guard membership.isActive else { return }
        let now = filer.now()
        try filer.catalogCall { () throws(CatalogError) in
            try filer.catalog.write { () throws(CatalogError) in
                if destination?.id != membership.albumID {
                    try filer.catalog.endMembership(
                        asset: membership.assetID, album: membership.albumID, at: now)
                }
                if let destination {
                    try filer.catalog.addMembership(
                        asset: membership.assetID, album: destination.id, entryName: newEntryName, at: now)
                }
            }
        }
    }
}
