import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Safe inputs": album names are compared exactly after NFC normalisation.
@Suite
struct AlbumNameTests {
    @Test func decomposedAndComposedNamesAreOneAlbum() throws {
        let library = try TestLibrary()
        let decomposed = "Cafe\u{301}"
        let composed = "Caf\u{E9}"
        #expect(Array(decomposed.utf8) != Array(composed.utf8))
        try library.save([try library.input(corpus: "throbber.gif")], album: decomposed)
        try library.save([try library.input(corpus: "DNG.dng")], album: composed)
        let folders = try Sys.listDirectory(library.root.appending("Albums")).map(\.name)
        #expect(folders == [BytePath(composed)], "one folder, under the NFC name")
        let albums = try library.albums()
        #expect(albums[composed]?["count"] as? Int == 2)
        #expect(albums.count == 16, "one user album and the fifteen smart ones")
        #expect(try library.list("--album", decomposed).count == 2, "either spelling finds it")
        for asset in try library.list() { #expect(asset["albums"] as? [String] == [composed]) }
    }

    @Test func saveJSONPrintsTheFiledAssets() throws {
        let library = try TestLibrary()
        let input = try library.input(corpus: "throbber.gif")
        let result = try library.run("save", "--album", "QQ", "--json", input.display)
        #expect(result.status == 0, "\(result.stderr)")
        let assets = try #require(try result.json() as? [[String: Any]])
        #expect(assets.count == 1)
        #expect(assets.first?["originalName"] as? String == "throbber.gif")
        #expect(assets.first?["albums"] as? [String] == ["QQ"])
    }
}
