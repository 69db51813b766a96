import PhotoFilerCatalog
import PhotoFilerSystem

/// One way the catalog and the disk disagree (`photofiler check` prints one a line).
public enum Difference: Sendable, Equatable, CustomStringConvertible {
    /// The catalog has a live asset whose roll file is gone.
    case missingRollFile(asset: AssetID, rollPath: BytePath)
    /// A file in the Roll that no catalog row describes.
    case rollFileWithoutRow(rollPath: BytePath)
    /// The roll file's content no longer matches the hash (or size) on record.
    case wrongHash(asset: AssetID, rollPath: BytePath, recorded: String, actual: String)
    /// An active membership whose album entry is missing.
    case membershipWithoutLink(asset: AssetID, album: String, entryName: BytePath)
    /// An album entry that links to an asset without a membership on record.
    case linkWithoutMembership(asset: AssetID, albumFolder: BytePath, entryName: BytePath)
    /// An entry of an asset in Recently Deleted that its deletion did not remove (a
    /// crash between its record and its unlinks): a symbolic link, or a name of the
    /// very file Recently Deleted keeps, so removing it loses nothing.
    case deletedAssetEntry(asset: AssetID, albumFolder: BytePath, entryName: BytePath)
    /// An album entry that does not lead to any roll file (left alone, never deleted).
    case strayAlbumEntry(albumFolder: BytePath, entryName: BytePath)
    /// A Live Photo whose paired video is gone from the Roll.
    case missingLiveVideo(asset: AssetID, rollPath: BytePath)
    /// An album entry that links a Live Photo's video, not on record as its entry.
    case videoLinkWithoutRecord(asset: AssetID, albumFolder: BytePath, entryName: BytePath)

    /// A folder or file (relative to the library) that could not be looked at: what
    /// it holds is unknown, so nothing in it is counted as gone.
    case couldNotLook(path: BytePath, reason: LookFailure)
    /// A roll file that is there but could not be read to check its hash (no
    /// permission, a failing disk): neither wrong nor gone, so nothing is repaired.
    case unreadableRollFile(asset: AssetID, rollPath: BytePath, reason: Errno)
    /// A roll file whose bytes became those of another asset (copied over it by
    /// hand): its own are gone, and two roll files hold one content, which the
    /// catalog cannot record. Not repaired: which file to keep is the user's call.
    case holdsAnotherAssetsBytes(asset: AssetID, rollPath: BytePath, owner: AssetID)

    /// True for a roll file (a still, a plain asset) that is gone.
    public var isMissingRollFile: Bool {
        if case .missingRollFile = self { return true }
        return false
    }

    /// True for the differences found in `Albums/` (rather than in the Roll).
    public var isAlbumDifference: Bool {
        switch self {
        case .membershipWithoutLink, .linkWithoutMembership, .strayAlbumEntry, .videoLinkWithoutRecord,
            .deletedAssetEntry:
            return true
        case .missingRollFile, .rollFileWithoutRow, .wrongHash, .missingLiveVideo, .unreadableRollFile,
            .holdsAnotherAssetsBytes:
            return false
        case .couldNotLook(let path, _): return path.components.first == LibraryLayout.albumsFolderName
        }
    }

    public var description: String {
        switch self {
        case .missingRollFile(let asset, let rollPath):
            return "missing roll file: asset \(asset) '\(rollPath.display)'"
        case .rollFileWithoutRow(let rollPath):
            return "roll file without a row: '\(rollPath.display)'"
        case .wrongHash(let asset, let rollPath, let recorded, let actual):
            return "wrong hash: asset \(asset) '\(rollPath.display)' (catalog \(recorded), disk \(actual))"
        case .membershipWithoutLink(let asset, let album, let entryName):
            return "membership without a link: asset \(asset) in album '\(album)' ('\(entryName.display)')"
        case .linkWithoutMembership(let asset, let albumFolder, let entryName):
            return "link without a membership: '\(albumFolder.display)/\(entryName.display)' (asset \(asset))"
        case .missingLiveVideo(let asset, let rollPath):
            return "missing Live Photo video: asset \(asset) '\(rollPath.display)'"
        case .videoLinkWithoutRecord(let asset, let albumFolder, let entryName):
            return
                "Live Photo video link without a record: '\(albumFolder.display)/\(entryName.display)' (asset \(asset))"
        case .couldNotLook(let path, let reason):
            return "could not look at '\(path.display)' \(reason.explanation)"
        case .unreadableRollFile(let asset, let rollPath, let reason):
            let fix = reason.isPermission ? "fix its permissions" : "check the disk holding it"
            return
                "unreadable roll file: asset \(asset) '\(rollPath.display)' (\(reason.message.lowercased())); its hash is not checked: \(fix)"
        case .holdsAnotherAssetsBytes(let asset, let rollPath, let owner):
            return
                "roll file holding another asset's bytes: asset \(asset) '\(rollPath.display)' holds the bytes of asset \(owner): put asset \(asset)'s own picture back under this name if it is elsewhere (files swapped or copied over), or remove this file and its album entries"
        case .deletedAssetEntry(let asset, let albumFolder, let entryName):
            return
                "album entry of an asset in Recently Deleted: '\(albumFolder.display)/\(entryName.display)' (asset \(asset))"
        case .strayAlbumEntry(let albumFolder, let entryName):
            return "album entry that is not a roll asset: '\(albumFolder.display)/\(entryName.display)'"
        }
    }
}
