import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Makes the two halves of an iPhone Live Photo one asset (photofiler(1) "Live Photos"):
/// whichever was filed first, the still keeps its id, the video moves beside it in
/// the Roll and into every album either half is in, and the video's own asset is
/// retired. Pairing looks at the content identifier only, never at file names.
///
/// Order, as for filing: the links first (the video beside the still, both entries
/// in every album), each folder synced; then one transaction; then the old names
/// go. A crash before the commit leaves two assets that the next start-up pairs,
/// reusing the links already made (never a second name for the video); a crash
/// after it leaves the video's old name, which the start-up's adoption removes.
public struct LivePhotoPairing {
    package let filer: Filer
    private var layout: LibraryLayout { filer.layout }
    private var catalog: Catalog { filer.catalog }

    public init(filer: Filer) { self.filer = filer }

    /// Pairs every still and video whose identifier matches and that are still apart
    /// (after a crash, or a catalog rebuilt from the files). Returns how many.
    @discardableResult
    public func pairWaiting() throws(FilingError) -> Int {
        let identifiers = try filer.catalogCall { () throws(CatalogError) in
            try catalog.identifiersWaitingToPair()
        }
        var paired = 0
        for identifier in identifiers where try pair(contentIdentifier: identifier) != nil { paired += 1 }
        return paired
    }

    /// Pairs the unpaired still and the lone video with this identifier, when both
    /// are filed; returns the still's asset as it now is.
    @discardableResult
    public func pair(contentIdentifier: String) throws(FilingError) -> AssetRecord? {
        guard
            let still = try filer.catalogCall({ () throws(CatalogError) in
                try catalog.unpairedStill(contentIdentifier: contentIdentifier)
            }),
            let video = try filer.catalogCall({ () throws(CatalogError) in
                try catalog.loneVideo(contentIdentifier: contentIdentifier)
            })
        else { return nil }
        let oldVideoFile = layout.absolute(video.rollPath)

        // 1. The video beside the still.
        let folder = still.rollPath.parent
        var videoPath = video.rollPath
        let moves = video.rollPath.parent != folder
        if moves {
            // A name an attempt cut short by a crash made is reused (issue 14).
            let name = try filer.systemCall(oldVideoFile) { () throws(SystemError) -> BytePath in
                let name = try NameAllocator.hardLink(
                    oldVideoFile, into: layout.absolute(folder), preferred: video.rollPath.lastComponent)
                try Sys.syncDirectory(layout.absolute(folder))
                return name
            }
            videoPath = folder.appending(name)
        }

        // 2. Both entries in every album either half is in.
        var albums: [AlbumID: (album: AlbumRecord, still: MembershipRecord?, video: MembershipRecord?)] = [:]
        for (membership, album) in try filer.activeMemberships(of: still.id) {
            albums[album.id, default: (album, nil, nil)].still = membership
        }
        for (membership, album) in try filer.activeMemberships(of: video.id) {
            albums[album.id, default: (album, nil, nil)].video = membership
        }
        var plan: [(album: AlbumRecord, entry: BytePath?, videoEntry: BytePath)] = []
        var staleEntries: [(AlbumRecord, BytePath)] = []
        for (album, stillEntry, videoEntry) in albums.keys.sorted().compactMap({ albums[$0] }) {
            let kind = try linkKind(of: stillEntry?.entryName ?? videoEntry?.entryName, in: album)
            let source = layout.albumFolder(album)
            let newStillEntry =
                stillEntry == nil
                ? try filer.systemCall(source) { () throws(SystemError) in
                    try filer.albums.link(rollPath: still.rollPath, into: album, kind: kind)
                } : nil
            let linkedVideo: BytePath
            if let videoEntry, !moves || kind == .hard {
                // A hard link is the video itself, wherever its roll name goes: kept, so
                // no entry is ever stale.
                linkedVideo = videoEntry.entryName
            } else {
                linkedVideo = try filer.systemCall(source) { () throws(SystemError) in
                    try filer.albums.link(rollPath: videoPath, into: album, kind: kind)
                }
                if let videoEntry { staleEntries.append((album, videoEntry.entryName)) }
            }
            try filer.systemCall(source) { () throws(SystemError) in try Sys.syncDirectory(source) }
            plan.append((album, newStillEntry, linkedVideo))
        }

        // 3. One transaction: the still carries the video, the video's asset is retired.
        let now = filer.now()
        let record = LiveVideoRecord(
            rollPath: videoPath, hash: video.hash, size: video.size, duration: video.info.duration,
            originalName: video.originalName)
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.write { () throws(CatalogError) in
                try catalog.retireAsset(video.id, joining: still.id)
                try catalog.attachLiveVideo(record, to: still.id)
                for item in plan {
                    if let entry = item.entry {
                        try catalog.addMembership(
                            asset: still.id, album: item.album.id, entryName: entry, at: now)
                    }
                    try catalog.setVideoEntry(item.videoEntry, asset: still.id, album: item.album.id)
                }
            }
        }

        // 4. The old names go.
        for (album, entry) in staleEntries { try? filer.albums.unlinkEntry(entry, in: album) }
        if moves {
            try? Sys.unlinkIfPresent(oldVideoFile)
            try? Sys.syncDirectory(oldVideoFile.parent)
        }
        // The lone video's thumbnails: the pair is shown by its still's.
        ThumbnailFiles(layout: layout).remove(hash: video.hash)
        filer.log.info(
            "'\(layout.absolute(still.rollPath).display)' and '\(layout.absolute(videoPath).display)' are one Live Photo, asset \(still.id) (the video's asset \(video.id) is retired)."
        )
        return try filer.catalogCall { () throws(CatalogError) in try catalog.asset(id: still.id) }
    }

    /// The kind of link the album already uses for this asset (hard unless it is a
    /// symbolic link), so both entries of a Live Photo are alike. An entry gone is
    /// made anew as a hard link; one that cannot be looked at fails the pairing,
    /// which is made again later (the halves stay filed on their own).
    private func linkKind(of entry: BytePath?, in album: AlbumRecord) throws(FilingError) -> LinkKind {
        guard let entry else { return .hard }
        let path = layout.albumFolder(album).appending(entry)
        let status = try filer.statusIfExists(path)
        return status?.isSymbolicLink == true ? .symbolic : .hard
    }
}

extension Filer {
    /// After a file is filed: when it is one half of a Live Photo whose other half
    /// is already filed, the two become one asset and the result names it. A failure
    /// to pair costs nothing: the half stays filed on its own and is paired at the
    /// next start-up.
    package func pairingLivePhoto(_ result: FilingResult) -> FilingResult {
        guard let asset = result.asset, !asset.isDeleted, asset.liveVideo == nil,
            let identifier = asset.info.live.contentIdentifier
        else { return result }
        do {
            guard let paired = try LivePhotoPairing(filer: self).pair(contentIdentifier: identifier) else {
                // Paired already, when its still's result came first in the group: the
                // video's own asset is retired, and the Live Photo is what was filed.
                guard asset.info.mediaType == .video,
                    try catalogCall({ () throws(CatalogError) in try catalog.asset(id: asset.id) }) == nil,
                    let still = try catalogCall({ () throws(CatalogError) in
                        try catalog.asset(liveVideoHash: asset.hash)
                    })
                else { return result }
                var result = result
                result.asset = still
                result.pairedVideoPath = still.liveVideo?.rollPath
                return result
            }
            var result = result
            result.asset = paired
            if asset.info.mediaType == .video { result.pairedVideoPath = paired.liveVideo?.rollPath }
            return result
        } catch {
            log.warning("\(error.description) The Live Photo is paired at the next start-up.")
            return result
        }
    }
}
