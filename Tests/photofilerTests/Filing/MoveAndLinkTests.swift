import Foundation
import PhotoFilerFiling
import PhotoFilerSystem
import TestSupport
import Testing

/// `save --move` and `--link symbolic`.
@Suite
struct MoveAndLinkTests {
    @Test func withoutMoveTheSourceStays() throws {
        let library = try TestLibrary()
        let input = try library.input(corpus: "throbber.gif")
        let before = try Sys.status(input)
        try library.save([input], album: "QQ")
        let after = try Sys.status(input)
        #expect(
            after.inode == before.inode && after.modificationNanoseconds == before.modificationNanoseconds)
        #expect(after.linkCount == 1, "the roll file is a copy, not a link to the source")
        #expect(try library.rollFiles().count == 1)
    }

    @Test func moveRemovesTheSourceOnceFiled() throws {
        let library = try TestLibrary()
        let input = try library.input(corpus: "throbber.gif")
        let hash = try sha256(of: input)
        let ids = try library.save([input], album: "QQ", extra: ["--move"])
        #expect(ids.count == 1)
        #expect((try? Sys.status(input)) == nil, "the source is gone")
        let roll = try #require(try library.rollFiles().first)
        #expect(try sha256(of: roll) == hash)
        #expect(try library.entries(ofAlbum: "QQ").count == 1)
    }

    /// A crash at every mutating step of `save --move`: whenever the source is gone,
    /// the asset is already in the Roll, the album and the catalog.
    @Test func moveNeverRemovesTheSourceBeforeTheAssetIsDurable() throws {
        var crashes = 0
        for step in 1...60 {
            let library = try TestLibrary()
            let input = try library.input(corpus: "throbber.gif")
            let result = try library.run(
                "save", "--move", "--album", "QQ", input.display,
                environment: ["PHOTOFILER_CRASH_AT": "before:\(step)"])
            if result.status == 0 {
                #expect((try? Sys.status(input)) == nil)
                break
            }
            try #require(result.status == 86, "step \(step): \(result.stderr)")
            crashes += 1
            // The source is still there: nothing lost.
            guard (try? Sys.status(input)) == nil else { continue }
            let assets = try library.list()
            #expect(assets.count == 1, "step \(step): the source is gone, so the asset must be recorded")
            #expect(assets.first?["albums"] as? [String] == ["QQ"], "step \(step)")
            #expect(try library.entries(ofAlbum: "QQ").count == 1, "step \(step)")
            #expect(try library.rollFiles().count == 1, "step \(step)")
        }
        #expect(crashes > 5, "the crash points were reached")
    }

    @Test func symbolicAlbumEntriesAreRelativeLinksToTheRollFile() throws {
        let library = try TestLibrary()
        let input = try library.input(corpus: "throbber.gif")
        let ids = try library.save([input], album: "QQ", extra: ["--link", "symbolic"])
        let roll = try #require(try library.rollFiles().first)
        let entry = library.album("QQ").appending("throbber.gif")
        #expect(try Sys.status(entry).isSymbolicLink)
        let target = try Sys.readLink(entry)
        #expect(!target.isAbsolute, "relative: \(target)")
        #expect(target.display.hasPrefix("../../Roll/"), "\(target)")
        #expect(
            LibraryLayout.normalize(entry.parent.appending(target)) == roll, "it resolves to the roll file")
        #expect(try Sys.status(entry, followLinks: true).inode == (try Sys.status(roll)).inode)
        #expect(try Sys.status(roll).linkCount == 1, "no hard link besides the roll file")
        // The same asset joining a second album as a symbolic link, too.
        let again = try library.save([input], album: "WeChat", extra: ["--link", "symbolic"])
        #expect(again == ids)
        #expect(try Sys.readLink(library.album("WeChat").appending("throbber.gif")).isAbsolute == false)
    }
}
