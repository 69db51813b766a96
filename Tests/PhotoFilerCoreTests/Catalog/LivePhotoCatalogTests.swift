import Foundation
import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The catalog's Live Photo columns: round trips, the halves waiting to pair, and
/// the still carrying its video afterwards.
@Suite struct LivePhotoCatalogTests {
    static func half(_ number: Int, _ type: MediaType, identifier: String?) -> AssetRecord {
        var asset = sampleAsset(number, mediaType: type)
        asset.info.live.contentIdentifier = identifier
        return asset
    }

    @Test func halvesWaitThenPairIntoTheStill() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let still = try catalog.insertAsset(Self.half(1, .image, identifier: "A"))
        let video = try catalog.insertAsset(Self.half(2, .video, identifier: "A"))
        _ = try catalog.insertAsset(Self.half(3, .video, identifier: "B"))
        #expect(try catalog.identifiersWaitingToPair() == ["A"])
        #expect(try catalog.unpairedStill(contentIdentifier: "A")?.id == still)
        #expect(try catalog.loneVideo(contentIdentifier: "A")?.id == video)

        let hash = String(repeating: "f", count: 64)
        let record = LiveVideoRecord(
            rollPath: "Roll/2023/12/IMG_2.MOV", hash: hash, size: 999, duration: 2.5,
            originalName: "IMG_2.MOV")
        try catalog.write { () throws(CatalogError) in
            try catalog.retireAsset(video, joining: still)
            try catalog.attachLiveVideo(record, to: still)
        }
        let paired = try #require(try catalog.asset(id: still))
        #expect(paired.liveVideo == record)
        #expect(paired.info.subtypes.contains("live"))
        #expect(paired.info.live.contentIdentifier == "A")
        #expect(try catalog.asset(id: video) == nil)
        #expect(try catalog.asset(liveVideoHash: hash)?.id == still)
        #expect(try catalog.asset(liveVideoPath: "Roll/2023/12/IMG_2.MOV")?.id == still)
        #expect(try catalog.identifiersWaitingToPair().isEmpty)
        #expect(
            try catalog.assets(matching: AssetQuery(smartAlbum: .livePhotos, now: 0)).map(\.id) == [still])
        var live = AssetQuery(now: 0)
        live.refinements.subtype = "live"
        #expect(try catalog.assets(matching: live).map(\.id) == [still])

        try catalog.detachLiveVideo(of: still)
        let plain = try #require(try catalog.asset(id: still))
        #expect(plain.liveVideo == nil)
        #expect(!plain.info.subtypes.contains("live"))
        // A new asset never gets the retired id.
        #expect(try catalog.insertAsset(sampleAsset(9)) > video)
    }

    /// One look-up answers both questions filing asks of some bytes: whose content
    /// they are, and whose Live Photo video.
    @Test func contentOwnersAreFoundByEitherHash() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        let still = try catalog.insertAsset(Self.half(1, .image, identifier: "A"))
        let videoHash = sampleAsset(2).hash
        try catalog.attachLiveVideo(
            LiveVideoRecord(
                rollPath: "Roll/2023/12/IMG_2.MOV", hash: videoHash, size: 9, duration: 1,
                originalName: "IMG_2.MOV"),
            to: still)
        let stillHash = sampleAsset(1).hash

        let byContent = try catalog.owners(ofContent: stillHash)
        #expect(
            byContent.asset?.id == still && byContent.liveVideoOwner == nil && byContent.either?.id == still)
        let byVideo = try catalog.owners(ofContent: videoHash)
        #expect(byVideo.asset == nil && byVideo.liveVideoOwner?.id == still && byVideo.either?.id == still)
        #expect(try catalog.owners(ofContent: sampleAsset(3).hash) == ContentOwners())

        // The video's bytes filed as an asset of their own too (a pairing a crash
        // left half done): both are found, and the bytes' own asset comes first.
        let lone = try catalog.insertAsset(sampleAsset(2, mediaType: .video))
        let both = try catalog.owners(ofContent: videoHash)
        #expect(both.asset?.id == lone && both.liveVideoOwner?.id == still && both.either?.id == lone)
    }

    @Test func motionPhotoKeepsItsEmbeddedRange() throws {
        let folder = try TemporaryFolder()
        let catalog = try folder.catalog()
        var asset = sampleAsset(1, subtypes: ["live"])
        asset.info.live.embeddedVideo = EmbeddedVideo(offset: 1000, length: 5000)
        let id = try catalog.insertAsset(
            AssetRecord(
                id: 0, rollPath: asset.rollPath, hash: asset.hash, info: asset.info, created: asset.created,
                addedAt: asset.addedAt, size: asset.size, originalName: asset.originalName, sourceInbox: nil))
        let read = try #require(try catalog.asset(id: id))
        #expect(read.liveVideo?.isEmbedded == true)
        #expect(read.liveVideo?.rollPath == nil)
        #expect(read.info.live.embeddedVideo?.offset == 1000)
        #expect(read.liveVideo?.size == 5000)
    }
}
