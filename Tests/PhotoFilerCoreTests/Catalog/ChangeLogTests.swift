import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerSystem

/// The change log a running `serve` reads (`asset_changes`): one row a change a
/// reader must hear of, bounded (`Schema.lighterChangeLog`).
@Suite struct CatalogChangeLogTests {
    private func kinds(_ catalog: Catalog, after sequence: Int64 = 0) throws -> [Catalog.AssetChange.Kind] {
        try catalog.changes(after: sequence, limit: 100).map(\.kind)
    }

    @Test func anAssetFiledIntoItsAlbumIsOneChangeAndLaterMembershipsAreMore() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let qq = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
        let trip = try catalog.createAlbum(name: "Trip", folderName: "Trip", at: 0)
        let added = 1_700_000_000.5
        // As the filer does it: the asset and its album entry in one transaction, at one time.
        let id = try catalog.write { () throws(CatalogError) in
            let id = try catalog.insertAsset(sampleAsset(1, addedAt: added))
            try catalog.addMembership(asset: id, album: qq.id, entryName: "IMG_1.jpg", at: added)
            return id
        }
        #expect(try catalog.changes(after: 0, limit: 10) == [.init(sequence: 1, asset: id, kind: .filed)])

        // Another album later, the entry taken out, put back: each is a change of its own.
        try catalog.addMembership(asset: id, album: trip.id, entryName: "IMG_1.jpg", at: added + 60)
        try catalog.endMembership(asset: id, album: qq.id, at: added + 61)
        try catalog.addMembership(asset: id, album: qq.id, entryName: "IMG_1.jpg", at: added + 62)
        #expect(try kinds(catalog, after: 1) == [.changed, .changed, .changed])
        #expect(try catalog.changes(after: 1, limit: 10).allSatisfy { $0.asset == id })
    }

    @Test func theLogKeepsAtLeastTheNewest4096ChangesAndTrimsTheRest() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        try catalog.write { () throws(CatalogError) in
            for number in 1...5_000 { _ = try catalog.insertAsset(sampleAsset(number)) }
        }
        let newest = try catalog.latestChange()
        let oldest = try #require(try catalog.oldestChange())
        #expect(newest == 5_000)
        // Trimmed at the 4,992nd row to the newest 4,096 of then; 8 rows since.
        #expect(oldest == 4_992 - 4_096 + 1)
        #expect(newest - oldest + 1 >= 4_096 && newest - oldest + 1 < 4_096 + 64)
        let kept = try catalog.changes(after: oldest - 1, limit: 5_000)
        #expect(
            kept.map(\.sequence) == Array(oldest...newest),
            "no gap: a reader after `oldest - 1` misses nothing")
    }
}
