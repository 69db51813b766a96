import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// `rm`, `restore`, `favorite`/`unfavorite`, `hide`/`unhide`, and a deleted asset's bytes coming back.
@Suite
struct LifecycleCommandTests {
    /// A library with `throbber.gif` in QQ and WeChat, and `cmyk…` in QQ.
    func library() throws -> (TestLibrary, gif: AssetID, jpeg: AssetID) {
        let library = try TestLibrary()
        let gif = try library.input(corpus: "throbber.gif")
        let jpeg = try library.input(corpus: "cmyk_go_video-001.jpeg")
        let ids = try library.save([gif, jpeg], album: "QQ")
        try library.save([gif], album: "WeChat")
        try #require(ids.count == 2)
        return (library, ids[0], ids[1])
    }

    var trash: String { "Recently Deleted" }

    @Test func rmMovesToRecentlyDeletedAndRestoreBringsItBack() throws {
        let (library, gif, jpeg) = try library()
        let hash = try sha256(of: Fixtures.corpus("throbber.gif"))
        let removed = try library.run("rm", String(gif))
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr.isEmpty, "\(removed.stderr)")

        #expect(
            try library.rollFiles().map(\.lastComponent) == ["cmyk_go_video-001.jpeg"], "gone from the Roll")
        let trashed = try TestLibrary.files(under: library.root.appending(trash))
        #expect(trashed.count == 1)
        #expect(try trashed.first.map(sha256(of:)) == hash, "the bytes wait in Recently Deleted")
        #expect(try library.entries(ofAlbum: "QQ") == ["cmyk_go_video-001.jpeg"], "gone from every album")
        #expect(try library.entries(ofAlbum: "WeChat").isEmpty)
        #expect(try library.list().compactMap(assetID) == [jpeg], "list hides it")
        let deleted = try library.list("--album", trash)
        #expect(deleted.compactMap(assetID) == [gif], "Recently Deleted shows it")
        let trashPath = try #require(deleted.first?["path"] as? String)
        #expect(
            trashPath.hasPrefix(library.root.appending(trash).display + "/"),
            "its path is in Recently Deleted")
        #expect(try sha256(of: BytePath(trashPath)) == hash)
        let text = try library.run("list", "--album", trash).stdout
        #expect(text.hasSuffix("\t\(trashPath)\n"), "the text listing shows the same path: \(text)")
        let albums = try library.albums()
        #expect(albums[trash]?["count"] as? Int == 1)
        #expect(albums["QQ"]?["count"] as? Int == 1)
        #expect(albums["WeChat"]?["count"] as? Int == 0)
        #expect(try library.info(BytePath(String(gif)))["id"] != nil, "info still finds it by id")

        let restored = try library.run("restore", String(gif))
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try TestLibrary.files(under: library.root.appending(trash)).isEmpty)
        let asset = try library.info(BytePath(String(gif)))
        #expect(assetID(asset) == gif, "same id")
        #expect(Set(asset["albums"] as? [String] ?? []) == ["QQ", "WeChat"], "the same albums")
        let path = try #require(asset["path"] as? String)
        #expect(path.hasPrefix(library.root.appending("Roll").display + "/"))
        #expect(try sha256(of: BytePath(path)) == hash)
        #expect(try library.entries(ofAlbum: "QQ").count == 2)
        #expect(try library.entries(ofAlbum: "WeChat").count == 1)
        #expect(try library.list().count == 2)
        #expect(try library.list("--album", trash).isEmpty)
        #expect(try library.run("check").status == 0)
    }

    /// A restore makes each album entry again as it was: a symbolic link stays one.
    /// The roll file removed by hand while no daemon ran: `rm` finishes that
    /// deletion (the album entry keeps the bytes for Recently Deleted) instead of
    /// failing on the missing file.
    @Test func rmOfAnAssetWhoseRollFileWasRemovedByHand() throws {
        let (library, gif, jpeg) = try library()
        let rollFile = try #require(try library.rollFiles().first { $0.lastComponent == "throbber.gif" })
        try Sys.unlink(rollFile)
        let removed = try library.run("rm", String(gif))
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try library.list().compactMap(assetID) == [jpeg])
        #expect(try library.list("--album", trash).compactMap(assetID) == [gif], "in Recently Deleted")
        #expect(try library.entries(ofAlbum: "WeChat").isEmpty)
        #expect(try library.run("restore", String(gif)).status == 0)
        #expect(try library.rollFiles().count == 2)
        #expect(try library.run("check").status == 0)
    }

    /// The roll file moved within the Roll while no daemon ran (a move, not a
    /// deletion): `rm` deletes the asset from where it is now, and nothing brings
    /// it back later.
    @Test func rmOfAnAssetWhoseRollFileWasMovedByHand() throws {
        let (library, gif, jpeg) = try library()
        let rollFile = try #require(try library.rollFiles().first { $0.lastComponent == "throbber.gif" })
        let folder = library.root.appending("Roll").appending("2001").appending("02")
        try Sys.makeDirectories(folder)
        try Sys.rename(rollFile, to: folder.appending("throbber.gif"))
        let removed = try library.run("rm", String(gif))
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try library.list().compactMap(assetID) == [jpeg])
        #expect(try library.list("--album", trash).compactMap(assetID) == [gif], "in Recently Deleted")
        #expect(try Sys.statusIfExists(folder.appending("throbber.gif")) == nil, "gone from the Roll")
        #expect(try library.run("check", "--repair").status == 0)
        #expect(try library.list().compactMap(assetID) == [jpeg], "not brought back")
        #expect(try library.run("restore", String(gif)).status == 0)
        #expect(try library.list().count == 2)
    }

    /// Recently Deleted emptied by hand: `restore` says in one sentence that the file
    /// was deleted outside photofiler, and the asset is no longer listed there.
    @Test func restoreAfterRecentlyDeletedWasEmptiedByHand() throws {
        let (library, gif, _) = try library()
        #expect(try library.run("rm", String(gif)).status == 0)
        for file in try TestLibrary.files(under: library.root.appending(trash)) { try Sys.unlink(file) }
        let restore = try library.run("restore", String(gif))
        #expect(restore.status == 1)
        #expect(restore.stderr.contains("its file was deleted outside photofiler"), "\(restore.stderr)")
        #expect(restore.stderr.split(separator: "\n").count == 1)
        #expect(try library.list("--album", trash).isEmpty, "not listed in Recently Deleted")
    }

    @Test func restoreKeepsEachEntrysKindOfLink() throws {
        let library = try TestLibrary()
        let gif = try library.input(corpus: "throbber.gif")
        let id = try #require(try library.save([gif], album: "Soft", extra: ["--link", "symbolic"]).first)
        try library.save([gif], album: "Hard")
        let soft = library.album("Soft").appending("throbber.gif")
        let hard = library.album("Hard").appending("throbber.gif")
        #expect(try Sys.status(soft).isSymbolicLink && !Sys.status(hard).isSymbolicLink)

        #expect(try library.run("rm", String(id)).status == 0)
        let restored = try library.run("restore", String(id))
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try Sys.status(soft).isSymbolicLink, "the symbolic entry is symbolic again")
        #expect(try Sys.readLink(soft).isAbsolute == false)
        #expect(try Sys.status(soft, followLinks: true).size == Sys.status(hard).size)
        #expect(try !Sys.status(hard).isSymbolicLink, "the hard entry is a hard link again")
        #expect(try Sys.status(hard).linkCount == 2, "the roll file and its album entry")
    }

    @Test func rmFromOneAlbumLeavesTheRollAndOtherAlbums() throws {
        let (library, gif, _) = try library()
        let result = try library.run("rm", String(gif), "--album", "QQ")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try library.entries(ofAlbum: "QQ") == ["cmyk_go_video-001.jpeg"])
        #expect(try library.entries(ofAlbum: "WeChat") == ["throbber.gif"])
        #expect(try library.rollFiles().count == 2, "the Roll keeps it")
        #expect(try library.info(BytePath(String(gif)))["albums"] as? [String] == ["WeChat"])
        #expect(try library.list("--album", "QQ").count == 1)
        // Not a member any more: a clear failure.
        let again = try library.run("rm", String(gif), "--album", "QQ")
        #expect(again.status == 1)
        #expect(
            again.stderr.contains("QQ") && again.stderr.split(separator: "\n").count == 1, "\(again.stderr)")
        #expect(try library.run("check").status == 0)
    }

    @Test func favoriteAndUnfavoriteFillTheFavoritesAlbum() throws {
        let (library, gif, jpeg) = try library()
        #expect(try library.run("favorite", String(gif), String(jpeg)).status == 0)
        #expect(try library.albums()["Favorites"]?["count"] as? Int == 2)
        #expect(try library.info(BytePath(String(gif)))["favorite"] as? Bool == true)
        #expect(try library.run("unfavorite", String(gif)).status == 0)
        let favorites = try library.albums()["Favorites"]
        #expect(favorites?["count"] as? Int == 1)
        #expect((favorites?["cover"] as? NSNumber)?.int64Value == jpeg)
        #expect(try library.info(BytePath(String(gif)))["favorite"] as? Bool == false)
        #expect(try library.list("--album", "Favorites").compactMap(assetID) == [jpeg])
        let unknown = try library.run("favorite", "999")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("999"), "\(unknown.stderr)")
    }

    /// A hidden asset leaves every listing, count and cover but Hidden's and `info`'s,
    /// keeps its files, and stays hidden through `check --repair`, `rm` and `restore`.
    @Test func hideLeavesEveryListingButHiddenAndUnhideBringsItBack() throws {
        let (library, gif, jpeg) = try library()
        let entries = try library.entries(ofAlbum: "QQ")
        let hidden = try library.run("hide", String(gif))
        #expect(hidden.status == 0 && hidden.stderr.isEmpty, "\(hidden.stderr)")
        func count(_ album: String) throws -> (Int?, AssetID?) {
            let summary = try library.albums()[album]
            return (summary?["count"] as? Int, (summary?["cover"] as? NSNumber)?.int64Value)
        }
        #expect(try count("QQ") == (1, jpeg), "the cover is the newest shown asset")
        #expect(try count("WeChat") == (0, nil))
        #expect(try count("Animated") == (0, nil))
        #expect(try count("Recently Added") == (1, jpeg))
        #expect(try count("Hidden") == (1, gif))
        #expect(try library.list().compactMap(assetID) == [jpeg])
        #expect(try library.list("--album", "QQ").compactMap(assetID) == [jpeg])
        #expect(try library.list("--album", "Hidden").compactMap(assetID) == [gif])
        #expect(try library.info(BytePath(String(gif)))["hidden"] as? Bool == true)
        #expect(try library.info(BytePath(String(jpeg)))["hidden"] as? Bool == false)
        #expect(try library.entries(ofAlbum: "QQ") == entries, "its links stay on disk")
        #expect(try library.rollFiles().count == 2)
        #expect(try library.run("check").status == 0, "hiding is no difference between catalog and disk")

        // A repair that has something to mend keeps it hidden.
        for entry in try library.entries(ofAlbum: "WeChat") {
            try Sys.unlink(library.album("WeChat").appending(entry))
        }
        #expect(try library.run("check", "--repair", "--quiet").status == 0)
        #expect(try library.info(BytePath(String(gif)))["hidden"] as? Bool == true)

        #expect(try library.run("rm", String(gif)).status == 0)
        #expect(try library.list("--album", "Recently Deleted").isEmpty)
        #expect(try library.run("restore", String(gif)).status == 0)
        #expect(try library.info(BytePath(String(gif)))["hidden"] as? Bool == true, "restored, still hidden")
        #expect(try library.list("--album", "Hidden").compactMap(assetID) == [gif])

        #expect(try library.run("unhide", String(gif)).status == 0)
        #expect(try Set(library.list("--album", "QQ").compactMap(assetID)) == [gif, jpeg])
        #expect(try count("Hidden") == (0, nil))
        let unknown = try library.run("hide", "999")
        #expect(unknown.status == 1 && unknown.stderr.contains("999"), "\(unknown.stderr)")
    }

    /// Two assets with one name take turns in the Roll and in Recently Deleted: nothing
    /// is ever overwritten, each file keeps its own bytes.
    @Test func restoreAndRmNeverOverwriteANamesake() throws {
        let library = try TestLibrary()
        try Sys.makeDirectory(library.inputs.appending("a"))
        try Sys.makeDirectory(library.inputs.appending("b"))
        let a = library.inputs.appending("a/photo.jpeg")
        let b = library.inputs.appending("b/photo.jpeg")
        try copyFile(Fixtures.corpus("cmyk_go_video-001.jpeg"), to: a)
        try copyFile(Fixtures.corpus("progressive_go_video-001.jpeg"), to: b)
        let (hashA, hashB) = (try sha256(of: a), try sha256(of: b))
        let idA = try #require(try library.save([a], album: "QQ").first)
        #expect(try library.run("rm", String(idA)).status == 0)
        let idB = try #require(try library.save([b], album: "QQ").first)
        #expect(try library.run("restore", String(idA)).status == 0)
        let rollHashes = try library.rollFiles().map(sha256(of:))
        #expect(Set(rollHashes) == [hashA, hashB] && rollHashes.count == 2, "both in the Roll")
        #expect(try library.entries(ofAlbum: "QQ").count == 2)
        #expect(try library.run("rm", String(idA), String(idB)).status == 0)
        let trashed = try TestLibrary.files(under: library.root.appending(trash)).map(sha256(of:))
        #expect(Set(trashed) == [hashA, hashB] && trashed.count == 2, "both in Recently Deleted")
        #expect(try library.rollFiles().isEmpty)
        #expect(try library.run("restore", String(idA), String(idB)).status == 0)
        #expect(Set(try library.rollFiles().map(sha256(of:))) == [hashA, hashB])
        #expect(try library.run("check").status == 0)
    }

    @Test func savingTheBytesOfADeletedAssetRestoresIt() throws {
        let (library, gif, _) = try library()
        #expect(try library.run("rm", String(gif)).status == 0)
        let copy = try library.input(corpus: "throbber.gif", as: "again.gif")
        let ids = try library.save([copy], album: "Weibo")
        #expect(ids == [gif], "the same asset comes back")
        let asset = try library.info(BytePath(String(gif)))
        #expect(Set(asset["albums"] as? [String] ?? []) == ["QQ", "WeChat", "Weibo"])
        #expect(asset["deleted"] == nil)
        #expect(try library.list().count == 2)
        #expect(try library.list("--album", trash).isEmpty)
        #expect(
            try TestLibrary.files(under: library.root.appending(trash)).isEmpty,
            "no second copy left in the trash")
        #expect(try library.rollFiles().count == 2, "one roll file for it")
        #expect(try library.entries(ofAlbum: "Weibo").count == 1)
        #expect(try library.run("check").status == 0)
    }
}
