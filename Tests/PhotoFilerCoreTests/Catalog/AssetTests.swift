import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

@Suite struct CatalogAssetTests {
    @Test func roundTripsEveryField() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        var asset = sampleAsset(1, mediaType: .video, subtypes: ["animated", "screenshot"], favorite: true)
        asset.rollPath = BytePath(bytes: Array("Roll/2023/12/caf".utf8) + [0xE9, 0xFF] + Array(".mp4".utf8))
        asset.originalName = BytePath(bytes: [0x80, 0x00, 0xC3] + Array(".mp4".utf8))
        asset.info.embeddedDate = CaptureDate(
            secondsSinceEpoch: -5, utcOffsetSeconds: -3600, source: .container)
        asset.created = CaptureDate(secondsSinceEpoch: 1_234, utcOffsetSeconds: nil, source: .fileName)
        asset.deletedAt = 1_700_000_100.25
        asset.trashPath = BytePath(bytes: [0xFE] + Array("/x".utf8))
        asset.addedAt = 1_700_000_000.125
        let id = try catalog.insertAsset(asset)
        asset.id = id
        #expect(try catalog.asset(id: id) == asset)
        #expect(try catalog.owners(ofContent: asset.hash).asset == asset)
        #expect(try catalog.asset(rollPath: asset.rollPath) == asset)
        #expect(try catalog.asset(trashPath: asset.trashPath!) == asset)
        #expect(try catalog.allAssets() == [asset])

        var plain = sampleAsset(2)
        plain.info.embeddedDate = nil
        plain.sourceInbox = nil
        plain.originalName = BytePath(bytes: [])
        plain.info.subtypes = []
        plain.id = try catalog.insertAsset(plain)
        #expect(try catalog.asset(id: plain.id) == plain)
    }

    @Test func lookupsMissReturnNil() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        #expect(try catalog.asset(id: 42) == nil)
        #expect(try catalog.owners(ofContent: "ab") == ContentOwners())
        #expect(try catalog.asset(rollPath: "Roll/x.jpg") == nil)
    }

    @Test func duplicateHashOrPathIsAUniqueViolation() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        _ = try catalog.insertAsset(sampleAsset(1))
        var sameHash = sampleAsset(1)
        sameHash.rollPath = "Roll/other.jpg"
        let sameHashError = #expect(throws: CatalogError.self) { try catalog.insertAsset(sameHash) }
        #expect(sameHashError?.isUniqueConstraintViolation == true)
        var samePath = sampleAsset(2)
        samePath.rollPath = sampleAsset(1).rollPath
        let samePathError = #expect(throws: CatalogError.self) { try catalog.insertAsset(samePath) }
        #expect(samePathError?.isUniqueConstraintViolation == true)
        #expect(try catalog.allAssets().count == 1)
    }

    @Test func idsAreNeverReused() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("catalog.sqlite")
        do {
            let catalog = try Catalog(path: path)
            #expect(try catalog.insertAsset(sampleAsset(1)) == 1)
            #expect(try catalog.insertAsset(sampleAsset(2)) == 2)
            try catalog.removeAsset(2)
            #expect(try catalog.asset(id: 2) == nil)
        }
        let reopened = try Catalog(path: path)
        #expect(try reopened.insertAsset(sampleAsset(3)) == 3)
        try reopened.removeAsset(3)
        try reopened.removeAsset(1)
        #expect(try reopened.insertAsset(sampleAsset(4)) == 4)
    }

    @Test func insertKeepingIDKeepsItAndLaterIDsFollowIt() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        var asset = sampleAsset(1)
        asset.id = 500
        #expect(try catalog.insertAsset(asset, keepingID: true) == 500)
        #expect(try catalog.asset(id: 500)?.hash == asset.hash)
        #expect(try catalog.insertAsset(sampleAsset(2)) == 501)
    }

    @Test func deletionRestoreFavoriteAndMove() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let first = try catalog.insertAsset(sampleAsset(1))
        let second = try catalog.insertAsset(sampleAsset(2))
        try catalog.markDeleted(first, at: 100, trashPath: "1/IMG_1.jpg")
        try catalog.markDeleted(second, at: 200, trashPath: nil)
        #expect(try catalog.asset(id: first)?.deletedAt == 100)
        #expect(try catalog.asset(id: first)?.trashPath == "1/IMG_1.jpg")
        #expect(try catalog.asset(id: second)?.isDeleted == true)
        #expect(try catalog.assetsDeleted(before: 150).map(\.id) == [first])
        #expect(try catalog.assetsDeleted(before: 250).map(\.id) == [first, second])

        try catalog.markRestored(first, rollPath: "Roll/2024/01/IMG_1.jpg")
        let restored = try #require(try catalog.asset(id: first))
        #expect(restored.deletedAt == nil && restored.trashPath == nil)
        #expect(restored.rollPath == "Roll/2024/01/IMG_1.jpg")

        try catalog.setFavorite(true, of: first)
        #expect(try catalog.asset(id: first)?.favorite == true)
        try catalog.setFavorite(false, of: first)
        #expect(try catalog.asset(id: first)?.favorite == false)

        try catalog.setRollPath("Roll/moved.jpg", of: first)
        #expect(try catalog.asset(rollPath: "Roll/moved.jpg")?.id == first)
    }
}
