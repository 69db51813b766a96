import PhotoFilerCatalog
import PhotoFilerSystem

extension AssetLifecycle {
    /// Links one album entry that still holds `asset`'s bytes (a hard link: a regular
    /// file with the asset's size and hash) into Recently Deleted, durably; returns its
    /// path there (relative to the library), or nil when no entry holds them.
    func keepSurvivingCopy(of asset: AssetRecord) throws(FilingError) -> BytePath? {
        try keepSurvivingCopy(
            size: asset.size, hash: asset.hash, name: asset.rollPath.lastComponent, of: asset,
            entry: \.entryName)
    }

    /// The same for a Live Photo's paired video, through its own album entries:
    /// the still and the video were both removed from the Roll (a file manager's
    /// selection of the two, their date folder).
    func keepSurvivingVideoCopy(of asset: AssetRecord) throws(FilingError) -> BytePath? {
        guard let video = asset.liveVideo, let rollPath = video.rollPath, let hash = video.hash else {
            return nil
        }
        return try keepSurvivingCopy(
            size: video.size, hash: hash, name: rollPath.lastComponent, of: asset, entry: \.videoEntryName)
    }

    private func keepSurvivingCopy(
        size: Int64, hash: String, name preferred: BytePath, of asset: AssetRecord,
        entry entryName: (MembershipRecord) -> BytePath?
    ) throws(FilingError) -> BytePath? {
        for (membership, album) in try filer.activeMemberships(of: asset.id) {
            guard let name = entryName(membership) else { continue }
            let entry = filer.layout.albumFolder(album).appending(name)
            guard try holdsBytes(size: size, hash: hash, at: entry) else { continue }
            return try linkIntoRecentlyDeleted(file: entry, preferred: preferred)
        }
        return nil
    }

    /// True when `entry` is a regular file (not followed) of `size` bytes with `hash`.
    private func holdsBytes(size: Int64, hash: String, at entry: BytePath) throws(FilingError) -> Bool {
        try filer.systemCall(entry) { () throws(SystemError) -> Bool in
            guard let status = try Sys.statusIfExists(entry), status.isRegularFile, status.size == size
            else { return false }
            let fd = try Sys.openForReading(entry)
            defer { fd.close() }
            return try ContentHasher.hash(fd) == hash
        }
    }
}
