import PhotoFilerCatalog
import PhotoFilerSystem

/// The daemon's reconcile (at start-up and after a change in the library): only the
/// folders changed since the last one are read, and afterwards the folders that
/// agree with the catalog are stamped (Schema.folderStamps).
extension Reconciler {
    /// What one reconcile found and how much it had to read.
    public struct Summary: Sendable {
        /// The differences found and mended (stray album entries are left alone and not listed).
        public var mended: [Difference]
        /// Folders of the Roll and albums looked at (a `stat` each), and how many of them were read.
        public var foldersLookedAt: Int
        public var foldersRead: Int
    }

    /// Compares, with folders unchanged since their stamp taken as the catalog has
    /// them; tells `report` each difference and mends it (as `check --repair`,
    /// without hashing); then stores the stamps.
    ///
    /// Order, so that a stamp never covers a disagreement: each folder's times are
    /// read before the folder is, the stamps are written only after the repair has
    /// committed (a crash in between leaves the old stamps, which the changed
    /// folders no longer match), and a folder is stamped as trusted only when
    /// nothing was found in it, its times are older than a coarse timestamp tick,
    /// and no asset of it changed in the catalog while the comparison ran.
    public func reconcileChangedFolders(report: (Difference) -> Void) throws(FilingError) -> Summary {
        let since = try filer.catalogCall { () throws(CatalogError) in try catalog.latestChangeSequence() }
        let comparison = try compare(verifyHashes: false, stamps: try storedStamps(), progress: nil)
        let mended = comparison.differences.filter {
            if case .strayAlbumEntry = $0 { return false }
            return true
        }
        for difference in mended { report(difference) }
        if !mended.isEmpty { try repair(mended) }
        try storeStamps(of: comparison, changesSince: since)
        let looks = Array(comparison.roll.folders.values) + Array(comparison.albumFolders.values)
        return Summary(mended: mended, foldersLookedAt: looks.count, foldersRead: looks.count { $0 == .read })
    }

    private func storeStamps(of comparison: Comparison, changesSince since: Int64) throws(FilingError) {
        var distrusted = Set<BytePath>()
        func distrust(_ path: BytePath) {
            var path = path
            while !path.isEmpty, path != BytePath("."), distrusted.insert(path).inserted {
                path = path.parent
            }
        }
        func distrustAlbum(folder: BytePath) { distrust(LibraryLayout.albumsFolderName.appending(folder)) }
        var trustNothing = false
        try filer.catalogCall { () throws(CatalogError) in
            for difference in comparison.differences {
                switch difference {
                case .missingRollFile(_, let path), .rollFileWithoutRow(let path),
                    .wrongHash(_, let path, _, _),
                    .missingLiveVideo(_, let path), .unreadableRollFile(_, let path, _),
                    .holdsAnotherAssetsBytes(_, let path, _):
                    distrust(path.parent)
                case .linkWithoutMembership(_, let folder, _), .strayAlbumEntry(let folder, _),
                    .videoLinkWithoutRecord(_, let folder, _), .deletedAssetEntry(_, let folder, _):
                    distrustAlbum(folder: folder)
                case .membershipWithoutLink(_, let name, _):
                    if let album = try catalog.album(named: name) { distrustAlbum(folder: album.folderName) }
                case .couldNotLook(let path, _):
                    distrust(path)
                }
            }
            // What changed in the catalog while the folders were compared (this repair,
            // or another process's `rm`) may not be what they show: look again next time.
            guard let changed = try catalog.assetsChanged(after: since) else {
                trustNothing = true
                return
            }
            for id in changed {
                guard let asset = try catalog.asset(id: id) else { continue }
                distrust(asset.rollPath.parent)
                if let video = asset.liveVideo?.rollPath { distrust(video.parent) }
                for membership in try catalog.memberships(ofAsset: id) {
                    if let album = try catalog.album(id: membership.albumID) {
                        distrustAlbum(folder: album.folderName)
                    }
                }
            }
        }
        let stamps = (comparison.roll.stamps + comparison.albumStamps).map { stamp in
            var stamp = stamp
            stamp.trusted = stamp.trusted && !trustNothing && !distrusted.contains(stamp.path)
            return stamp
        }
        try filer.catalogCall { () throws(CatalogError) in try catalog.replaceFolderStamps(stamps) }
        filer.mountPoints = nil
    }
}
