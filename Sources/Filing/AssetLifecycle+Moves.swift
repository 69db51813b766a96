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
    /// Photo's video follows its still into its new folder (SPEC: the video is kept
    /// in its still's folder).
    ///
    /// The video is linked beside the still before anything is recorded, and both
    /// new paths are recorded at once; only then does the video's old name go. A
    /// crash before the record leaves the still's move to be found again (the
    /// video's new name, the same file, is then taken as it is); one after it
    /// leaves the old name, a second name of the same file, which the reconcile
    /// removes. Never none, and never a video left in the old folder.
    public func rollFileMoved(_ asset: AssetRecord, to rollPath: BytePath) throws(FilingError) {
        let video = try linkLiveVideo(of: asset, beside: rollPath)
        try filer.catalogCall { () throws(CatalogError) in
            try filer.catalog.write { () throws(CatalogError) in
                try filer.catalog.setRollPath(rollPath, of: asset.id)
                if let video {
                    try filer.catalog.setLiveVideoLocation(of: asset.id, rollPath: video.new, trashPath: nil)
                }
            }
        }
        for (membership, album) in try filer.activeMemberships(of: asset.id) {
            let entry = filer.layout.albumFolder(album).appending(membership.entryName)
            try filer.systemCall(entry) { () throws(SystemError) in
                guard try Sys.statusIfExists(entry)?.isSymbolicLink == true else { return }
                try filer.albums.repoint(membership.entryName, in: album, to: rollPath)
            }
        }
        guard let video else { return }
        try repointLiveVideoEntries(of: asset, to: video.new)
        try filer.systemCall(video.old) { () throws(SystemError) in
            try Sys.unlinkIfPresent(video.old)
            try Sys.syncDirectory(video.old.parent)
        }
    }

    /// Links a Live Photo's video into the folder of its still's new path `still`,
    /// durably: its old name (absolute) and its new path (relative). Nil when the
    /// video went along (its folder was moved whole) or is gone from where it was.
    private func linkLiveVideo(of asset: AssetRecord, beside still: BytePath) throws(FilingError)
        -> (old: BytePath, new: BytePath)?
    {
        let folder = still.parent
        guard let video = asset.liveVideo?.rollPath, video.parent != folder else { return nil }
        let old = filer.layout.absolute(video)
        let target = filer.layout.absolute(folder)
        let name = try filer.systemCall(old) { () throws(SystemError) -> BytePath? in
            guard try Sys.statusIfExists(old)?.isRegularFile == true else { return nil }
            let name = try NameAllocator.hardLink(old, into: target, preferred: video.lastComponent)
            try Sys.syncDirectory(target)
            return name
        }
        return name.map { (old, folder.appending($0)) }
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
