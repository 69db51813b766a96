import PhotoFilerCatalog
import PhotoFilerSystem

extension AssetLifecycle {
    /// Two changes leave a name in Recently Deleted that no row keeps when a crash
    /// cuts them short: a restore links the asset's files back into the Roll, records
    /// it, and only then unlinks their Recently Deleted names; a deletion links the
    /// roll file into Recently Deleted before it records anything. Either way the
    /// name left is the very file (the same inode) of a live asset's roll file or
    /// Live Photo video, and it goes. Anything else there is left as it is. Returns
    /// how many went: none while a deletion is under way in any process (it holds
    /// `holdRecentlyDeleted`'s lock; the next pass looks again).
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
        var removed = 0
        for entry in entries where entry.kind == .regular || entry.kind == .unknown {
            let file = folder.appending(entry.name)
            guard try isSecondNameOfALiveFile(file) else { continue }
            try filer.systemCall(file) { () throws(SystemError) in try Sys.unlinkIfPresent(file) }
            removed += 1
        }
        if removed > 0 {
            try filer.systemCall(folder) { () throws(SystemError) in try Sys.syncDirectory(folder) }
        }
        return removed
    }

    /// True when `file`, a name in Recently Deleted, is kept by no row and is a
    /// second name of a live asset's roll file or video. Looked at from the cheapest
    /// question on: most names there are their file's only name.
    private func isSecondNameOfALiveFile(_ file: BytePath) throws(FilingError) -> Bool {
        let fd: FileDescriptor
        do {
            fd = try Sys.openForReading(file)
        } catch {
            // Gone since it was listed, or a symbolic link: never such a name.
            if error.errno == .noSuchFile || error.errno == .tooManySymbolicLinks { return false }
            throw FilingError.from(error, library: layout, source: file)
        }
        defer { fd.close() }
        let status = try filer.systemCall(file) { () throws(SystemError) in try fd.status() }
        guard status.kind == .regular, status.linkCount > 1 else { return false }
        let trashPath = LibraryLayout.recentlyDeletedFolderName.appending(file.lastComponent)
        let kept = try filer.catalogCall { () throws(CatalogError) in
            try catalog.keepsInRecentlyDeleted(trashPath)
        }
        guard !kept else { return false }
        let hash = try filer.systemCall(file) { () throws(SystemError) in
            try filer.inspector.copier.hash(fd, path: file).hash
        }
        let rollPath = try filer.catalogCall { () throws(CatalogError) -> BytePath? in
            if let asset = try catalog.asset(hash: hash), !asset.isDeleted { return asset.rollPath }
            if let still = try catalog.asset(liveVideoHash: hash), !still.isDeleted {
                return still.liveVideo?.rollPath
            }
            return nil
        }
        guard let rollPath else { return false }
        let rollFile = layout.absolute(rollPath)
        let rollStatus = try filer.systemCall(rollFile) { () throws(SystemError) in
            try Sys.statusIfExists(rollFile)
        }
        return rollStatus?.isSameFile(as: status) == true
    }
}
