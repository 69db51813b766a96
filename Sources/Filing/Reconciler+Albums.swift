import PhotoFilerCatalog
import PhotoFilerSystem

/// What the album side of a comparison needs and leaves behind.
struct AlbumComparison {
    let walk: FolderWalk
    let stamps: [BytePath: FolderStamp]
    /// Every album folder is read (`check`): the stamps only tell on which device each was.
    var readEvery = false
    /// `Albums/NAME` → how it was seen.
    var folders: [BytePath: FolderWalk.Look] = [:]
    var newStamps: [FolderStamp] = []
    /// Roll file inode → roll path, for hard-linked entries that no membership
    /// names: made on first need (none on a quiet start-up).
    var rollByInode: [UInt64: BytePath]?
}

extension Reconciler {
    /// Album folders against the memberships: entries without a membership (or
    /// leading to no roll asset), memberships without an entry. An album folder
    /// unchanged since its stamp is not read.
    func albumDifferences(_ state: inout AlbumComparison, verifyTargets: Bool) throws(FilingError)
        -> [Difference]
    {
        var result: [Difference] = []
        let albums = try filer.catalogCall { () throws(CatalogError) in try catalog.albums() }
        let albumsByFolder = Dictionary(albums.map { ($0.folderName, $0) }, uniquingKeysWith: { a, _ in a })
        let (folders, albumsDevice) = try filer.systemCall(layout.albums) { () throws(SystemError) in
            (try Sys.listDirectory(layout.albums), try Sys.status(layout.albums).device)
        }
        for folder in folders.map(\.name).sorted() {
            let folderPath = layout.albums.appending(folder)
            let relativeFolder = LibraryLayout.albumsFolderName.appending(folder)
            // Told, and its last stamp kept (the reconcile stores it untrusted): the next
            // comparison still knows the folder, and on which device it was.
            func couldNotLook(_ reason: LookFailure) {
                result.append(.couldNotLook(path: relativeFolder, reason: reason))
                if let stamp = state.stamps[relativeFolder] { state.newStamps.append(stamp) }
            }
            let folderStatus: FileStatus?
            do {
                folderStatus = try Sys.statusIfExists(folderPath)
            } catch {
                couldNotLook(.system(error.errno))
                continue
            }
            guard let folderStatus, folderStatus.isDirectory else { continue }
            if let stamp = state.stamps[relativeFolder],
                try isDiskNotMounted(
                    folderPath, status: folderStatus, stamp: stamp, albumsDevice: albumsDevice,
                    album: albumsByFolder[folder])
            {
                couldNotLook(.notMounted)
                continue
            }
            let seen = FolderWalk.look(
                at: relativeFolder, status: folderStatus,
                stamp: state.readEvery ? nil : state.stamps[relativeFolder], clock: clock())
            if seen.unchanged {
                state.folders[relativeFolder] = .unchanged
                state.newStamps.append(seen.stamp)
                continue
            }
            let directory: FileDescriptor
            do {
                directory = try Sys.openDirectory(folderPath)
            } catch  where error.errno == .noSuchFile {
                continue
            } catch {
                // Its memberships stand: an album that cannot be read is not empty.
                couldNotLook(.system(error.errno))
                continue
            }
            defer { directory.close() }
            let read = try differences(
                in: directory, folder: folder, album: albumsByFolder[folder], state: &state,
                verifyTargets: verifyTargets)
            guard let found = read.differences else {
                couldNotLook(.system(read.failure ?? .ioError))
                continue
            }
            state.folders[relativeFolder] = .read
            state.newStamps.append(seen.stamp)
            result += found
        }
        // Albums whose folder is gone entirely.
        let folderNames = Set(folders.map(\.name))
        for album in albums where !folderNames.contains(album.folderName) {
            var gone: [(AssetID, BytePath)] = []
            try filer.catalogCall { () throws(CatalogError) in
                try catalog.forEachActiveEntry(inAlbum: album.id) { entry, _, asset, _, _ in
                    gone.append((asset, entry))
                }
            }
            for (asset, entry) in gone.sorted(by: { $0.0 < $1.0 }) {
                result.append(.membershipWithoutLink(asset: asset, album: album.name, entryName: entry))
            }
        }
        return result
    }

    /// An album folder stamped on another device than `Albums/` is on now, and now
    /// empty on the device of `Albums/`, while its album has members: the disk mounted
    /// there is not, and the memberships stand (photofiler(1) "Deletion"). (`Albums/` has no
    /// stamp of its own, so a library moved whole to another disk with an album's
    /// entries all removed meanwhile is taken for this too: removing the empty folder
    /// ends its memberships, as the sentence says.)
    private func isDiskNotMounted(
        _ folderPath: BytePath, status: FileStatus, stamp: FolderStamp, albumsDevice: UInt64,
        album: AlbumRecord?
    ) throws(FilingError) -> Bool {
        guard let album, stamp.device != albumsDevice, status.device == albumsDevice else { return false }
        do {
            guard try Sys.listDirectory(folderPath).isEmpty else { return false }
        } catch {
            return false  // not proven empty: the read that follows tells why it could not look
        }
        var hasMembers = false
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.forEachActiveEntry(inAlbum: album.id) { _, _, _, _, _ in hasMembers = true }
        }
        return hasMembers
    }

    /// One album folder read entry by entry against its album's active memberships;
    /// no differences but the reason when it could not be read to the end, or an
    /// entry of it could not be looked at (its memberships then stand, as for an
    /// album that cannot be listed).
    private func differences(
        in directory: FileDescriptor, folder: BytePath, album: AlbumRecord?, state: inout AlbumComparison,
        verifyTargets: Bool
    ) throws(FilingError) -> (differences: [Difference]?, failure: Errno?) {
        let folderPath = layout.albums.appending(folder)
        // Entry name → asset, for the album's live members (stills and Live Photo
        // videos); with targets verified, also the roll file each must lead to.
        var stills: [BytePath: Member] = [:]
        var videos: [BytePath: Member] = [:]
        var members = Set<AssetID>()
        if let album {
            try filer.catalogCall { () throws(CatalogError) in
                try catalog.forEachActiveEntry(inAlbum: album.id) {
                    entry, video, asset, rollPath, videoPath in
                    stills[entry] = Member(
                        asset: asset,
                        target: verifyTargets ? state.walk.rollFiles.index(forKey: rollPath) : nil)
                    if let video {
                        videos[video] = Member(
                            asset: asset,
                            target: verifyTargets
                                ? videoPath.flatMap { state.walk.rollFiles.index(forKey: $0) } : nil)
                    }
                    members.insert(asset)
                }
            }
        }
        var found: [Difference] = []
        var failure: FilingError?
        var entryLookFailure: Errno?
        // Made on first need: the entries of deleted members a deletion may have left.
        var deletedMembers: [BytePath: (asset: AssetID, keptAt: BytePath?)]?
        do {
            try Sys.forEachEntry(in: directory, path: folderPath) { entry in
                let name = entry.name
                // A member's entry is taken as it is, unless targets are verified.
                let member = stills.removeValue(forKey: name) ?? videos[name]
                // A dot file that is no member's entry is a file manager's (`.directory`).
                if member == nil, LibraryLayout.isForeignName(name) { return true }
                if member != nil, !verifyTargets { return true }
                do throws(FilingError) {
                    if let member, let target = member.target,
                        try leads(entry, of: folderPath, in: directory, to: target, state: &state)
                    {
                        return true
                    }
                    let entryPath = folderPath.appending(name)
                    guard let (asset, isVideo) = try asset(behind: entryPath, in: directory, state: &state)
                    else {
                        if let album, deletedMembers == nil {
                            deletedMembers = try filer.catalogCall { () throws(CatalogError) in
                                try catalog.entriesOfDeletedMembers(inAlbum: album.id)
                            }
                        }
                        if let deleted = deletedMembers?[name],
                            try leftByDeletion(entryPath, in: directory, keptAt: deleted.keptAt)
                        {
                            found.append(
                                .deletedAssetEntry(asset: deleted.asset, albumFolder: folder, entryName: name)
                            )
                        } else {
                            found.append(.strayAlbumEntry(albumFolder: folder, entryName: name))
                        }
                        return true
                    }
                    if member?.asset == asset.id { return true }
                    if isVideo {
                        found.append(
                            .videoLinkWithoutRecord(asset: asset.id, albumFolder: folder, entryName: name))
                    } else if !members.contains(asset.id) {
                        found.append(
                            .linkWithoutMembership(asset: asset.id, albumFolder: folder, entryName: name))
                    }
                } catch {
                    if case .system(let look) = error {
                        entryLookFailure = look.errno
                    } else {
                        failure = error
                    }
                    return false
                }
                return true
            }
        } catch {
            return (nil, error.errno)
        }
        if let failure { throw failure }
        if let entryLookFailure { return (nil, entryLookFailure) }
        // Unsorted listing (a million entries); only the differences are sorted.
        var result = found.sorted { $0.description < $1.description }
        if let album {
            for (entry, member) in stills.sorted(by: { ($0.value.asset, $0.key) < ($1.value.asset, $1.key) })
            {
                result.append(
                    .membershipWithoutLink(asset: member.asset, album: album.name, entryName: entry))
            }
        }
        return (result, nil)
    }

    /// A member's album entry: its asset, and (targets verified) where the walk keeps
    /// the roll file it must lead to: nil when that file is not on disk (the entry is
    /// then looked at like any other). An index, not a path: a million members, no
    /// million copies of roll paths.
    private struct Member {
        var asset: AssetID
        var target: Dictionary<BytePath, Reconciler.RollFile>.Index?
    }

    /// True when the album entry `entry` of `folderPath` leads to the roll file the walk
    /// keeps at `target`. A hard link whose `readdir` inode is the roll file's needs no
    /// look-up of its own (a million entries, a million `fstatat`s saved); any other
    /// entry is looked at.
    private func leads(
        _ entry: Sys.DirectoryEntry, of folderPath: BytePath, in folder: FileDescriptor,
        to target: Dictionary<BytePath, Reconciler.RollFile>.Index, state: inout AlbumComparison
    ) throws(FilingError) -> Bool {
        if entry.kind == .regular, entry.inode == state.walk.rollFiles.values[target].inode { return true }
        if state.rollByInode == nil { state.rollByInode = try rollInodes(state.walk) }
        return try lookUp(folderPath.appending(entry.name), in: folder, state: state)
            == state.walk.rollFiles.keys[target]
    }

    /// `resolve`, a look that fails thrown as `.system` (the album's read ends at it).
    private func lookUp(_ entry: BytePath, in folder: FileDescriptor, state: AlbumComparison)
        throws(FilingError) -> BytePath?
    {
        do {
            return try resolve(entry: entry, byInode: state.rollByInode!, folder: folder)
        } catch {
            throw .system(error)
        }
    }

    /// Whether a deleted member's entry is one its deletion would have removed: a
    /// symbolic link (no bytes), or a name of the very file Recently Deleted keeps
    /// at `keptAt`. Anything else under that name (a file put there since) stays.
    private func leftByDeletion(_ entry: BytePath, in folder: FileDescriptor, keptAt: BytePath?)
        throws(FilingError) -> Bool
    {
        let status: FileStatus
        do {
            guard let found = try Sys.statusIfExists(entry.lastComponent, in: folder) else { return false }
            status = found
        } catch {
            throw .system(error)
        }
        if status.isSymbolicLink { return true }
        guard status.isRegularFile, let keptAt else { return false }
        return try name(keptAt, isTheFileOf: status) ?? false
    }

    /// The live asset an album entry leads to (a symbolic link's target, or the roll
    /// file with the same inode), and whether it is that asset's Live Photo video.
    private func asset(behind entry: BytePath, in folder: FileDescriptor, state: inout AlbumComparison)
        throws(FilingError) -> (asset: AssetRecord, isVideo: Bool)?
    {
        if state.rollByInode == nil {
            state.rollByInode = try rollInodes(state.walk)
        }
        guard let rollPath = try lookUp(entry, in: folder, state: state) else { return nil }
        return try filer.catalogCall { () throws(CatalogError) -> (asset: AssetRecord, isVideo: Bool)? in
            if let still = try catalog.asset(rollPath: rollPath), !still.isDeleted { return (still, false) }
            if let live = try catalog.asset(liveVideoPath: rollPath), !live.isDeleted { return (live, true) }
            return nil
        }
    }

    /// Every roll file's inode: from the walk when every folder it looked at was read
    /// (those it could not look at hold nothing it knows), else from a walk of the
    /// whole Roll (only when an album entry has to be resolved).
    private func rollInodes(_ walk: FolderWalk) throws(FilingError) -> [UInt64: BytePath] {
        let complete = walk.folders.values.allSatisfy { $0 == .read }
        let files =
            complete ? walk.rollFiles : FolderWalk.roll(layout: layout, stamps: [:], clock: clock).rollFiles
        return Dictionary(files.map { ($0.value.inode, $0.key) }, uniquingKeysWith: { a, _ in a })
    }
}
