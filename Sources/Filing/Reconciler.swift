import Foundation
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Compares the catalog with the disk and makes the catalog match the disk (the
/// files are the truth). `photofiler check [--repair]` uses it with hashes
/// verified; the daemon runs the cheap form (names and sizes) at start-up, which
/// also adopts what a crash left between the Roll link and the catalog row.
public struct Reconciler {
    package let filer: Filer
    private var layout: LibraryLayout { filer.layout }
    private var catalog: Catalog { filer.catalog }

    public init(filer: Filer) { self.filer = filer }

    /// Every difference, in a stable order. `verifyHashes` reads every roll file;
    /// `progress` is told how many of the live assets are compared (done, total).
    public func differences(
        verifyHashes: Bool, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(FilingError) -> [Difference] {
        var result: [Difference] = []
        let listing = try rollFiles()
        let disk = listing.files
        result += listing.unreadable.keys.sorted().map {
            .couldNotLook(path: $0, reason: listing.unreadable[$0]!)
        }
        let assets = try filer.catalogCall { () throws(CatalogError) in try catalog.assetFootprints() }
        var recorded = Set<BytePath>()
        var videos = Set<BytePath>()
        let live = progress == nil ? 0 : assets.count { !$0.isDeleted }
        for asset in assets where !asset.isDeleted {
            recorded.insert(asset.rollPath)
            progress?(recorded.count, live)
            if let video = asset.liveVideoPath {
                videos.insert(video)
                result += try liveVideoDifferences(
                    asset, video: video, disk: disk, verifyHashes: verifyHashes)
            }
            guard let status = disk[asset.rollPath] else {
                // Not seen is not gone when its folder could not be looked at.
                if !listing.couldNotLook(at: asset.rollPath) {
                    result.append(.missingRollFile(asset: asset.id, rollPath: asset.rollPath))
                }
                continue
            }
            if verifyHashes || status.size != asset.size {
                let actual = try hash(asset.rollPath)
                let recorded = try filer.catalogCall { () throws(CatalogError) in
                    try catalog.asset(id: asset.id)
                }?.hash
                if let recorded, actual != recorded {
                    result.append(
                        .wrongHash(
                            asset: asset.id, rollPath: asset.rollPath, recorded: recorded, actual: actual))
                }
            }
        }
        for path in disk.keys.filter({ !recorded.contains($0) && !videos.contains($0) }).sorted() {
            result.append(.rollFileWithoutRow(rollPath: path))
        }
        result += try albumDifferences(assets: assets, disk: disk, verifyTargets: verifyHashes)
        return result
    }

    /// Makes the catalog match the disk for each difference; returns how many were
    /// mended. `progress` is told how many roll files without a row are adopted (done, total).
    @discardableResult
    public func repair(
        _ differences: [Difference], progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(FilingError) -> Int {
        let lifecycle = AssetLifecycle(filer: filer)
        var mended = 0
        // Files without rows first: one may be a live asset's file moved within the Roll.
        var adopted = 0
        let orphans = differences.compactMap { difference -> BytePath? in
            guard case .rollFileWithoutRow(let rollPath) = difference else { return nil }
            return rollPath
        }
        for (index, rollPath) in orphans.enumerated() {
            if try adopt(rollPath) { adopted += 1 }
            progress?(index + 1, orphans.count)
        }
        mended += adopted
        // Halves adopted apart (a lost catalog) are one Live Photo again.
        let paired = try LivePhotoPairing(filer: filer).pairWaiting()
        mended += paired
        var remaining = differences
        if adopted > 0 || paired > 0 {
            // An album entry that led to no asset may lead to an adopted one now (a lost
            // catalog is rebuilt this way): the albums are compared again.
            let assets = try filer.catalogCall { () throws(CatalogError) in try catalog.assetFootprints() }
            let fresh = try albumDifferences(assets: assets, disk: try rollFiles().files, verifyTargets: true)
            remaining = differences.filter { !$0.isAlbumDifference } + fresh
        }
        for difference in remaining {
            switch difference {
            case .rollFileWithoutRow, .strayAlbumEntry, .videoLinkWithoutRecord, .couldNotLook:
                continue
            case .missingLiveVideo(let id, let rollPath):
                guard
                    let asset = try filer.catalogCall({ () throws(CatalogError) in try catalog.asset(id: id) }
                    ),
                    asset.liveVideo?.rollPath == rollPath
                else { continue }
                try lifecycle.liveVideoRemoved(asset)
            case .missingRollFile(let id, let rollPath):
                guard
                    let asset = try filer.catalogCall({ () throws(CatalogError) in try catalog.asset(id: id) }
                    ),
                    asset.rollPath == rollPath, !asset.isDeleted
                else { continue }  // adopted above under a new path
                try lifecycle.rollFileRemoved(asset)
            case .wrongHash(let id, let rollPath, _, let actual):
                let size = try filer.systemCall(layout.absolute(rollPath)) { () throws(SystemError) in
                    try Sys.status(layout.absolute(rollPath)).size
                }
                let asset = try filer.catalogCall { () throws(CatalogError) in try catalog.asset(id: id) }
                try filer.catalogCall { () throws(CatalogError) in
                    if let video = asset?.liveVideo, video.rollPath == rollPath {
                        try catalog.setLiveVideoContent(of: id, hash: actual, size: size)
                    } else {
                        try catalog.setContent(of: id, hash: actual, size: size)
                    }
                }
            case .membershipWithoutLink(let asset, let album, _):
                guard
                    let record = try filer.catalogCall({ () throws(CatalogError) in
                        try catalog.album(named: album)
                    })
                else { continue }
                try filer.catalogCall { () throws(CatalogError) in
                    try catalog.endMembership(asset: asset, album: record.id, at: filer.now())
                }
            case .linkWithoutMembership(let asset, let folder, let entry):
                guard let album = try albumForFolder(folder) else { continue }
                try filer.catalogCall { () throws(CatalogError) in
                    try catalog.addMembership(
                        asset: asset, album: album.id, entryName: entry, at: filer.now())
                }
            }
            mended += 1
        }
        // After the memberships exist: a video entry is the second entry of one.
        for case .videoLinkWithoutRecord(let asset, let folder, let entry) in remaining {
            guard let album = try albumForFolder(folder) else { continue }
            try recordVideoEntry(entry, asset: asset, album: album)
            mended += 1
        }
        filer.albums.forgetCachedAlbums()
        return mended
    }

    /// A Live Photo's paired video: gone from the Roll, or (hashes verified, or its
    /// size changed) other bytes than on record.
    private func liveVideoDifferences(
        _ asset: AssetFootprint, video: BytePath, disk: [BytePath: RollFile], verifyHashes: Bool
    ) throws(FilingError) -> [Difference] {
        guard let status = disk[video] else { return [.missingLiveVideo(asset: asset.id, rollPath: video)] }
        guard verifyHashes || status.size != asset.liveVideoSize else { return [] }
        let actual = try hash(video)
        let recorded = try filer.catalogCall { () throws(CatalogError) in
            try catalog.asset(id: asset.id)
        }?.liveVideo?.hash
        guard let recorded, actual != recorded else { return [] }
        return [.wrongHash(asset: asset.id, rollPath: video, recorded: recorded, actual: actual)]
    }

    /// Removes what a crash left in `.photofiler/tmp` (never visible in Roll or albums).
    public func removeTemporaryFiles() throws(FilingError) -> Int {
        let entries = try filer.systemCall(layout.temporary) { () throws(SystemError) in
            try Sys.listDirectory(layout.temporary)
        }
        for entry in entries {
            try filer.systemCall(layout.temporary) { () throws(SystemError) in
                try Sys.unlinkIfPresent(layout.temporary.appending(entry.name))
            }
        }
        return entries.count
    }

    // MARK: Disk

    /// What the comparison needs of a roll file (kept small: one per asset at start-up).
    package struct RollFile {
        package var size: Int64
        package var inode: UInt64
    }

    /// What a walk of the Roll saw: the regular files, and where it could not look.
    struct RollListing {
        /// Relative path → size and inode.
        var files: [BytePath: RollFile] = [:]
        /// Relative paths of folders and files that could not be read or looked at,
        /// with the reason: nothing below them is known, so nothing there is gone.
        var unreadable: [BytePath: Errno] = [:]

        /// True when `rollPath` is, or lies below, a place that could not be looked at.
        func couldNotLook(at rollPath: BytePath) -> Bool {
            guard !unreadable.isEmpty else { return false }
            var path = rollPath
            while path.components.count > 1 {
                if unreadable[path] != nil { return true }
                path = path.parent
            }
            return unreadable[path] != nil
        }
    }

    /// Every regular file under `Roll/`. A folder or file that cannot be looked at
    /// (permissions, an I/O error, a disk not mounted yet) is noted, not skipped in
    /// silence: what is in it is unknown, not missing (SPEC "Deletion").
    private func rollFiles() throws(FilingError) -> RollListing {
        var listing = RollListing()
        var pending: [BytePath] = [LibraryLayout.rollFolderName]
        while let folder = pending.popLast() {
            let entries: [Sys.DirectoryEntry]
            // Each entry is looked up relative to its folder's descriptor: no walk of
            // the whole path per file (100,000 roll files at start-up).
            let directory: FileDescriptor
            do {
                entries = try Sys.listDirectory(layout.absolute(folder))
                directory = try Sys.openDirectory(layout.absolute(folder))
            } catch  where error.errno == .noSuchFile {
                continue
            } catch {
                listing.unreadable[folder] = error.errno
                continue
            }
            defer { directory.close() }
            for entry in entries {
                let relative = folder.appending(entry.name)
                let found: FileStatus?
                do {
                    found = try Sys.statusIfExists(entry.name, in: directory)
                } catch {
                    listing.unreadable[relative] = error.errno
                    continue
                }
                guard let status = found else { continue }
                if status.isDirectory {
                    pending.append(relative)
                } else if status.isRegularFile {
                    listing.files[relative] = RollFile(size: status.size, inode: status.inode)
                }
            }
        }
        return listing
    }

    private func albumDifferences(assets: [AssetFootprint], disk: [BytePath: RollFile], verifyTargets: Bool)
        throws(FilingError) -> [Difference]
    {
        var result: [Difference] = []
        let liveIDs = Set(assets.lazy.filter { !$0.isDeleted }.map(\.id))
        // Built only when an entry has to be resolved (none, on a quiet start-up).
        var live: [BytePath: AssetFootprint]?
        var byInode: [UInt64: BytePath]?
        // A Live Photo's video resolves to its asset too.
        func asset(behind entry: BytePath) -> (asset: AssetFootprint, isVideo: Bool)? {
            if live == nil {
                let alive = assets.filter { !$0.isDeleted }
                live = Dictionary(
                    alive.map { ($0.rollPath, $0) }
                        + alive.compactMap { a in a.liveVideoPath.map { ($0, a) } },
                    uniquingKeysWith: { a, _ in a })
                byInode = Dictionary(disk.map { ($0.value.inode, $0.key) }, uniquingKeysWith: { a, _ in a })
            }
            guard let rollPath = resolve(entry: entry, byInode: byInode!), let asset = live![rollPath] else {
                return nil
            }
            return (asset, rollPath == asset.liveVideoPath)
        }
        let albums = try filer.catalogCall { () throws(CatalogError) in try catalog.albums() }
        let albumsByFolder = Dictionary(albums.map { ($0.folderName, $0) }, uniquingKeysWith: { a, _ in a })
        let folders = try filer.systemCall(layout.albums) { () throws(SystemError) in
            try Sys.listDirectory(layout.albums)
        }
        for folder in folders.map(\.name).sorted() {
            let folderPath = layout.albums.appending(folder)
            let relativeFolder = LibraryLayout.albumsFolderName.appending(folder)
            let folderStatus: FileStatus?
            do {
                folderStatus = try Sys.statusIfExists(folderPath)
            } catch {
                result.append(.couldNotLook(path: relativeFolder, reason: error.errno))
                continue
            }
            guard folderStatus?.isDirectory == true else { continue }
            let album = albumsByFolder[folder]
            let memberships =
                try album.map { (album) throws(FilingError) in
                    try filer.catalogCall { () throws(CatalogError) in
                        try catalog.memberships(inAlbum: album.id)
                    }
                } ?? []
            let active = memberships.filter(\.isActive)
            let activeByEntry = Dictionary(
                active.map { ($0.entryName, $0) }
                    + active.compactMap { m in m.videoEntryName.map { ($0, m) } },
                uniquingKeysWith: { a, _ in a })
            let entries: [Sys.DirectoryEntry]
            do {
                entries = try Sys.listDirectory(folderPath)
            } catch  where error.errno == .noSuchFile {
                continue
            } catch {
                // Its memberships stand: an album that cannot be read is not empty.
                result.append(.couldNotLook(path: relativeFolder, reason: error.errno))
                continue
            }
            var present = Set<BytePath>()
            var found: [Difference] = []
            // Unsorted: 100,000 entries at start-up; only the differences are sorted.
            for entry in entries.map(\.name) {
                present.insert(entry)
                if let membership = activeByEntry[entry], !verifyTargets,
                    liveIDs.contains(membership.assetID)
                {
                    continue
                }
                guard let (asset, isVideo) = asset(behind: folderPath.appending(entry)) else {
                    found.append(.strayAlbumEntry(albumFolder: folder, entryName: entry))
                    continue
                }
                if let membership = activeByEntry[entry], membership.assetID == asset.id { continue }
                if isVideo {
                    found.append(
                        .videoLinkWithoutRecord(asset: asset.id, albumFolder: folder, entryName: entry))
                    continue
                }
                if memberships.contains(where: { $0.assetID == asset.id && $0.isActive }) { continue }
                found.append(.linkWithoutMembership(asset: asset.id, albumFolder: folder, entryName: entry))
            }
            result += found.sorted { $0.description < $1.description }
            if let album {
                for membership in memberships
                where membership.isActive && !present.contains(membership.entryName) {
                    guard liveIDs.contains(membership.assetID) else { continue }
                    result.append(
                        .membershipWithoutLink(
                            asset: membership.assetID, album: album.name, entryName: membership.entryName))
                }
            }
        }
        // Albums whose folder is gone entirely.
        let folderNames = Set(folders.map(\.name))
        for album in albums where !folderNames.contains(album.folderName) {
            let memberships = try filer.catalogCall { () throws(CatalogError) in
                try catalog.memberships(inAlbum: album.id)
            }
            for membership in memberships where membership.isActive {
                guard liveIDs.contains(membership.assetID) else { continue }
                result.append(
                    .membershipWithoutLink(
                        asset: membership.assetID, album: album.name, entryName: membership.entryName))
            }
        }
        return result
    }

    /// The roll file an album entry stands for: a symbolic link's target, or the roll
    /// file with the same inode.
    package func resolve(entry: BytePath, byInode: [UInt64: BytePath]) -> BytePath? {
        guard let status = try? Sys.status(entry) else { return nil }
        if status.isSymbolicLink {
            guard let target = try? Sys.readLink(entry) else { return nil }
            let absolute = target.isAbsolute ? target : entry.parent.appending(target)
            return layout.relative(LibraryLayout.normalize(absolute))
        }
        return status.isRegularFile ? byInode[status.inode] : nil
    }

    private func hash(_ rollPath: BytePath) throws(FilingError) -> String {
        let path = layout.absolute(rollPath)
        return try filer.systemCall(path) { () throws(SystemError) -> String in
            let fd = try Sys.openForReading(path)
            defer { fd.close() }
            return try ContentHasher.hash(fd)
        }
    }

    /// Makes a roll file without a row an asset again (or re-points a live asset whose
    /// file was moved within the Roll). Returns false when it is left as it is.
    private func adopt(_ rollPath: BytePath) throws(FilingError) -> Bool {
        let path = layout.absolute(rollPath)
        let fd = try filer.systemCall(path) { () throws(SystemError) in try Sys.openForReading(path) }
        defer { fd.close() }
        let status = try filer.systemCall(path) { () throws(SystemError) in try fd.status() }
        let hashed = try filer.systemCall(path) { () throws(SystemError) in
            try filer.inspector.copier.hash(fd, path: path)
        }
        if let still = try filer.catalogCall({ () throws(CatalogError) in
            try catalog.asset(liveVideoHash: hashed.hash)
        }), let recorded = still.liveVideo?.rollPath {
            if let kept = try? Sys.statusIfExists(layout.absolute(recorded)) {
                // The old name of a video that pairing moved beside its still, left by a
                // crash after the commit (issue 14): the same file, so that name goes.
                guard kept.device == status.device, kept.inode == status.inode else { return false }
                try filer.systemCall(path) { () throws(SystemError) in
                    try Sys.unlink(path)
                    try Sys.syncDirectory(path.parent)
                }
                return true
            }
            // A Live Photo's video moved within the Roll.
            try filer.catalogCall { () throws(CatalogError) in
                try catalog.setLiveVideoLocation(of: still.id, rollPath: rollPath, trashPath: nil)
            }
            return true
        }
        if let existing = try filer.catalogCall({ () throws(CatalogError) in
            try catalog.asset(hash: hashed.hash)
        }) {
            let oldFile = layout.absolute(existing.rollPath)
            let oldPresent = (try? Sys.statusIfExists(oldFile)) != nil
            if existing.isDeleted {
                try filer.catalogCall { () throws(CatalogError) in
                    try catalog.markRestored(existing.id, rollPath: rollPath)
                    try catalog.setRollPath(rollPath, of: existing.id)
                }
                return true
            }
            if !oldPresent {
                // The same asset, moved within the Roll: its albums follow it.
                try AssetLifecycle(filer: filer).rollFileMoved(existing, to: rollPath)
                return true
            }
            return false  // a second copy of live content: left for the user to sort out
        }
        let info: MediaInfo
        do {
            info = try filer.inspector.readMedia(fd, source: path, size: status.size)
        } catch {
            filer.log.warning("\(error.description)")
            return false
        }
        let asset = AssetDraft(
            hash: hashed.hash, size: hashed.size, info: info, originalName: rollPath.lastComponent,
            modificationNanoseconds: status.modificationNanoseconds, sourceInbox: nil
        ).record(rollPath: rollPath, addedAt: Double(status.changeNanoseconds) / 1e9)
        _ = try filer.catalogCall { () throws(CatalogError) in try catalog.insertAsset(asset) }
        return true
    }

    /// A Live Photo's video entry in `album`: recorded as the second entry of the
    /// asset's membership, which is made (with a link to the still) when missing.
    private func recordVideoEntry(_ entry: BytePath, asset id: AssetID, album: AlbumRecord)
        throws(FilingError)
    {
        guard let asset = try filer.catalogCall({ () throws(CatalogError) in try catalog.asset(id: id) })
        else {
            return
        }
        let membership = try filer.catalogCall { () throws(CatalogError) in
            try catalog.membership(asset: id, album: album.id)
        }
        if membership?.isActive != true {
            let still = try filer.linkAndSync(
                asset.rollPath, into: album, kind: .hard, source: layout.albumFolder(album))
            try filer.catalogCall { () throws(CatalogError) in
                try catalog.addMembership(asset: id, album: album.id, entryName: still, at: filer.now())
            }
        }
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.setVideoEntry(entry, asset: id, album: album.id)
        }
    }

    private func albumForFolder(_ folder: BytePath) throws(FilingError) -> AlbumRecord? {
        if let album = try filer.catalogCall({ () throws(CatalogError) in
            try catalog.album(folderName: folder)
        }) {
            return album
        }
        guard let name = try? AlbumName(validating: folder.display), name.folderName == folder else {
            return nil
        }
        return try filer.albums.album(named: name, now: filer.now())
    }
}
