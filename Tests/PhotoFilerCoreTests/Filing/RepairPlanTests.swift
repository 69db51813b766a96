import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

/// `check --repair`'s decisions as a table: the differences found in, the mends out,
/// in the order they are made.
@Suite struct RepairPlanTests {
    typealias Mend = RepairPlan.Mend

    static let still = BytePath("Roll/2024/05/IMG_1.HEIC")
    static let video = BytePath("Roll/2024/05/IMG_1.MOV")
    static let qq = BytePath("Albums/QQ")
    static let entry = BytePath("IMG_1.HEIC")
    static let videoEntry = BytePath("IMG_1.MOV")
    static let a = String(repeating: "a", count: 64)
    static let b = String(repeating: "b", count: 64)

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let differences: [Difference]
        let mends: [Mend]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "nothing to mend", differences: [], mends: []),
        Row(
            name: "reported only: strays, what could not be looked at or read, another asset's bytes",
            differences: [
                .strayAlbumEntry(albumFolder: qq, entryName: entry),
                .couldNotLook(path: qq, reason: .system(.permissionDenied)),
                .unreadableRollFile(asset: 1, rollPath: still, reason: .ioError),
                .holdsAnotherAssetsBytes(asset: 1, rollPath: still, owner: 2),
                .rollFileWithoutRow(rollPath: still),
            ],
            mends: []),
        Row(
            name: "a still's removal before its video's, whatever the order found",
            differences: [
                .missingLiveVideo(asset: 1, rollPath: video),
                .wrongHash(asset: 2, rollPath: video, recorded: a, actual: b),
                .missingRollFile(asset: 1, rollPath: still),
            ],
            mends: [
                .rollFileRemoved(asset: 1, rollPath: still),
                .liveVideoRemoved(asset: 1, rollPath: video),
                .recordContent(asset: 2, rollPath: video, recorded: a, actual: b),
            ]),
        Row(
            name: "a folder of the Roll that could not be read: no roll file is gone",
            differences: [
                .couldNotLook(path: BytePath("Roll/2024"), reason: .system(.permissionDenied)),
                .missingRollFile(asset: 1, rollPath: still),
                .missingLiveVideo(asset: 3, rollPath: video),
                .membershipWithoutLink(asset: 4, album: "QQ", entryName: entry),
            ],
            mends: [.endMembership(asset: 4, album: "QQ")]),
        Row(
            name: "an empty folder where a disk is not mounted was read: its files are gone",
            differences: [
                .couldNotLook(path: BytePath("Roll/2024"), reason: .notMounted),
                .missingRollFile(asset: 1, rollPath: still),
            ],
            mends: [.rollFileRemoved(asset: 1, rollPath: still)]),
        Row(
            name: "an album folder that could not be read leaves the Roll's removals alone",
            differences: [
                .couldNotLook(path: qq, reason: .system(.ioError)),
                .missingRollFile(asset: 1, rollPath: still),
            ],
            mends: [.rollFileRemoved(asset: 1, rollPath: still)]),
        Row(
            name: "an entry without a membership gets its video entry made, unless one is there",
            differences: [
                .linkWithoutMembership(asset: 1, albumFolder: qq, entryName: entry),
                .linkWithoutMembership(asset: 2, albumFolder: qq, entryName: BytePath("IMG_2.HEIC")),
                .videoLinkWithoutRecord(asset: 2, albumFolder: qq, entryName: videoEntry),
            ],
            mends: [
                .addMembership(asset: 1, albumFolder: qq, entryName: entry, linkVideo: true),
                .addMembership(
                    asset: 2, albumFolder: qq, entryName: BytePath("IMG_2.HEIC"), linkVideo: false),
                .recordVideoEntry(asset: 2, albumFolder: qq, entryName: videoEntry),
            ]),
        Row(
            name: "a video entry is recorded after every membership, found first or not",
            differences: [
                .videoLinkWithoutRecord(asset: 2, albumFolder: qq, entryName: videoEntry),
                .deletedAssetEntry(asset: 5, albumFolder: qq, entryName: entry),
            ],
            mends: [
                .removeDeletedAssetEntry(asset: 5, albumFolder: qq, entryName: entry),
                .recordVideoEntry(asset: 2, albumFolder: qq, entryName: videoEntry),
            ]),
    ]

    @Test(arguments: rows)
    func mends(_ row: Row) {
        #expect(RepairPlan.mends(row.differences) == row.mends)
    }

    @Test func rollFilesWithoutRowsAreAdoptedInTheOrderFound() {
        let other = BytePath("Roll/2023/01/a.jpg")
        let differences: [Difference] = [
            .rollFileWithoutRow(rollPath: Self.still),
            .missingRollFile(asset: 1, rollPath: Self.video),
            .rollFileWithoutRow(rollPath: other),
        ]
        #expect(RepairPlan.adoptions(differences) == [Self.still, other])
    }
}
