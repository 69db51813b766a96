import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerSystem

@Suite struct CatalogMembershipTests {
    @Test func albumsAreFoundByNameIdAndFolder() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let qq = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 10)
        let cafe = try catalog.createAlbum(name: "Caf\u{E9}", folderName: BytePath("Caf\u{E9}"), at: 11)
        #expect(try catalog.album(named: "QQ") == qq)
        #expect(try catalog.album(id: cafe.id) == cafe)
        #expect(try catalog.album(folderName: BytePath("Caf\u{E9}")) == cafe)
        #expect(try catalog.album(named: "qq") == nil)
        #expect(try catalog.albums() == [cafe, qq].sorted { $0.name < $1.name })
        let error = #expect(throws: CatalogError.self) {
            try catalog.createAlbum(name: "QQ", folderName: "QQ2", at: 12)
        }
        #expect(error?.isUniqueConstraintViolation == true)
    }

    @Test func addEndAndRevive() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let asset = try catalog.insertAsset(sampleAsset(1))
        let qq = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
        let weibo = try catalog.createAlbum(name: "Weibo", folderName: "Weibo", at: 0)
        let entry = BytePath(bytes: Array("IMG_".utf8) + [0xFF] + Array(".jpg".utf8))

        try catalog.addMembership(asset: asset, album: qq.id, entryName: entry, at: 100)
        try catalog.addMembership(asset: asset, album: weibo.id, entryName: "b.jpg", at: 101)
        #expect(
            try catalog.membership(asset: asset, album: qq.id)
                == MembershipRecord(assetID: asset, albumID: qq.id, entryName: entry, addedAt: 100))
        #expect(try catalog.albumNames(ofAsset: asset) == ["QQ", "Weibo"])

        // Adding again while active keeps its time, takes the new entry name.
        try catalog.addMembership(asset: asset, album: qq.id, entryName: "renamed.jpg", at: 150)
        #expect(try catalog.membership(asset: asset, album: qq.id)?.addedAt == 100)
        #expect(try catalog.membership(asset: asset, album: qq.id)?.entryName == "renamed.jpg")

        try catalog.endMembership(asset: asset, album: qq.id, at: 200)
        try catalog.endMembership(asset: asset, album: qq.id, at: 300)  // stays ended at 200
        let ended = try #require(try catalog.membership(asset: asset, album: qq.id))
        #expect(ended.removedAt == 200 && !ended.isActive)
        #expect(try catalog.albumNames(ofAsset: asset) == ["Weibo"])
        #expect(try catalog.memberships(ofAsset: asset).count == 2)
        #expect(try catalog.memberships(inAlbum: qq.id).map(\.removedAt) == [200])

        try catalog.addMembership(asset: asset, album: qq.id, entryName: "again.jpg", at: 400)
        #expect(
            try catalog.membership(asset: asset, album: qq.id)
                == MembershipRecord(assetID: asset, albumID: qq.id, entryName: "again.jpg", addedAt: 400))
        #expect(try catalog.albumNames(ofAsset: asset) == ["QQ", "Weibo"])
    }

    /// The filer's membership of an asset it just inserted begins when the asset was
    /// added and takes the sort keys it holds: the row a look-up would have written.
    @Test func aNewAssetsMembershipHasTheSortKeysALookUpWouldGive() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        var given = sampleAsset(1, addedAt: 1_700_000_123.5, createdAt: 1_600_000_077)
        given.id = try catalog.insertAsset(given)
        let lookedUp = try catalog.insertAsset(
            sampleAsset(2, addedAt: 1_700_000_123.5, createdAt: 1_600_000_077))
        let qq = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
        try catalog.addMembership(ofNew: given, album: qq.id, entryName: "a.jpg")
        try catalog.addMembership(asset: lookedUp, album: qq.id, entryName: "b.jpg", at: 1_700_000_123.5)

        func sortKeys(_ id: AssetID) throws -> [Double] {
            try #require(
                try catalog.connection.queryFirst(
                    "SELECT asset_added_at, asset_created_at FROM memberships WHERE asset_id = ?",
                    [.integer(id)]
                ) { [$0.double(0), $0.double(1)] })
        }
        #expect(try sortKeys(given.id) == [1_700_000_123.5, 1_600_000_077])
        #expect(try sortKeys(given.id) == sortKeys(lookedUp))
        #expect(
            try catalog.membership(asset: given.id, album: qq.id)
                == MembershipRecord(
                    assetID: given.id, albumID: qq.id, entryName: "a.jpg", addedAt: 1_700_000_123.5))
    }

    @Test func membershipsOfAMissingAssetAreRefused() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let qq = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
        #expect(throws: CatalogError.self) {
            try catalog.addMembership(asset: 99, album: qq.id, entryName: "x.jpg", at: 0)
        }
    }

    @Test func removingAnAssetEndsItsMembershipsButNotItsSources() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let asset = try catalog.insertAsset(sampleAsset(1))
        let qq = try catalog.createAlbum(name: "QQ", folderName: "QQ", at: 0)
        try catalog.addMembership(asset: asset, album: qq.id, entryName: "a.jpg", at: 0)
        try catalog.recordSource(
            path: "/in/a.jpg", size: 5, modificationNanoseconds: 7, asset: asset, hash: "h")
        try catalog.removeAsset(asset)
        #expect(try catalog.memberships(inAlbum: qq.id).isEmpty)
        #expect(try catalog.hasSeenSource(path: "/in/a.jpg", size: 5, modificationNanoseconds: 7))
    }

    @Test func seenSources() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let asset = try catalog.insertAsset(sampleAsset(1))
        let path = BytePath(bytes: Array("/in/".utf8) + [0xC0, 0xAF])
        #expect(try !catalog.hasSeenSource(path: path, size: 10, modificationNanoseconds: 20))
        try catalog.recordSource(path: path, size: 10, modificationNanoseconds: 20, asset: asset, hash: "h")
        #expect(try catalog.hasSeenSource(path: path, size: 10, modificationNanoseconds: 20))
        #expect(try !catalog.hasSeenSource(path: path, size: 11, modificationNanoseconds: 20))
        #expect(try !catalog.hasSeenSource(path: path, size: 10, modificationNanoseconds: 21))
        #expect(try !catalog.hasSeenSource(path: "/in/other", size: 10, modificationNanoseconds: 20))
        try catalog.recordSource(path: path, size: 11, modificationNanoseconds: 30, asset: asset, hash: "h")
        #expect(try !catalog.hasSeenSource(path: path, size: 10, modificationNanoseconds: 20))
        #expect(try catalog.hasSeenSource(path: path, size: 11, modificationNanoseconds: 30))
        #expect(try catalog.seenSourceHash(path: path) == "h")
        try catalog.touchSource(path: path, size: 11, modificationNanoseconds: 40)
        #expect(try catalog.hasSeenSource(path: path, size: 11, modificationNanoseconds: 40))
        #expect(try catalog.seenSourceHash(path: "/in/other") == nil)
    }
}
