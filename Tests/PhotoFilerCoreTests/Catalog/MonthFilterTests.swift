import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The gallery's month and day filters: the capture's own month (its offset, as
/// `created` shows it), found through a range of the created-date index.
@Suite struct MonthFilterTests {
    /// 2024-01-01T00:00:00Z.
    static let newYear: Int64 = 1_704_067_200

    /// Assets right around the new year in the farthest offsets: each one's month in
    /// its own offset differs from its UTC month.
    static func catalog(in folder: TemporaryFolder) throws -> (Catalog, AlbumRecord) {
        let catalog = try folder.catalog()
        let album = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
        let moments: [(Int64, Int?)] = [
            (newYear - 13 * 3600, 14 * 3600),  // 2023-12-31T11:00Z at +14:00: January locally
            (newYear + 11 * 3600, -12 * 3600),  // 2024-01-01T11:00Z at -12:00: December locally
            (newYear - 1, 0), (newYear, 0),  // either side of midnight UTC
            (newYear - 40 * 86_400, 0), (newYear + 40 * 86_400, 0),  // well inside November, February
        ]
        for (number, (seconds, offset)) in moments.enumerated() {
            var asset = sampleAsset(number + 1, addedAt: Double(number), createdAt: seconds)
            asset.created = CaptureDate(secondsSinceEpoch: seconds, utcOffsetSeconds: offset, source: .exif)
            let id = try catalog.insertAsset(asset)
            try catalog.addMembership(asset: id, album: album.id, entryName: BytePath("e\(number)"), at: 0)
        }
        return (catalog, album)
    }

    @Test(
        arguments: [
            ("2023-12", [2, 3]), ("2024-01", [1, 4]), ("2023-11", [5]), ("2024-02", [6]), ("2023-10", []),
        ] as [(String, Set<AssetID>)])
    func aMonthIsTheCapturesOwn(_ month: String, _ expected: Set<AssetID>) throws {
        let folder = try TemporaryFolder()
        let (catalog, album) = try Self.catalog(in: folder)
        for albumID in [album.id, nil] {
            for sort in [AssetQuery.Sort.created, .added] {
                var query = AssetQuery(album: albumID, sort: sort, now: 0)
                query.refinements.month = month
                #expect(Set(try catalog.assets(matching: query).map(\.id)) == expected, "\(month) \(sort)")
            }
        }
    }

    @Test func daysAreTheCapturesOwnToo() throws {
        let folder = try TemporaryFolder()
        let (catalog, album) = try Self.catalog(in: folder)
        var query = AssetQuery(album: album.id, sort: .created, now: 0)
        query.refinements.createdFrom = "2024-01-01"
        query.refinements.createdThrough = "2024-01-01"
        #expect(Set(try catalog.assets(matching: query).map(\.id)) == [1, 4])
        query.refinements.createdFrom = "2023-12-31"
        query.refinements.createdThrough = "2023-12-31"
        #expect(Set(try catalog.assets(matching: query).map(\.id)) == [2, 3])
    }

    /// A month of an album reads a range of the album's created-date index, not every member.
    @Test func aMonthIsAnIndexRange() throws {
        let folder = try TemporaryFolder()
        let (catalog, album) = try Self.catalog(in: folder)
        var query = AssetQuery(album: album.id, sort: .created, limit: 200, now: 0)
        query.refinements.month = "2024-01"
        let (sql, values) = query.statement()
        let plan = try catalog.connection.query("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) }
        let text = plan.joined(separator: " | ")
        #expect(
            text.contains(
                "memberships_album_created (album_id=? AND asset_created_at>? AND asset_created_at<?)"),
            "\(text)")
    }
}
