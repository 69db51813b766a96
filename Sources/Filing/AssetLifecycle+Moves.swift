import PhotoFilerCatalog
import PhotoFilerSystem

/// Moves made by hand inside the library (photofiler(1) "Deletion": a move is not a
/// deletion): a roll file moved within the Roll stays the same asset with the
/// same albums; an album entry moved into another album's folder leaves the
/// first album and joins the second.
extension AssetLifecycle {
    /// The roll file of `asset` is now at `rollPath` (relative): the new path is
    /// recorded, and every album entry that is a symbolic link is pointed at it
    /// (a hard link is the same inode wherever the roll file's name went). A Live
    /// Photo's video follows its still into its new folder (photofiler(1) "Live Photos": the video is kept
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
    ///
    /// A Live Photo is one asset in each album: its video entry goes along. It is
    /// linked into the destination first (durably), recorded with the move, and only
    /// then does the old one go, so the old album never keeps a half that a reconcile
    /// would read as the asset still there.
    public func albumEntryMoved(
        _ membership: MembershipRecord, to destination: AlbumRecord?, entryName newEntryName: BytePath
    ) throws(FilingError) {
        guard membership.isActive else { return }
        let leaves = destination?.id != membership.albumID
        let video = leaves ? try videoEntryFollowing(membership, to: destination, still: newEntryName) : nil
        let now = filer.now()
        try filer.catalogCall { () throws(CatalogError) in
            try filer.catalog.write { () throws(CatalogError) in
                if leaves {
                    try filer.catalog.endMembership(
                        asset: membership.assetID, album: membership.albumID, at: now)
                }
                if let destination {
                    try filer.catalog.addMembership(
                        asset: membership.assetID, album: destination.id, entryName: newEntryName, at: now)
                    if let video {
                        try filer.catalog.setVideoEntry(
                            video.new, asset: membership.assetID, album: destination.id)
                    }
                }
            }
        }
        if let video, let old = video.old {
            try filer.systemCall(old) { () throws(SystemError) in
                try Sys.unlinkIfPresent(old)
                try Sys.syncDirectory(old.parent)
            }
        }
    }

    /// The video entry of a Live Photo whose still entry moved out of its album: its
    /// old name (absolute, to remove once the move is recorded; nil when it is not
    /// there) and its name in the destination, if any. The user may have moved it
    /// along already (a file manager moving both): that entry is taken as it is.
    /// Otherwise it is linked as the moved still entry is (hard, or a symbolic link
    /// when the still's is one).
    private func videoEntryFollowing(
        _ membership: MembershipRecord, to destination: AlbumRecord?, still: BytePath
    ) throws(FilingError) -> (old: BytePath?, new: BytePath?)? {
        guard let entry = membership.videoEntryName,
            let album = try filer.catalogCall({ () throws(CatalogError) in
                try catalog.album(id: membership.albumID)
            }),
            let videoPath = try existing(membership.assetID).liveVideo?.rollPath
        else { return nil }
        let videoFile = layout.absolute(videoPath)
        // A video gone from the Roll is a removal of its own (the asset becomes a still):
        // the move goes on without it.
        guard let rollVideo = try filer.statusIfExists(videoFile) else { return nil }
        // Removed once the move is recorded only if it is the video still (the user may
        // have moved it along, and put another file under its name).
        let oldEntry = layout.albumFolder(album).appending(entry)
        let oldIsVideo = try filer.systemCall(oldEntry) { () throws(SystemError) in
            try Sys.statusIfExists(oldEntry, followLinks: true)?.isSameFile(as: rollVideo) == true
        }
        let old = oldIsVideo ? oldEntry : nil
        guard let destination else { return (old, nil) }
        let folder = layout.albumFolder(destination)
        let new = try filer.systemCall(folder) { () throws(SystemError) -> BytePath in
            if let there = try Sys.statusIfExists(folder.appending(entry), followLinks: true),
                there.isSameFile(as: rollVideo)
            {
                return entry
            }
            let symbolic = try Sys.statusIfExists(folder.appending(still))?.isSymbolicLink == true
            let name = try filer.albums.link(
                rollPath: videoPath, into: destination, kind: symbolic ? .symbolic : .hard)
            try Sys.syncDirectory(folder)
            return name
        }
        return (old, new)
    }
}
