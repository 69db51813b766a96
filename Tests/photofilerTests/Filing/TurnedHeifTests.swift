import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// SPEC "Metadata": width and height as displayed. A HEIF stored turned, with the
/// `irot` (and `imir`) that turn it upright and no EXIF orientation (as tools write
/// them), is 1024 × 768 as shown, not the 768 × 1024 it is stored at.
@Suite struct TurnedHeifTests {
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
}
