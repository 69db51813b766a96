import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Never lose, never duplicate": byte-identical content is one asset.
@Suite
struct DuplicateTests {
    @Test func sameBytesTwiceIntoOneAlbumIsOneAssetOneFileOneEntry() throws {
        let library = try TestLibrary()
        let first = try library.input(corpus: "throbber.gif")
        let second = try library.input(corpus: "throbber.gif", as: "copy-of-throbber.gif")
        let a = try library.save([first], album: "QQ")
        let b = try library.save([second], album: "QQ")
        #expect(a.count == 1 && a == b, "the duplicate prints the same id")
        let assets = try library.list()
        #expect(assets.count == 1)
        #expect(assets.first?["albums"] as? [String] == ["QQ"])
        #expect(try library.rollFiles().count == 1)
        #expect(try library.entries(ofAlbum: "QQ") == ["throbber.gif"])
        #expect(try library.albums()["QQ"]?["count"] as? Int == 1)
    }

    @Test func duplicateIntoASecondAlbumJoinsIt() throws {
        let library = try TestLibrary()
        let file = try library.input(corpus: "throbber.gif")
        let a = try library.save([file], album: "QQ")
        let b = try library.save([file], album: "WeChat")
        #expect(a.count == 1 && a == b, "same id")
        let asset = try #require(try library.list().first)
        #expect(Set(asset["albums"] as? [String] ?? []) == ["QQ", "WeChat"])
        #expect(try library.rollFiles().count == 1, "still one roll file")
        #expect(try library.entries(ofAlbum: "QQ").count == 1)
        #expect(try library.entries(ofAlbum: "WeChat").count == 1)
        // Both entries are the roll file itself (hard links).
        let roll = try Sys.status(try #require(try library.rollFiles().first))
        let entry = try Sys.status(library.album("WeChat").appending("throbber.gif"))
        #expect(entry.inode == roll.inode && roll.linkCount == 3)
    }

    @Test func duplicatesWithinOneSaveCall() throws {
        let library = try TestLibrary()
        let first = try library.input(corpus: "cmyk_go_video-001.jpeg")
        let second = try library.input(corpus: "cmyk_go_video-001.jpeg", as: "again.jpeg")
        let ids = try library.save([first, second, first], album: "QQ")
        #expect(ids.count == 3 && Set(ids).count == 1, "\(ids)")
        #expect(try library.list().count == 1)
        #expect(try library.rollFiles().count == 1)
        #expect(try library.entries(ofAlbum: "QQ").count == 1)
    }

    @Test func filesThatDifferByOneByteAreTwoAssets() throws {
        let library = try TestLibrary()
        var bytes = try readFile(Fixtures.corpus("throbber.gif"))
        let original = try library.input(bytes: bytes, name: "a.gif")
        bytes[14] ^= 0x01  // one colour of the global palette
        let changed = try library.input(bytes: bytes, name: "b.gif")
        let ids = try library.save([original, changed], album: "QQ")
        #expect(ids.count == 2 && ids[0] != ids[1], "\(ids)")
        #expect(try library.list().count == 2)
        #expect(try library.rollFiles().count == 2)
        #expect(try library.entries(ofAlbum: "QQ").count == 2)
    }

    @Test func sameNameOtherContentGetsAFreeNameAndOverwritesNothing() throws {
        let library = try TestLibrary()
        try Sys.makeDirectory(library.inputs.appending("one"))
        try Sys.makeDirectory(library.inputs.appending("two"))
        let first = library.inputs.appending("one/photo.jpeg")
        let second = library.inputs.appending("two/photo.jpeg")
        try copyFile(Fixtures.corpus("cmyk_go_video-001.jpeg"), to: first)
        try copyFile(Fixtures.corpus("progressive_go_video-001.jpeg"), to: second)
        let ids = try library.save([first], album: "QQ") + library.save([second], album: "QQ")
        #expect(ids.count == 2 && ids[0] != ids[1])
        let assets = try library.list()
        let paths = assets.compactMap { $0["path"] as? String }
        #expect(paths.count == 2 && Set(paths).count == 2, "\(paths)")
        let rollFiles = try library.rollFiles()
        #expect(rollFiles.count == 2)
        #expect(rollFiles.contains { $0.lastComponent == "photo.jpeg" }, "the first keeps its name")
        // Each roll file still holds exactly what was saved to it.
        let byID = Dictionary(
            assets.map { (assetID($0) ?? 0, $0["path"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(try sha256(of: BytePath(byID[ids[0]] ?? "")) == (try sha256(of: first)))
        #expect(try sha256(of: BytePath(byID[ids[1]] ?? "")) == (try sha256(of: second)))
        #expect(try library.entries(ofAlbum: "QQ").count == 2, "two album entries, each under its own name")
        for asset in assets { #expect(asset["originalName"] as? String == "photo.jpeg") }
    }

    @Test func contentNotNameDecidesTheType() throws {
        let library = try TestLibrary()
        let file = try library.input(corpus: "screenshot-really-a-png.jpeg", as: "holiday.jpg")
        let ids = try library.save([file])
        let asset = try library.info(BytePath(String(try #require(ids.first))))
        #expect(asset["mediaType"] as? String == "image")
        #expect(asset["mimeType"] as? String == "image/png")
        #expect(asset["width"] as? Int == 1854 && asset["height"] as? Int == 1486)
    }
}
