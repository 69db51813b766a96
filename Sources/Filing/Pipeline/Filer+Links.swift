import PhotoFilerCatalog
import PhotoFilerSystem

/// The links of step 3, what a failure takes back, and the last step.
extension Filer {
    /// Links `bytes` into the Roll folder `folder` (relative) under `preferred` or a
    /// free variant; returns the roll path. The folder, and a new month folder's
    /// parents, are left to the group's step 4, which makes their entries durable
    /// with the links, before the catalog row.
    ///
    /// The folder is made when the link finds it missing, not looked for first:
    /// all but a month's first file find it there, and are spared a `stat`.
    func linkIntoRoll(
        _ bytes: BytePath, preferred: BytePath, folder: BytePath, source: BytePath,
        folders: inout FolderSyncer
    ) throws(FilingError) -> BytePath {
        try refuseUnmountedDisk(rollFolder: folder, source: source)
        let absoluteFolder = layout.absolute(folder)
        let placed: BytePath
        do {
            placed = try systemCall(source) { () throws(SystemError) -> BytePath in
                try NameAllocator.allocate(preferred: preferred) { (candidate) throws(SystemError) in
                    let name = absoluteFolder.appending(candidate)
                    do throws(SystemError) {
                        try Sys.link(bytes, to: name)
                    } catch  where error.errno == .noSuchFile {
                        // The folder is missing, or the bytes are gone (the second link says which).
                        if try Sys.makeDirectories(absoluteFolder) {
                            folders.touch(absoluteFolder.parent)
                            folders.touch(absoluteFolder.parent.parent)
                        }
                        try Sys.link(bytes, to: name)
                    }
                }
            }
        } catch .system(let error) where error.errno == .crossDevice {
            // `bytes` is on the library's disk (a source elsewhere was copied into `.photofiler/tmp`).
            throw .rollFolderOnAnotherDisk(path: source, folder: absoluteFolder)
        }
        folders.touch(absoluteFolder)
        return folder.appending(placed)
    }

    /// Links the asset's roll file, and a Live Photo's paired video, into the album
    /// (as the request asks, or as `kind`); each entry is noted in `item` as soon as
    /// it exists, so an undo finds it.
    func linkResources(
        of asset: AssetRecord, into album: AlbumRecord, kind: LinkKind? = nil, item: inout PipelineItem,
        folders: inout FolderSyncer
    ) throws(FilingError) {
        try refuseUnmountedDisk(album: album, source: item.source)
        folders.touch(layout.albumFolder(album))
        let kind = kind ?? item.request.link
        let still = try systemCall(item.source) { () throws(SystemError) in
            try albums.link(rollPath: asset.rollPath, into: album, kind: kind)
        }
        item.entries.append(AlbumEntry(album: album, still: still, video: nil))
        if let videoPath = asset.liveVideo?.rollPath {
            item.entries[item.entries.count - 1].video = try systemCall(item.source) {
                () throws(SystemError) in
                try albums.link(rollPath: videoPath, into: album, kind: kind)
            }
        }
    }

    /// A Live Photo already in the album whose video entry is missing gets it.
    func linkMissingVideo(
        of asset: AssetRecord, into album: AlbumRecord, item: inout PipelineItem, folders: inout FolderSyncer
    ) throws(FilingError) {
        guard let videoPath = asset.liveVideo?.rollPath else { return }
        try refuseUnmountedDisk(album: album, source: item.source)
        folders.touch(layout.albumFolder(album))
        let kind = item.request.link
        let video = try systemCall(item.source) { () throws(SystemError) in
            try albums.link(rollPath: videoPath, into: album, kind: kind)
        }
        item.entries.append(AlbumEntry(album: album, still: nil, video: video))
    }

    /// Takes back every link the item made (best effort: the start-up reconcile adopts
    /// or clears what is left). The folders stay noted in `folders`, to be synced.
    func takeBack(_ item: PipelineItem, folders: inout FolderSyncer) {
        var names: [BytePath] = []
        for entry in item.entries {
            for name in [entry.still, entry.video].compactMap({ $0 }) {
                names.append(layout.albumFolder(entry.album).appending(name))
            }
        }
        if item.plan.placesBytes, let rollPath = item.rollPath { names.append(layout.absolute(rollPath)) }
        if let video = item.restoredVideo { names.append(video.rollFile) }
        for name in names {
            folders.touch(name.parent)
            do {
                try Sys.unlinkIfPresent(name)
            } catch {
                log.warning(
                    "'\(name.display)' was linked for a filing that failed and could not be removed (\(error.errno.message)); 'photofiler check --repair' adopts or clears it."
                )
            }
        }
    }

    /// The group could not be made durable: its links go, the folders they were in
    /// are synced (so the removals are durable too), and each of its files fails.
    func undo(_ items: inout [PipelineItem], folders: inout FolderSyncer, error: FilingError) {
        for position in items.indices where items[position].isActive {
            takeBack(items[position], folders: &folders)
            items[position].failure = error
        }
        if let failure = folders.syncAll() {
            log.warning("\(FilingError.from(failure, library: layout, source: failure.path ?? layout.root))")
        }
    }

    /// Move mode's last step, once the asset is durable: the inbox copy goes, if its
    /// name still holds the file that was filed. An app may have saved that name
    /// again since the inspection (a rename over it), or rewritten the file in place:
    /// the new bytes stay and are filed in their turn (the rename or the write was an
    /// event). A file the Roll links itself goes whatever it holds now: its bytes are
    /// the Roll's. A failure here loses nothing (the file is filed), so it is a warning.
    ///
    /// Returns false when the file stayed because it changed: a change that makes no
    /// event the daemon files on (`touch`, an app setting the time it downloaded the
    /// file) would otherwise leave it in the inbox until the next rescan.
    func removeSource(_ item: PipelineItem) -> Bool {
        let source = item.source
        do {
            if let inspected = item.status {
                let rollHoldsSource = item.linksSource && item.rollPath != nil
                guard let there = try Sys.statusIfExists(source) else { return true }
                guard rollHoldsSource ? there.isSameFile(as: inspected) : there.isUnchanged(since: inspected)
                else {
                    log.debug("'\(source.display)' was saved again while it was filed; the new file stays.")
                    return false
                }
            }
            try Sys.unlinkIfPresent(source)
        } catch {
            log.warning(
                "'\(source.display)' was filed but could not be removed from its inbox (\(error.errno.message)); remove it by hand."
            )
        }
        return true
    }

    /// A restore is recorded: its Recently Deleted files go (the still's, and a Live
    /// Photo's video's).
    func removeRecentlyDeletedFiles(of asset: AssetRecord, _ item: PipelineItem) {
        let files = [asset.trashPath.map { layout.absolute($0) }, item.restoredVideo?.trashFile].compactMap {
            $0
        }
        for file in files {
            do {
                try Sys.unlinkIfPresent(file)
            } catch {
                log.warning(
                    "'\(file.display)' was restored but could not be removed from Recently Deleted (\(error.errno.message)); remove it by hand."
                )
            }
        }
    }
}

/// The folders a group touched, each synced once.
package struct FolderSyncer {
    private var order: [BytePath] = []
    private var seen: Set<BytePath> = []

    package init() {}

    package mutating func touch(_ folder: BytePath) {
        if seen.insert(folder).inserted { order.append(folder) }
    }

    /// The folders touched so far, in order.
    package var folders: [BytePath] { order }

    /// Syncs every touched folder; the first failure, if any.
    package mutating func syncAll() -> SystemError? {
        for folder in order {
            do {
                try Sys.syncDirectory(folder)
            } catch {
                return error
            }
        }
        order.removeAll()
        seen.removeAll()
        return nil
    }
}
