import PhotoFilerCatalog
import PhotoFilerSystem

/// What `check --repair` does about each difference, and in which order, as plain
/// values: the differences in, the mends out (RepairPlanTests). `Reconciler.repair`
/// performs them, each after a look that it still applies.
///
/// The order is the rules': files without rows are adopted first (one may be a
/// live asset's file moved within the Roll), then halves adopted apart are paired;
/// then a still's removal comes before its video's (a still takes its video along);
/// a video's album entry is recorded once the membership it is the second entry of
/// exists. What could not be looked at is not gone: while a folder of the Roll
/// could not be read (a permission, an I/O error; not an empty folder where a disk
/// is not mounted), no roll file counts as removed, since it may be in there.
package enum RepairPlan {
    package enum Mend: Equatable, Sendable {
        /// A live asset's roll file is gone: the asset goes (to Recently Deleted when
        /// an album entry still holds its bytes).
        case rollFileRemoved(asset: AssetID, rollPath: BytePath)
        /// A Live Photo's video is gone: a plain still stays.
        case liveVideoRemoved(asset: AssetID, rollPath: BytePath)
        /// The roll file holds other bytes than recorded: the disk's are recorded.
        case recordContent(asset: AssetID, rollPath: BytePath, recorded: String, actual: String)
        /// The entry of an active membership is gone: the membership ends.
        case endMembership(asset: AssetID, album: String)
        /// An entry of an asset in Recently Deleted that its deletion left: it goes.
        case removeDeletedAssetEntry(asset: AssetID, albumFolder: BytePath, entryName: BytePath)
        /// An entry without a membership: the membership is recorded, and a Live
        /// Photo's video entry made beside it unless there is one already.
        case addMembership(asset: AssetID, albumFolder: BytePath, entryName: BytePath, linkVideo: Bool)
        /// A video entry not on record: recorded as its membership's second entry.
        case recordVideoEntry(asset: AssetID, albumFolder: BytePath, entryName: BytePath)
    }

    /// The roll files to adopt, in the order found.
    package static func adoptions(_ differences: [Difference]) -> [BytePath] {
        differences.compactMap {
            guard case .rollFileWithoutRow(let rollPath) = $0 else { return nil }
            return rollPath
        }
    }

    /// The mends for what is left once the adoptions and pairings are done, in order.
    /// Differences that are reported only (an entry that leads to no asset, what could
    /// not be looked at or read, a file holding another asset's bytes) bring none.
    package static func mends(_ remaining: [Difference]) -> [Mend] {
        let rollUnreadable = remaining.contains {
            guard case .couldNotLook(let path, let reason) = $0, reason != .notMounted else { return false }
            return path.components.first == LibraryLayout.rollFolderName
        }
        let stillsFirst = remaining.filter(\.isMissingRollFile) + remaining.filter { !$0.isMissingRollFile }
        var mends: [Mend] = []
        for difference in stillsFirst {
            switch difference {
            case .rollFileWithoutRow, .strayAlbumEntry, .videoLinkWithoutRecord, .couldNotLook,
                .unreadableRollFile, .holdsAnotherAssetsBytes:
                continue
            case .missingRollFile(let asset, let rollPath):
                if !rollUnreadable { mends.append(.rollFileRemoved(asset: asset, rollPath: rollPath)) }
            case .missingLiveVideo(let asset, let rollPath):
                if !rollUnreadable { mends.append(.liveVideoRemoved(asset: asset, rollPath: rollPath)) }
            case .wrongHash(let asset, let rollPath, let recorded, let actual):
                mends.append(
                    .recordContent(asset: asset, rollPath: rollPath, recorded: recorded, actual: actual))
            case .membershipWithoutLink(let asset, let album, _):
                mends.append(.endMembership(asset: asset, album: album))
            case .deletedAssetEntry(let asset, let folder, let entry):
                mends.append(.removeDeletedAssetEntry(asset: asset, albumFolder: folder, entryName: entry))
            case .linkWithoutMembership(let asset, let folder, let entry):
                let videoThere = remaining.contains {
                    guard case .videoLinkWithoutRecord(asset, folder, _) = $0 else { return false }
                    return true
                }
                mends.append(
                    .addMembership(
                        asset: asset, albumFolder: folder, entryName: entry, linkVideo: !videoThere))
            }
        }
        for case .videoLinkWithoutRecord(let asset, let folder, let entry) in remaining {
            mends.append(.recordVideoEntry(asset: asset, albumFolder: folder, entryName: entry))
        }
        return mends
    }
}
