import Foundation
import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerFiling
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The pipeline's pure parts: what each file of a group becomes, how a new asset's
/// record is built, how a group makes its writes durable.
@Suite struct FilingPlanTests {
    static let hash = String(repeating: "a", count: 64)

    static func asset(deleted: Bool = false) -> AssetRecord {
        var asset = sampleAsset(1)
        asset.id = 42
        asset.hash = hash
        if deleted { asset.deletedAt = 1_700_000_100 }
        return asset
    }

    static func decide(
        mode: TransferMode = .move, lastFiled: String? = nil, liveVideoOwner: AssetRecord? = nil,
        existing: AssetRecord? = nil, earlier: (Int, FilingPlan)? = nil
    ) -> FilingPlan {
        FilingPlan.decide(
            hash: hash, mode: mode, lastFiledHashAtPath: lastFiled, liveVideoOwner: liveVideoOwner,
            existing: existing, earlierInGroup: earlier.map { (position: $0.0, plan: $0.1) })
    }

    @Test func unknownContentIsNew() {
        #expect(Self.decide() == .new)
        #expect(Self.decide(mode: .keep, lastFiled: String(repeating: "b", count: 64)) == .new)
    }

    @Test func keepModeBytesUnchangedAtTheirPathAreSeenWhateverElseIsKnown() {
        #expect(Self.decide(mode: .keep, lastFiled: Self.hash, existing: Self.asset()) == .alreadySeen)
        // Only keep mode remembers paths.
        #expect(Self.decide(mode: .move, lastFiled: Self.hash) == .new)
        #expect(Self.decide(mode: .copy, lastFiled: Self.hash) == .new)
    }

    @Test func knownContentJoinsItsAssetAndDeletedContentRestoresIt() {
        #expect(Self.decide(existing: Self.asset()) == .join(Self.asset()))
        #expect(Self.decide(existing: Self.asset(deleted: true)) == .restore(Self.asset(deleted: true)))
    }

    @Test func aLivePhotosVideoJoinsItsStillOrBringsItBackFromRecentlyDeleted() {
        var still = Self.asset()
        still.id = 7
        #expect(Self.decide(liveVideoOwner: still) == .join(still))
        var deleted = still
        deleted.deletedAt = 1
        // Nothing of the still is left: the video is filed as it is.
        #expect(Self.decide(liveVideoOwner: deleted) == .new)
        #expect(Self.decide(liveVideoOwner: deleted, existing: Self.asset()) == .join(Self.asset()))
        // The still's bytes are in Recently Deleted: the video brings the Live Photo back.
        deleted.trashPath = "Recently Deleted/IMG_0001.JPG"
        #expect(Self.decide(liveVideoOwner: deleted) == .restore(deleted))
        #expect(Self.decide(liveVideoOwner: deleted, existing: Self.asset()) == .join(Self.asset()))
        // The still itself came back earlier in the group: the video joins it.
        #expect(Self.decide(liveVideoOwner: deleted, earlier: (2, .restore(deleted))) == .sameAsEarlier(2))
    }

    @Test func theSameContentTwiceInOneGroupJoinsTheFirst() {
        #expect(Self.decide(earlier: (3, .new)) == .sameAsEarlier(3))
        // The earlier one restores the deleted asset; the second joins it, never restores twice.
        #expect(
            Self.decide(
                existing: Self.asset(deleted: true), earlier: (0, .restore(Self.asset(deleted: true))))
                == .sameAsEarlier(0))
        // Both join a known asset on their own.
        #expect(Self.decide(existing: Self.asset(), earlier: (0, .join(Self.asset()))) == .join(Self.asset()))
    }

    @Test func onlyNewAndRestoredContentPlacesBytes() {
        #expect(FilingPlan.new.placesBytes)
        #expect(FilingPlan.restore(Self.asset(deleted: true)).placesBytes)
        #expect(!FilingPlan.join(Self.asset()).placesBytes)
        #expect(!FilingPlan.sameAsEarlier(0).placesBytes)
        #expect(!FilingPlan.alreadySeen.placesBytes)
    }

    @Test func aDraftResolvesTheCaptureDateByTheChain() {
        let exif = CaptureDate(secondsSinceEpoch: 1_600_000_000, utcOffsetSeconds: 3600, source: .exif)
        let mtime: Int64 = 1_650_000_000 * 1_000_000_000
        func draft(_ info: MediaInfo, name: String) -> AssetDraft {
            AssetDraft(
                hash: Self.hash, size: 10, info: info, originalName: BytePath(name),
                modificationNanoseconds: mtime, sourceInbox: "QQ")
        }
        let withExif = MediaInfo(mediaType: .image, mimeType: "image/jpeg", embeddedDate: exif)
        let plain = MediaInfo(mediaType: .image, mimeType: "image/jpeg")
        #expect(draft(withExif, name: "mmexport1701428096000.jpg").created == exif)
        #expect(draft(plain, name: "mmexport1701428096000.jpg").created.source == .fileName)
        #expect(draft(plain, name: "mmexport1701428096000.jpg").created.secondsSinceEpoch == 1_701_428_096)
        let fromMtime = draft(plain, name: "photo.jpg").created
        #expect(fromMtime.source == .modificationTime && fromMtime.secondsSinceEpoch == 1_650_000_000)
        // No plausible date (an mtime of 2099): the time the draft was made, read once.
        let filing = Date(timeIntervalSince1970: 1_700_000_000)
        let added = AssetDraft(
            hash: Self.hash, size: 10, info: plain, originalName: "photo.jpg",
            modificationNanoseconds: 4_070_908_800 * 1_000_000_000, sourceInbox: nil, now: filing
        ).created
        #expect(added.source == .added && added.secondsSinceEpoch == 1_700_000_000)
    }

    @Test func aDraftsRecordCarriesEveryField() {
        let info = MediaInfo(mediaType: .video, mimeType: "video/mp4", pixelWidth: 640, pixelHeight: 480)
        let draft = AssetDraft(
            hash: Self.hash, size: 1234, info: info, originalName: BytePath("VID_20231201_123456.mp4"),
            modificationNanoseconds: 5, sourceInbox: "WeChat")
        let record = draft.record(rollPath: BytePath("Roll/2023/12/VID_20231201_123456.mp4"), addedAt: 99)
        #expect(record.id == 0)
        #expect(record.rollPath == BytePath("Roll/2023/12/VID_20231201_123456.mp4"))
        #expect(record.hash == Self.hash && record.size == 1234 && record.info == info)
        #expect(record.created == draft.created && record.addedAt == 99)
        #expect(record.originalName == BytePath("VID_20231201_123456.mp4") && record.sourceInbox == "WeChat")
        #expect(!record.isDeleted && !record.favorite && record.liveVideo == nil)
    }

    @Test func aGroupOfEightOrMoreSyncsTheFileSystemOnce() {
        #expect(GroupDurability(filesPlacingBytes: 0) == .perFile)
        #expect(GroupDurability(filesPlacingBytes: 1) == .perFile)
        #expect(GroupDurability(filesPlacingBytes: GroupDurability.syncfsGroupSize - 1) == .perFile)
        #expect(GroupDurability(filesPlacingBytes: GroupDurability.syncfsGroupSize) == .wholeFileSystem)
        #expect(GroupDurability(filesPlacingBytes: 256) == .wholeFileSystem)
    }

    @Test func theSameContentIsPlannedIntoAnAlbumOnce() {
        var planned = PlannedMemberships()
        let claims = [
            planned.claim(hash: Self.hash, album: 1), planned.claim(hash: Self.hash, album: 1),
            planned.claim(hash: Self.hash, album: 2),
            planned.claim(hash: String(repeating: "b", count: 64), album: 1),
        ]
        #expect(claims == [true, false, true, true])
    }

    @Test func aFolderTouchedTwiceIsSyncedOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var folders = FolderSyncer()
        folders.touch(folder.path)
        folders.touch(folder.path)
        folders.touch(folder.path.appending("missing"))
        #expect(folders.folders == [folder.path, folder.path.appending("missing")])
        // The missing folder fails the sync, and the error names it.
        let failure = folders.syncAll()
        #expect(failure?.path == folder.path.appending("missing"))
    }
}
