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
    var layout: LibraryLayout { filer.layout }
    var catalog: Catalog { filer.catalog }

    /// The wall clock in nanoseconds that folder times are judged by (tests move it on).
    package var clock: () -> Int64 = FolderWalk.clock
    /// Asked before each roll file is adopted and between the reads of its hash: once
    /// it says so, the repair is given up whole (`FilingError.stopped`), so a daemon told
    /// to stop while it adopts a lost catalog's large files stops within 5 s.
    /// The whole repair, not the adoption loop alone: the removals after it may only
    /// run once every file without a row has been looked at (one may be a move).
    package var stop: () -> Bool = { false }

    public init(filer: Filer) { self.filer = filer }

    /// Every difference, in a stable order, every folder read. `verifyHashes` reads
    /// every roll file; `progress` is told how many of the live assets are compared (done, total).
    public func differences(
        verifyHashes: Bool, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(FilingError) -> [Difference] {
        // The stamps the daemon stored tell which folders were there, and on which
        // device (a disk not mounted now), not what may go unread.
        try compare(
            verifyHashes: verifyHashes, stamps: try storedStamps(), readEvery: true, progress: progress
        ).differences
    }

    /// The folder stamps of the daemon's last reconcile, by relative path.
    func storedStamps() throws(FilingError) -> [BytePath: FolderStamp] {
        let stored = try filer.catalogCall { () throws(CatalogError) in try catalog.folderStamps() }
        return Dictionary(stored.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Makes the catalog match the disk for each difference; returns how many were
    /// mended. `progress` is told how many roll files without a row are adopted (done, total).
    @discardableResult
    public func repair(
        _ differences: [Difference], progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(FilingError) -> Int {
        var mended = 0
        let orphans = RepairPlan.adoptions(differences)
        var adopted = 0
        for (index, rollPath) in orphans.enumerated() {
            if stop() { throw .stopped(path: rollPath) }
            do {
                if try adopt(rollPath) { adopted += 1 }
            } catch {
                // A file (or the one it may be a move of) that could not be looked at is
                // left without a row until it can be; the others are adopted.
                if case .catalog = error { throw error }
                if case .stopped = error { throw error }
                if error.shortage != nil { throw error }
                filer.log.warning("\(error.description) '\(rollPath.display)' is left as it is for now.")
            }
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
            let stamps = try storedStamps()
            var albums = AlbumComparison(
                walk: FolderWalk.roll(layout: layout, stamps: stamps, clock: clock, readEvery: true),
                stamps: stamps, readEvery: true)
            let fresh = try albumDifferences(&albums, verifyTargets: true)
            remaining = differences.filter { !$0.isAlbumDifference } + fresh
        }
        for mend in RepairPlan.mends(remaining) {
            if try perform(mend) { mended += 1 }
        }
        filer.albums.forgetCachedAlbums()
        return mended
    }

    /// Performs one mend of `RepairPlan`, after a look that it still applies (an
    /// adoption may have taken its asset under a new path, or brought it back);
    /// false when it no longer does.
    private func perform(_ mend: RepairPlan.Mend) throws(FilingError) -> Bool {
        let lifecycle = AssetLifecycle(filer: filer)
        switch mend {
        case .liveVideoRemoved(let id, let rollPath):
            guard let asset = try asset(id), asset.liveVideo?.rollPath == rollPath else { return false }
            try lifecycle.liveVideoRemoved(asset)
        case .rollFileRemoved(let id, let rollPath):
            guard let asset = try asset(id), asset.rollPath == rollPath, !asset.isDeleted else {
                return false
            }
            try lifecycle.rollFileRemoved(asset)
        case .recordContent(let id, let rollPath, let recorded, let actual):
            let size = try filer.systemCall(layout.absolute(rollPath)) { () throws(SystemError) in
                try Sys.status(layout.absolute(rollPath)).size
            }
            let asset = try asset(id)
            let isVideo = asset?.liveVideo?.rollPath == rollPath
            try filer.catalogCall { () throws(CatalogError) in
                if isVideo {
                    try catalog.setLiveVideoContent(of: id, hash: actual, size: size)
                } else {
                    try catalog.setContent(of: id, hash: actual, size: size)
                }
            }
            // The old content's thumbnails show bytes the library no longer holds.
            if !isVideo { ThumbnailFiles(layout: layout).remove(hash: recorded) }
        case .endMembership(let asset, let album):
            guard
                let membership = try filer.catalogCall({ () throws(CatalogError) -> MembershipRecord? in
                    guard let record = try catalog.album(named: album) else { return nil }
                    return try catalog.membership(asset: asset, album: record.id)
                })
            else { return false }
            // As the daemon's removal of an entry: a Live Photo leaves the album
            // whole, its video entry too (left, it would bring the membership back).
            try lifecycle.albumEntryRemoved(membership)
        case .removeDeletedAssetEntry(let id, let folder, let entry):
            // The deletion's last step, made now for this entry (the comparison saw
            // what it is; a Live Photo's other entry is a difference of its own).
            guard let album = try albumForFolder(folder), try asset(id)?.isDeleted == true else {
                return false  // brought back by an adoption
            }
            try filer.systemCall(layout.albumFolder(album)) { () throws(SystemError) in
                try filer.albums.unlinkEntry(entry, in: album)
            }
        case .addMembership(let asset, let folder, let entry, let linkVideo):
            guard let album = try albumForFolder(folder) else { return false }
            try filer.catalogCall { () throws(CatalogError) in
                try catalog.addMembership(asset: asset, album: album.id, entryName: entry, at: filer.now())
            }
            if linkVideo { try linkLiveVideo(of: asset, into: album, beside: entry) }
        case .recordVideoEntry(let asset, let folder, let entry):
            guard let album = try albumForFolder(folder) else { return false }
            try recordVideoEntry(entry, asset: asset, album: album)
        }
        return true
    }

    private func asset(_ id: AssetID) throws(FilingError) -> AssetRecord? {
        try filer.catalogCall { () throws(CatalogError) in try catalog.asset(id: id) }
    }

    /// Removes what a crash left in `.photofiler/tmp` (never visible in Roll or albums):
    /// the files of processes that have ended. Each temporary name carries its maker's
    /// pid, and a running one's (a `save` beside the daemon, this process's thumbnails)
    /// are still being written.
    public func removeTemporaryFiles() throws(FilingError) -> Int {
        let entries = try filer.systemCall(layout.temporary) { () throws(SystemError) in
            try Sys.listDirectory(layout.temporary)
        }
        var removed = 0
        for entry in entries {
            if let maker = Self.makerPID(of: entry.name), Sys.processExists(maker) { continue }
            try filer.systemCall(layout.temporary) { () throws(SystemError) in
                try Sys.unlinkIfPresent(layout.temporary.appending(entry.name))
            }
            removed += 1
        }
        return removed
    }

    /// The pid in a temporary name (`filing-PID-N.tmp`, `repoint-PID.lnk`,
    /// `.thumbnail-PID-N.tmp`): its first part of digits alone.
    static func makerPID(of name: BytePath) -> pid_t? {
        name.bytes.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            .first { !$0.isEmpty && $0.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
            .flatMap { pid_t(String(decoding: $0, as: UTF8.self)) }
    }

    // MARK: Disk

    /// What the comparison needs of a roll file (kept small: one per asset at start-up).
    package struct RollFile {
        package var size: Int64
        package var inode: UInt64
        /// A live asset's row names it (set as the comparison goes).
        package var seen = false
    }

    /// The roll file an album entry stands for: a symbolic link's target, or the roll
    /// file with the same inode; nil when it stands for none, or is gone since it was
    /// listed. A look that fails is thrown: an entry that could not be looked at is
    /// not one that leads nowhere. With `folder` (the entry's folder, open), the entry
    /// is looked up by name in it: no walk of the whole path per entry.
    package func resolve(entry: BytePath, byInode: [UInt64: BytePath], folder: FileDescriptor? = nil)
        throws(SystemError) -> BytePath?
    {
        let name = folder == nil ? entry : entry.lastComponent
        let directory = folder ?? .currentWorkingDirectory
        guard let status = try Sys.statusIfExists(name, in: directory) else { return nil }
        if status.isSymbolicLink {
            let target: BytePath
            do {
                target = try Sys.readLink(name, in: directory)
            } catch  where error.errno == .noSuchFile {
                return nil
            }
            let absolute = target.isAbsolute ? target : entry.parent.appending(target)
            return layout.relative(LibraryLayout.normalize(absolute))
        }
        return status.isRegularFile ? byInode[status.inode] : nil
    }

    func hash(_ rollPath: BytePath) throws(FilingError) -> String {
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
            try filer.inspector.copier.hash(fd, path: path, stop: stop)
        }
        let owners = try filer.catalogCall { () throws(CatalogError) in
            try catalog.owners(ofContent: hashed.hash)
        }
        if let still = owners.liveVideoOwner, let recorded = still.liveVideo?.rollPath {
            if still.isDeleted {
                // A deletion cut short after it was recorded, its still's roll file gone
                // already: this name goes where Recently Deleted keeps the very file. (A
                // restore cut short is finished when its still is adopted, which links
                // the video back, `restoreLiveVideo`.) Kept nowhere: left as it is.
                guard let trash = still.liveVideo?.trashPath else { return false }
                return try removeRollName(path, status: status, keptAt: trash) ?? false
            }
            if recorded != rollPath {
                // The old name of a video that pairing moved beside its still, left by a
                // crash after the commit (issue 14): the same file, so that name goes; a
                // different file there is left for the user.
                if let removed = try removeRollName(path, status: status, keptAt: recorded) { return removed }
            }
            // A Live Photo's video moved within the Roll (alone, or with its folder), or
            // back at its recorded path: its symbolic album entries follow it.
            try AssetLifecycle(filer: filer).liveVideoMoved(still, to: rollPath)
            return true
        }
        if let existing = owners.asset {
            let oldFile = layout.absolute(existing.rollPath)
            // "Could not look" is not "moved away": the adoption then fails, and the file is left.
            let oldPresent = try filer.statusIfExists(oldFile) != nil
            if existing.isDeleted {
                try filer.catalogCall { () throws(CatalogError) in
                    try catalog.markRestored(existing.id, rollPath: rollPath)
                    try catalog.setRollPath(rollPath, of: existing.id)
                }
                try restoreLiveVideo(of: existing, beside: rollPath)
                try restoreAlbumEntries(of: existing.id)
                return true
            }
            if !oldPresent {
                // The same asset, moved within the Roll: its albums follow it.
                try AssetLifecycle(filer: filer).rollFileMoved(existing, to: rollPath)
                return true
            }
            // A second copy of live content (a user's `cp` within the Roll): one asset
            // has one roll file, and deleting a file is the user's to decide.
            filer.log.warning(
                "'\(rollPath.display)' holds the same bytes as asset \(existing.id) ('\(existing.rollPath.display)'), and the Roll keeps each photo once: it is left as it is; delete it, or move it out of the library."
            )
            return false
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

    /// Unlinks the roll name `path` (of the file `status` describes) when the name
    /// `kept` (relative) is that very file, and says true; false when `kept` is
    /// another file, nil when nothing is there (both touching nothing).
    private func removeRollName(_ path: BytePath, status: FileStatus, keptAt kept: BytePath)
        throws(FilingError) -> Bool?
    {
        guard let same = try name(kept, isTheFileOf: status) else { return nil }
        guard same else { return false }
        try filer.systemCall(path) { () throws(SystemError) in
            try Sys.unlink(path)
            try Sys.syncDirectory(path.parent)
        }
        return true
    }

    /// Whether the name `kept` (relative to the library) is the very file `status`
    /// describes (a second name of it); nil when nothing is there.
    func name(_ kept: BytePath, isTheFileOf status: FileStatus) throws(FilingError) -> Bool? {
        let keptFile = layout.absolute(kept)
        let keptStatus = try filer.statusIfExists(keptFile)
        return keptStatus.map { $0.isSameFile(as: status) }
    }

    /// A deleted Live Photo whose still a restore linked back before a crash gets its
    /// video back too: at its recorded roll path when the restore linked it there,
    /// else linked again beside the still from Recently Deleted (that name then goes
    /// with the rest a restore cut short left, `removeLeftoverNames`).
    private func restoreLiveVideo(of asset: AssetRecord, beside rollPath: BytePath) throws(FilingError) {
        guard let video = asset.liveVideo, let trash = video.trashPath else { return }
        if let recorded = video.rollPath {
            let file = layout.absolute(recorded)
            if try filer.statusIfExists(file) != nil {
                try filer.catalogCall { () throws(CatalogError) in
                    try catalog.setLiveVideoLocation(of: asset.id, rollPath: recorded, trashPath: nil)
                }
                return
            }
        }
        let trashFile = layout.absolute(trash)
        var folders = FolderSyncer()
        let placed = try filer.linkIntoRoll(
            trashFile, preferred: video.rollPath?.lastComponent ?? trash.lastComponent,
            folder: rollPath.parent,
            source: trashFile, folders: &folders)
        if let failure = folders.syncAll() {
            throw FilingError.from(failure, library: layout, source: failure.path ?? trashFile)
        }
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.setLiveVideoLocation(of: asset.id, rollPath: placed, trashPath: nil)
        }
    }

    /// The album entries of an asset a restore linked back before a crash, as the
    /// restore makes them: in every album it is still a member of, each entry as it
    /// was (an entry the restore made already is that entry, `AlbumLinker.link`).
    private func restoreAlbumEntries(of id: AssetID) throws(FilingError) {
        guard let asset = try filer.catalogCall({ () throws(CatalogError) in try catalog.asset(id: id) })
        else { return }
        for (album, kind) in try filer.albumsToRestore(of: id) {
            let folder = layout.albumFolder(album)
            let still = try filer.linkAndSync(asset.rollPath, into: album, kind: kind, source: folder)
            let video = try asset.liveVideo?.rollPath.map { (rollPath) throws(FilingError) in
                try filer.linkAndSync(rollPath, into: album, kind: kind, source: folder)
            }
            try filer.catalogCall { () throws(CatalogError) in
                try catalog.addMembership(asset: id, album: album.id, entryName: still, at: filer.now())
                if let video { try catalog.setVideoEntry(video, asset: id, album: album.id) }
            }
        }
    }

    /// A Live Photo's video entry in `album`: recorded as the second entry of the
    /// asset's membership, which is made (with a link to the still) when missing; or,
    /// when it is the recorded video entry of a membership that ended, removed.
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
        if let membership, !membership.isActive, membership.videoEntryName == entry {
            // The video entry of a membership that ended (the still's entry removed or
            // moved to another album, cut short before this one went): it goes too.
            try filer.systemCall(layout.albumFolder(album)) { () throws(SystemError) in
                try filer.albums.unlinkEntry(entry, in: album)
                try Sys.syncDirectory(layout.albumFolder(album))
            }
            return
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

    /// A Live Photo is one asset in each album: a membership made from its still's
    /// entry alone (moved there by hand while no daemon ran) gets its video entry, of
    /// the still's kind. One the user put there too is recorded instead (after).
    private func linkLiveVideo(of id: AssetID, into album: AlbumRecord, beside still: BytePath)
        throws(FilingError)
    {
        guard
            let videoPath = try filer.catalogCall({ () throws(CatalogError) in try catalog.asset(id: id) })?
                .liveVideo?.rollPath
        else { return }
        let folder = layout.albumFolder(album)
        // A video gone from the Roll too is a difference of its own (the asset becomes a still).
        let videoFile = layout.absolute(videoPath)
        guard try filer.statusIfExists(videoFile) != nil else { return }
        let symbolic = try filer.systemCall(folder) { () throws(SystemError) in
            try Sys.statusIfExists(folder.appending(still))?.isSymbolicLink == true
        }
        let entry = try filer.linkAndSync(
            videoPath, into: album, kind: symbolic ? .symbolic : .hard, source: folder)
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
