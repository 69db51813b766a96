import PhotoFilerCatalog
import PhotoFilerSystem

extension AssetLifecycle {
    /// Two changes leave a name in Recently Deleted that no row keeps when a crash
    /// cuts them short: a restore links the asset back into the Roll (from that name,
    /// or from bytes saved again), records it, and only then unlinks its Recently
    /// Deleted names; a deletion links the roll file into Recently Deleted before it
    /// records anything. Either way the name left holds the bytes of a live asset's
    /// roll file or Live Photo video, which is there: such a name goes. Anything else
    /// there is left as it is. Returns how many went: none while a deletion is under
    /// way in any process (it holds `holdRecentlyDeleted`'s lock; the next pass looks
    /// again).
    @discardableResult
    public func removeLeftoverNames() throws(FilingError) -> Int {
        let lockPath = layout.recentlyDeletedLockPath
        let lock = try filer.systemCall(lockPath) { () throws(SystemError) in try Sys.openOrCreate(lockPath) }
        defer { lock.close() }
        guard try filer.systemCall(lockPath, { () throws(SystemError) in try lock.tryLockExclusive() }) else {
            return 0
        }
        let folder = layout.recentlyDeleted
        let entries = try filer.systemCall(folder) { () throws(SystemError) -> [Sys.DirectoryEntry] in
            guard try Sys.statusIfExists(folder) != nil else { return [] }
            return try Sys.listDirectory(folder)
        }
        guard !entries.isEmpty else { return 0 }
        let kept = try filer.catalogCall { () throws(CatalogError) in try catalog.namesKeptInRecentlyDeleted()
        }
        var removed = 0
        for entry in entries where entry.kind == .regular || entry.kind == .unknown {
            guard !kept.contains(LibraryLayout.recentlyDeletedFolderName.appending(entry.name)) else {
                continue
            }
            let file = folder.appending(entry.name)
            do {
                guard try holdsALiveRollFilesBytes(file) else { continue }
                try filer.systemCall(file) { () throws(SystemError) in try Sys.unlinkIfPresent(file) }
                removed += 1
            } catch {
                // What could not be looked at stays; the rest of the folder is still tidied.
                filer.log.warning("\(error.description) It is left in Recently Deleted.")
            }
        }
        if removed > 0 {
            try filer.systemCall(folder) { () throws(SystemError) in try Sys.syncDirectory(folder) }
        }
        return removed
    }

    /// True when `file` holds the bytes of a live asset's roll file or video, and that
    /// file holds them too: it is a second name of it, or a copy whose bytes the roll
    /// file's own hash (read now, not the catalog's) shows to be the same.
    private func holdsALiveRollFilesBytes(_ file: BytePath) throws(FilingError) -> Bool {
        guard let (status, hash) = try regularFileHash(file) else { return false }
        let rollPath = try filer.catalogCall { () throws(CatalogError) -> BytePath? in
            let owners = try catalog.owners(ofContent: hash)
            if let asset = owners.asset, !asset.isDeleted { return asset.rollPath }
            if let still = owners.liveVideoOwner, !still.isDeleted { return still.liveVideo?.rollPath }
            return nil
        }
        guard let rollPath else { return false }
        let rollFile = layout.absolute(rollPath)
        let rollStatus = try filer.systemCall(rollFile) { () throws(SystemError) in
            try Sys.statusIfExists(rollFile)
        }
        guard let rollStatus, rollStatus.isRegularFile else { return false }
        if rollStatus.isSameFile(as: status) { return true }
        guard rollStatus.size == status.size, let (_, rollHash) = try regularFileHash(rollFile) else {
            return false
        }
        return rollHash == hash
    }

    /// The status and content hash of a regular file, not followed; nil when it is
    /// gone or is no regular file.
    private func regularFileHash(_ file: BytePath) throws(FilingError) -> (FileStatus, String)? {
        let fd: FileDescriptor
        do {
            fd = try Sys.openForReading(file)
        } catch {
            if error.errno == .noSuchFile || error.errno == .tooManySymbolicLinks { return nil }
            throw FilingError.from(error, library: layout, source: file)
        }
        defer { fd.close() }
        let status = try filer.systemCall(file) { () throws(SystemError) in try fd.status() }
        guard status.kind == .regular else { return nil }
        let hash = try filer.systemCall(file) { () throws(SystemError) in
            try filer.inspector.copier.hash(fd, path: file).hash
        }
        return (status, hash)
    }
}
