import PhotoFilerCatalog
import PhotoFilerSystem

extension AssetLifecycle {
    /// Links one album entry that still holds `asset`'s bytes (a hard link: a regular
    /// file with the asset's size and hash) into Recently Deleted, durably; returns its
    /// path there (relative to the library), or nil when no entry holds them.
    func keepSurvivingCopy(of asset: AssetRecord) throws(FilingError) -> BytePath? {
        for (membership, album) in try activeMemberships(of: asset) {
            let entry = filer.layout.albumFolder(album).appending(membership.entryName)
            guard try holdsBytes(of: asset, at: entry) else { continue }
            let recentlyDeleted = filer.layout.recentlyDeleted
            let name = try filer.systemCall(entry) { () throws(SystemError) -> BytePath in
                try Sys.makeDirectories(recentlyDeleted)
                let name = try NameAllocator.allocate(preferred: asset.rollPath.lastComponent) {
                    (candidate) throws(SystemError) in
                    try Sys.link(entry, to: recentlyDeleted.appending(candidate))
                }
                try Sys.syncDirectory(recentlyDeleted)
                return name
            }
            return LibraryLayout.recentlyDeletedFolderName.appending(name)
        }
        return nil
    }

    /// True when `entry` is a regular file (not followed) with the asset's size and hash.
    private func holdsBytes(of asset: AssetRecord, at entry: BytePath) throws(FilingError) -> Bool {
        try filer.systemCall(entry) { () throws(SystemError) -> Bool in
            guard let status = try Sys.statusIfExists(entry), status.isRegularFile, status.size == asset.size
            else { return false }
            let fd = try Sys.openForReading(entry)
            defer { fd.close() }
            return try ContentHasher.hash(fd) == asset.hash
        }
    }
}
