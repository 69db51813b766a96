import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// HEIF's family filed through the sandboxed helpers, as a user's `save` files them.
@Suite struct HeifFilingTests {
    /// photofiler(1) JSON: width and height as displayed. A HEIF stored turned, with the
    /// `irot` (and `imir`) that turn it upright and no EXIF orientation (as tools write
    /// them), is 1024 × 768 as shown, not the 768 × 1024 it is stored at.
    @Test func aHEIFTurnedByItsBoxesHasItsShownSize() throws {
        let library = try TestLibrary()
        let folder = Fixtures.root.appending("heif-orientation")
        let inputs = try ["grid-turned.heic", "grid-turned-mirrored.heic"].map { name in
            try library.input(bytes: try readFile(folder.appending(name)), name: BytePath(name))
        }
        try library.save(inputs, album: "Tools")
        let assets = try library.list()
        try #require(assets.count == 2)
        for asset in assets {
            #expect(asset["width"] as? Int == 1024, "\(asset)")
            #expect(asset["height"] as? Int == 768, "\(asset)")
            #expect(asset["orientation"] as? Int == 1, "\(asset)")
        }
    }

    /// photofiler(1) "Content decides": AVIF is supported. Filed, sized, and given a thumbnail.
    @Test func anAVIFIsFiledWithItsSizeAndAThumbnail() throws {
        let library = try TestLibrary()
        let bytes = try readFile(Fixtures.root.appending("avif").appending("landscape.avif"))
        let input = try library.input(bytes: bytes, name: "landscape.avif")
        try library.save([input], album: "Web")
        let assets = try library.list()
        try #require(assets.count == 1)
        #expect(assets[0]["mediaType"] as? String == "image")
        #expect(assets[0]["width"] as? Int == 320)
        #expect(assets[0]["height"] as? Int == 213)
        let id = String(try #require(assetID(assets[0])))
        let thumbnail = try library.run("thumb", id)
        #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
        #expect(thumbnail.stdoutBytes.starts(with: [0xFF, 0xD8]), "a JPEG")
    }
}
