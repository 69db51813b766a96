import Foundation
import LivePhotoFixtures
import PhotoFilerSystem
import TestSupport
import Testing

/// `/api/assets/ID/video`: what the page plays when a Live Photo is hovered or pressed.
@Suite struct GalleryLiveVideoTests {
    @Test func aMotionPhotosVideoIsItsEmbeddedBytesWithRanges() throws {
        let library = try TestLibrary()
        let mp4 = try LivePhotoFixtures.movie(
            contentIdentifier: nil, created: "2023-12-01T12:34:56+0100", container: "mp4", in: library.folder)
        let motion = try LivePhotoFixtures.googleMotionPhoto(
            Pictures.uniqueJPEG(21, tag: "gallery-motion"), video: mp4, in: library.folder)
        let plain = try library.input(bytes: Pictures.uniqueJPEG(22, tag: "gallery-plain"), name: "plain.jpg")
        let ids = try library.save(
            [try library.input(bytes: motion, name: "PXL_20231201_123456789.MP.jpg"), plain], album: "QQ")
        let server = try GalleryProcess(library: library.root)

        let whole = try server.request("GET", "/api/assets/\(ids[0])/video")
        #expect(whole.status == 200)
        #expect(whole.header("content-type") == "video/mp4")
        #expect(whole.header("accept-ranges") == "bytes")
        #expect(whole.body == mp4, "the video inside the picture, byte for byte")
        let part = try server.request("GET", "/api/assets/\(ids[0])/video", headers: ["Range": "bytes=4-11"])
        #expect(part.status == 206)
        #expect(part.header("content-range") == "bytes 4-11/\(mp4.count)")
        #expect(part.body == Array(mp4[4..<12]), "ranges count from the video's start: \(part.text)")
        let tail = try server.request("GET", "/api/assets/\(ids[0])/video", headers: ["Range": "bytes=-16"])
        #expect(tail.body == Array(mp4.suffix(16)), "the suffix is the video's, not the still's")
        let outside = try server.request(
            "GET", "/api/assets/\(ids[0])/video", headers: ["Range": "bytes=\(mp4.count)-"])
        #expect(outside.status == 416)

        // The JSON the page reads it from: embedded, with its duration (ffmpeg's clip is 1 s).
        let (_, object) = try server.json("/api/assets/\(ids[0])")
        let video = try #require((object as? [String: Any])?["liveVideo"] as? [String: Any])
        #expect(video["embedded"] as? Bool == true)
        let duration = try #require(video["duration"] as? Double, "duration: \(video)")
        #expect(abs(duration - 1) < 0.2)
        #expect(GalleryAPITests.same(object, try library.info(BytePath(String(ids[0])))))

        let none = try server.request("GET", "/api/assets/\(ids[1])/video")
        #expect(none.status == 404)
        #expect(none.header("content-type")?.hasPrefix("application/json") == true)
        #expect(try server.request("PUT", "/api/assets/\(ids[0])/video").status == 403)
    }

    @Test func aPairedVideoIsItsMOV() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 31, in: library.folder)
        let id = try #require(
            try library.save(
                [
                    try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                    try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
                ], album: "Trip"
            ).first)
        let server = try GalleryProcess(library: library.root)
        let reply = try server.request("GET", "/api/assets/\(id)/video")
        #expect(reply.status == 200)
        #expect(reply.header("content-type") == "video/quicktime")
        #expect(reply.body == pair.video)
        let (_, object) = try server.json("/api/assets/\(id)")
        let video = try #require((object as? [String: Any])?["liveVideo"] as? [String: Any])
        #expect(video["embedded"] as? Bool == false)
        #expect((video["duration"] as? Double).map { abs($0 - 1) < 0.2 } == true, "\(video)")
    }
}

/// A thumbnail answered from its file is made again when that file goes.
@Suite struct GalleryThumbnailFastPathTests {
    @Test func aRemovedThumbnailIsMadeAgain() throws {
        let library = try GalleryAPITests.library(count: 1)
        let server = try GalleryProcess(library: library.root)
        let asset = try #require(try library.list("--album", "Trip").first)
        let id = try #require(assetID(asset))
        let first = try server.request("GET", "/api/assets/\(id)/thumbnail")
        #expect(first.status == 200 && first.header("content-type") == "image/jpeg")
        #expect(try server.request("GET", "/api/assets/\(id)/thumbnail").body == first.body)
        let path = try #require(asset["thumbnail"] as? String)
        try Sys.unlink(BytePath(path))
        let again = try server.request("GET", "/api/assets/\(id)/thumbnail")
        #expect(again.status == 200 && again.body == first.body)
    }
}
